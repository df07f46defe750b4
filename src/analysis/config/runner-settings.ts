/**
 * A test runner's file-level settings in one normalised shape, whatever file
 * they came from (vitest/vite/jest/mocha config files, package.json `jest`,
 * `mocha`, `c8` and `nyc` keys, `.c8rc`/`.nycrc`, pytest and coverage.py
 * ini/toml tables), and the comparison that says which settings now run
 * fewer tests or enforce less coverage.
 */

import { globToRegExp, isPathCovered } from "./command.js";
import { show, type TamperNote } from "./finding.js";
import { getPath, type StaticValue } from "./static-value.js";

/** One setting's value, the name it has in its file, and its line. */
export interface Setting<T> {
  value: T;
  /** Its key as written, e.g. `test.exclude`, `testPathIgnorePatterns`, `tool.pytest.ini_options.testpaths`. */
  name: string;
  line: number | null;
}

/** The settings that decide which tests run and how much coverage is required. */
export interface RunnerSettings {
  /** Which tests are collected: vitest `include`, jest `testMatch`/`testRegex`, mocha `spec`, pytest `python_files`. */
  include?: Setting<string[]>;
  /** Which are left out: vitest `exclude`, jest `testPathIgnorePatterns`, mocha `ignore`, pytest `norecursedirs`. */
  exclude?: Setting<string[]>;
  /** Folders searched: jest `roots`, vitest `dir`, pytest `testpaths`. */
  roots?: Setting<string[]>;
  /** A test-name filter: `testNamePattern`, mocha `grep`. */
  nameFilter?: Setting<string>;
  /** An empty run passes. */
  passWithNoTests?: Setting<boolean>;
  /** Enforced coverage minimums by metric (`lines`, `global.branches`, `total`). */
  thresholds: Map<string, Setting<number>>;
}

/** Exclusions that never hide real tests (build output, dependencies, caches, the runners' own defaults). */
const BENIGN_EXCLUDE =
  /node_modules|(^|[/*{,])(dist|build|coverage|out|tmp|temp|vendor|\.venv|venv|env|\.tox|\.nox|\.git|\.cache|\.idea|\.next|\.nuxt|\.output|\.svelte-kit|\.vercel|\.turbo|__pycache__|\.eggs|[^/]*\.egg-info|\.mypy_cache|\.pytest_cache|cypress|site-packages|_build|\.{idea,git,cache,output,temp})([/*},]|$)|configDefaults|defaultExclude|^\*\.egg$|^\.\*$|^(\*\*\/)?\.[\w*-]+\/?(\*\*)?$/;

const METRICS = ["lines", "branches", "functions", "statements"] as const;

function asStrings(value: StaticValue | undefined): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.map((item) => (typeof item === "string" ? item : JSON.stringify(item)));
  return undefined;
}

/** Builds a setting from a static value at `path` (relative to `base`) with its line from `lines`. */
function settingAt<T>(root: StaticValue, lines: ReadonlyMap<string, number>, path: string, convert: (value: StaticValue | undefined) => T | undefined, prefix = ""): Setting<T> | undefined {
  const value = convert(getPath(root, path));
  if (value === undefined) return undefined;
  return { value, name: prefix + path, line: lines.get(path) ?? null };
}

/** Thresholds under an object like `{ lines: 80, 100: true, "src/**": { branches: 90 } }`. */
function readThresholds(root: StaticValue, lines: ReadonlyMap<string, number>, path: string, into: Map<string, Setting<number>>, label = ""): void {
  const object = getPath(root, path);
  if (object === null || object === undefined || typeof object !== "object" || Array.isArray(object)) return;
  for (const [key, value] of Object.entries(object)) {
    const childPath = `${path}.${key}`;
    const line = lines.get(childPath) ?? null;
    if ((METRICS as readonly string[]).includes(key) && typeof value === "number") into.set(label + key, { value, name: childPath, line });
    else if (key === "100" && value === true) for (const metric of METRICS) into.set(label + metric, { value: 100, name: childPath, line });
    else if (value !== null && typeof value === "object" && !Array.isArray(value)) readThresholds(root, lines, childPath, into, `${label}${key}.`);
  }
}

const strings = (value: StaticValue | undefined): string[] | undefined => asStrings(value);
const text = (value: StaticValue | undefined): string | undefined => (typeof value === "string" ? value : undefined);
const bool = (value: StaticValue | undefined): boolean | undefined => (typeof value === "boolean" ? value : undefined);

/** The settings of a vitest/vite config (its `test` block). */
export function vitestSettings(config: StaticValue, lines: ReadonlyMap<string, number>): RunnerSettings {
  const thresholds = new Map<string, Setting<number>>();
  readThresholds(config, lines, "test.coverage.thresholds", thresholds);
  for (const metric of METRICS) {
    const legacy = settingAt(config, lines, `test.coverage.${metric}`, (value) => (typeof value === "number" ? value : undefined));
    if (legacy && !thresholds.has(metric)) thresholds.set(metric, legacy);
  }
  const settings: RunnerSettings = { thresholds };
  assign(settings, "include", settingAt(config, lines, "test.include", strings));
  assign(settings, "exclude", settingAt(config, lines, "test.exclude", strings));
  const dir = settingAt(config, lines, "test.dir", strings);
  assign(settings, "roots", dir);
  assign(settings, "nameFilter", settingAt(config, lines, "test.testNamePattern", text));
  assign(settings, "passWithNoTests", settingAt(config, lines, "test.passWithNoTests", bool));
  return settings;
}

/** The settings of a jest config object (a config file's export or package.json `jest`); `prefix` names where it sits. */
export function jestSettings(config: StaticValue, lines: ReadonlyMap<string, number>, prefix = ""): RunnerSettings {
  const thresholds = new Map<string, Setting<number>>();
  readThresholds(config, lines, "coverageThreshold", thresholds);
  for (const setting of thresholds.values()) setting.name = prefix + setting.name;
  const settings: RunnerSettings = { thresholds };
  const testMatch = settingAt(config, lines, "testMatch", strings, prefix);
  const testRegex = settingAt(config, lines, "testRegex", strings, prefix);
  assign(settings, "include", testMatch ?? (testRegex ? { ...testRegex, value: testRegex.value.map((regex) => `regex:${regex}`) } : undefined));
  const ignores = [settingAt(config, lines, "testPathIgnorePatterns", strings, prefix), settingAt(config, lines, "modulePathIgnorePatterns", strings, prefix)].filter(
    (setting): setting is Setting<string[]> => setting !== undefined,
  );
  if (ignores.length > 0) assign(settings, "exclude", { value: ignores.flatMap((setting) => setting.value), name: ignores.map((setting) => setting.name).join(" + "), line: ignores[0]?.line ?? null });
  assign(settings, "roots", settingAt(config, lines, "roots", strings, prefix));
  assign(settings, "nameFilter", settingAt(config, lines, "testNamePattern", text, prefix));
  assign(settings, "passWithNoTests", settingAt(config, lines, "passWithNoTests", bool, prefix));
  return settings;
}

/** A glob list split into what it selects and what its `!negated` entries leave out (ava `files`). */
function splitNegated(setting: Setting<string[]> | undefined): { include?: Setting<string[]>; exclude?: Setting<string[]> } {
  if (!setting) return {};
  const positive = setting.value.filter((glob) => !glob.startsWith("!"));
  const negative = setting.value.filter((glob) => glob.startsWith("!")).map((glob) => glob.slice(1));
  return {
    ...(positive.length > 0 ? { include: { ...setting, value: positive } } : {}),
    ...(negative.length > 0 ? { exclude: { ...setting, value: negative } } : {}),
  };
}

/** The settings of an ava config (`ava.config.*` or package.json `ava`): `files` (its `!` globs exclude), `match` (a title filter). */
export function avaSettings(config: StaticValue, lines: ReadonlyMap<string, number>, prefix = ""): RunnerSettings {
  const settings: RunnerSettings = { thresholds: new Map() };
  const { include, exclude } = splitNegated(settingAt(config, lines, "files", strings, prefix));
  assign(settings, "include", include);
  assign(settings, "exclude", exclude);
  const match = settingAt(config, lines, "match", strings, prefix);
  assign(settings, "nameFilter", match ? { ...match, value: match.value.join(" ") } : undefined);
  return settings;
}

/**
 * The settings of a Playwright config (`testDir`, `testMatch`, `testIgnore`, `grep`) or a
 * Cypress config (`e2e.specPattern` / `component.specPattern`, `excludeSpecPattern`).
 */
export function e2eSettings(config: StaticValue, lines: ReadonlyMap<string, number>): RunnerSettings {
  const settings: RunnerSettings = { thresholds: new Map() };
  const include =
    settingAt(config, lines, "testMatch", strings) ??
    settingAt(config, lines, "e2e.specPattern", strings) ??
    settingAt(config, lines, "component.specPattern", strings) ??
    settingAt(config, lines, "specPattern", strings);
  assign(settings, "include", include);
  assign(
    settings,
    "exclude",
    settingAt(config, lines, "testIgnore", strings) ?? settingAt(config, lines, "e2e.excludeSpecPattern", strings) ?? settingAt(config, lines, "excludeSpecPattern", strings),
  );
  assign(settings, "roots", settingAt(config, lines, "testDir", strings));
  assign(settings, "nameFilter", settingAt(config, lines, "grep", text));
  return settings;
}

/** The settings of a mocha config (`.mocharc.*` or package.json `mocha`). */
export function mochaSettings(config: StaticValue, lines: ReadonlyMap<string, number>, prefix = ""): RunnerSettings {
  const settings: RunnerSettings = { thresholds: new Map() };
  assign(settings, "include", settingAt(config, lines, "spec", strings, prefix));
  assign(settings, "exclude", settingAt(config, lines, "ignore", strings, prefix) ?? settingAt(config, lines, "exclude", strings, prefix));
  const grep = settingAt(config, lines, "grep", text, prefix) ?? settingAt(config, lines, "fgrep", text, prefix);
  const invert = getPath(config, "invert") === true;
  assign(settings, "nameFilter", grep ? { ...grep, value: invert ? `not ${grep.value}` : grep.value } : undefined);
  return settings;
}

/** The enforced thresholds of a c8/nyc config (only with `check-coverage`; lines defaults to 90 then). */
export function istanbulSettings(config: StaticValue, lines: ReadonlyMap<string, number>, prefix = ""): RunnerSettings {
  const thresholds = new Map<string, Setting<number>>();
  const checking = getPath(config, "check-coverage") ?? getPath(config, "checkCoverage");
  if (checking !== true && checking !== "true") return { thresholds };
  for (const metric of METRICS) {
    const value = getPath(config, metric);
    const number = typeof value === "number" ? value : typeof value === "string" && Number.isFinite(Number(value)) ? Number(value) : undefined;
    if (number !== undefined) thresholds.set(metric, { value: number, name: prefix + metric, line: lines.get(metric) ?? null });
  }
  if (getPath(config, "100") === true) for (const metric of METRICS) thresholds.set(metric, { value: 100, name: `${prefix}100`, line: lines.get("100") ?? null });
  if (!thresholds.has("lines")) thresholds.set("lines", { value: 90, name: `${prefix}check-coverage`, line: lines.get("check-coverage") ?? lines.get("checkCoverage") ?? null });
  return { thresholds };
}

function assign<K extends keyof RunnerSettings>(settings: RunnerSettings, key: K, value: RunnerSettings[K] | undefined): void {
  if (value !== undefined) settings[key] = value;
}

/** True when `pattern` (a glob, a path or `regex:<source>`) selects everything `narrow` selects, as far as text can tell. */
function isPatternCovered(wide: string, narrow: string): boolean {
  if (wide === narrow) return true;
  if (wide.startsWith("regex:") || narrow.startsWith("regex:")) {
    return wide.startsWith("regex:") && narrow.startsWith("regex:") && wide.slice(6).includes(narrow.slice(6));
  }
  return isPathCovered(wide, narrow) || globToRegExp(wide).test(narrow);
}

/** A threshold went down: 80 -> 70, or (vitest's "at most N uncovered") -10 -> -20; a change of sign is not judged. */
function isLowered(was: number, now: number): boolean {
  if (was >= 0 && now >= 0) return now < was;
  if (was < 0 && now < 0) return now < was;
  return false;
}

/**
 * Notes for every way `after` runs fewer tests or enforces less coverage
 * than `before`: exclusions added, includes or roots narrowed, a name
 * filter added, passWithNoTests turned on, thresholds lowered or removed.
 * `tool` names the runner in messages.
 */
export function compareRunnerSettings(before: RunnerSettings, after: RunnerSettings, tool: string): TamperNote[] {
  const notes: TamperNote[] = [];
  if (after.exclude) {
    const had = before.exclude?.value ?? [];
    // A cypress/ folder is benign for other runners (its specs are Cypress's), never for Cypress itself.
    const isBenign = (pattern: string): boolean => BENIGN_EXCLUDE.test(tool === "cypress" ? pattern.replace(/(^|\/)cypress(?=\/)/g, "$1specs") : pattern);
    const added = after.exclude.value.filter((pattern) => !had.includes(pattern) && !isBenign(pattern));
    if (added.length > 0) {
      notes.push({
        setting: after.exclude.name,
        line: after.exclude.line,
        message: `${tool} ${after.exclude.name} now leaves out ${added.map((p) => show(p)).join(", ")}: tests matching ${added.length === 1 ? "it" : "them"} no longer run`,
        before: before.exclude?.value ?? null,
        after: after.exclude.value,
        detail: { excluded_added: added },
      });
    }
  }
  if (after.include) {
    const narrowed = before.include ? before.include.value.filter((pattern) => !after.include?.value.some((wide) => isPatternCovered(wide, pattern))) : [];
    const namesFiles = !before.include && after.include.value.some((pattern) => !/[*?[{]/.test(pattern) && !pattern.startsWith("regex:") && /\.[a-z]+$/i.test(pattern));
    if (narrowed.length > 0 || namesFiles) {
      notes.push({
        setting: after.include.name,
        line: after.include.line,
        message: namesFiles
          ? `${tool} ${after.include.name} now collects only ${after.include.value.map((p) => show(p)).join(", ")} instead of every test file`
          : `${tool} ${after.include.name} no longer collects ${narrowed.map((p) => show(p)).join(", ")} (now ${show(after.include.value)})`,
        before: before.include?.value ?? null,
        after: after.include.value,
        detail: { no_longer_included: narrowed },
      });
    }
  }
  if (before.roots && after.roots) {
    const lost = before.roots.value.filter((root) => !after.roots?.value.some((wide) => isPathCovered(wide, root)));
    if (lost.length > 0) {
      notes.push({
        setting: after.roots.name,
        line: after.roots.line,
        message: `${tool} ${after.roots.name} no longer searches ${lost.map((p) => show(p)).join(", ")} for tests`,
        before: before.roots.value,
        after: after.roots.value,
        detail: { roots_removed: lost },
      });
    }
  }
  if (after.nameFilter && after.nameFilter.value !== before.nameFilter?.value && after.nameFilter.value !== "") {
    notes.push({
      setting: after.nameFilter.name,
      line: after.nameFilter.line,
      message: `${tool} ${after.nameFilter.name} now runs only tests whose names match ${show(after.nameFilter.value)}`,
      before: before.nameFilter?.value ?? null,
      after: after.nameFilter.value,
    });
  }
  if (after.passWithNoTests?.value === true && before.passWithNoTests?.value !== true) {
    notes.push({
      setting: after.passWithNoTests.name,
      line: after.passWithNoTests.line,
      message: `${tool} ${after.passWithNoTests.name} is now true: a run that finds no tests passes`,
      before: before.passWithNoTests?.value ?? null,
      after: true,
    });
  }
  if (before.thresholds.size > 1 && after.thresholds.size === 0) {
    const first = [...before.thresholds.values()][0] as Setting<number>;
    notes.push({
      setting: "coverage thresholds",
      line: null,
      message: `${tool} coverage thresholds are no longer enforced (were ${[...before.thresholds].map(([metric, setting]) => `${metric} ${setting.value}`).join(", ")})`,
      before: Object.fromEntries([...before.thresholds].map(([metric, setting]) => [metric, setting.value])),
      after: null,
      isCoverageThreshold: true,
      detail: { first_setting: first.name },
    });
    return notes;
  }
  for (const [metric, was] of before.thresholds) {
    const now = after.thresholds.get(metric);
    if (now !== undefined && !isLowered(was.value, now.value)) continue;
    notes.push({
      setting: now?.name ?? was.name,
      line: now?.line ?? null,
      message: now === undefined ? `${tool} coverage threshold ${metric} (${was.value}) was removed` : `${tool} coverage threshold ${metric} lowered from ${was.value} to ${now.value}`,
      before: was.value,
      after: now?.value ?? null,
      isCoverageThreshold: true,
      detail: { metric },
    });
  }
  return notes;
}
