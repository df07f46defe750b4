/**
 * Python test configuration: pytest settings in pytest.ini, tox.ini,
 * setup.cfg and pyproject.toml (`addopts`, `testpaths`, `python_files`,
 * `norecursedirs`), coverage.py `fail_under` wherever it lives, tox
 * `commands`/`ignore_outcome`, pyproject task runners' test scripts, and
 * conftest.py files that exclude tests or patch the harness.
 */

import { compareCommands, runsTests } from "./command.js";
import { show, type TamperNote } from "./finding.js";
import { parseIni, parseToml, type IniEntry, type IniFile, type TomlDocument, type TomlValue } from "./ini.js";
import { compareRunnerSettings, type RunnerSettings, type Setting } from "./runner-settings.js";

/** A python config file kind, by name. */
export type PythonConfigKind = "pytest.ini" | "tox.ini" | "setup.cfg" | "pyproject.toml" | ".coveragerc" | "conftest.py";

/** The pytest options and coverage threshold read from one file, whatever its format. */
interface PytestConfig {
  addopts?: Setting<string>;
  settings: RunnerSettings;
  /** Extra pattern lists (`python_functions`, `python_classes`) compared like includes. */
  patterns: Map<string, Setting<string[]>>;
  /** Names of the registered `markers` (`slow: marks slow tests` -> `slow`). */
  markers?: string[];
}

/** Marker names of a `markers` setting: one `name[(args)]: description` per line or list entry. */
function markerNames(lines: readonly string[]): string[] {
  return lines.map((line) => /^\s*([A-Za-z_]\w*)/.exec(line)?.[1]).filter((name): name is string => name !== undefined);
}

/**
 * `addopts` with a `-m` expression removed when it only deselects markers
 * registered in this same change (`-m "not gpu"` beside a new `gpu` marker):
 * no test carried that marker before, so the filter deselects no existing
 * test (issue 9). Tests that gain the marker are judged where they change.
 */
function withoutNewMarkerFilter(addopts: string, before: PytestConfig, after: PytestConfig): string {
  const added = new Set((after.markers ?? []).filter((name) => !(before.markers ?? []).includes(name)));
  if (added.size === 0 || /(^|\s)-m\b/.test(before.addopts?.value ?? "")) return addopts;
  return addopts.replace(/(^|\s)-m\s*(?:"([^"]*)"|'([^']*)'|(\S+))/, (whole, lead: string, double?: string, single?: string, bare?: string) => {
    const parts = (double ?? single ?? bare ?? "").split(/\s+and\s+/);
    const names = parts.map((part) => /^\s*not\s+([A-Za-z_]\w*)\s*$/.exec(part)?.[1]);
    return names.every((name) => name !== undefined && added.has(name)) ? lead : whole;
  });
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

function fromIniSection(section: Map<string, IniEntry> | undefined, prefix: string): PytestConfig {
  const config: PytestConfig = { settings: { thresholds: new Map() }, patterns: new Map() };
  if (!section) return config;
  const entry = (key: string): Setting<string> | undefined => {
    const found = section.get(key);
    return found ? { value: found.value.replace(/\n/g, " "), name: `${prefix}${key}`, line: found.line } : undefined;
  };
  const list = (key: string): Setting<string[]> | undefined => {
    const found = entry(key);
    return found ? { ...found, value: words(found.value) } : undefined;
  };
  const addopts = entry("addopts");
  if (addopts) config.addopts = addopts;
  const markers = section.get("markers");
  if (markers) config.markers = markerNames(markers.value.split("\n"));
  const testpaths = list("testpaths");
  if (testpaths) config.settings.roots = testpaths;
  const files = list("python_files");
  if (files) config.settings.include = files;
  const norecurse = list("norecursedirs");
  if (norecurse) config.settings.exclude = norecurse;
  for (const key of ["python_functions", "python_classes"]) {
    const patterns = list(key);
    if (patterns) config.patterns.set(key, patterns);
  }
  return config;
}

/**
 * pytest's table in a pyproject.toml: `[tool.pytest.ini_options]` (ini-style
 * values), or pytest 9's `[tool.pytest]` with native TOML types (pytest docs,
 * "Configuration": pyproject.toml; pytest refuses a file with both). Null
 * when neither configures pytest.
 */
function pytestTomlTable(root: TomlDocument["root"]): { table: Record<string, TomlValue>; prefix: string } | null {
  const iniOptions = tomlTable(root, ["tool", "pytest", "ini_options"]);
  if (iniOptions) return { table: iniOptions, prefix: "tool.pytest.ini_options." };
  const native = tomlTable(root, ["tool", "pytest"]);
  return native && Object.keys(native).length > 0 ? { table: native, prefix: "tool.pytest." } : null;
}

function fromToml(doc: TomlDocument): PytestConfig {
  const config: PytestConfig = { settings: { thresholds: new Map() }, patterns: new Map() };
  const found = pytestTomlTable(doc.root);
  if (!found) return config;
  const { table, prefix } = found;
  const line = (key: string): number | null => doc.lines.get(prefix + key) ?? null;
  const asList = (value: TomlValue | undefined): string[] | undefined => (typeof value === "string" ? words(value) : Array.isArray(value) ? value.map(String) : undefined);
  const addopts = typeof table.addopts === "string" ? [table.addopts] : asList(table.addopts);
  if (addopts) {
    // An array keeps each argument whole: quote the ones with spaces before they are read as a command line again.
    const joined = Array.isArray(table.addopts) ? addopts.map((arg) => (/[\s"'\\]/.test(arg) ? `'${arg.replace(/'/g, "'\\''")}'` : arg)).join(" ") : addopts.join(" ");
    config.addopts = { value: joined, name: `${prefix}addopts`, line: line("addopts") };
  }
  const set = (key: string, apply: (setting: Setting<string[]>) => void): void => {
    const value = asList(table[key]);
    if (value) apply({ value, name: prefix + key, line: line(key) });
  };
  set("testpaths", (setting) => (config.settings.roots = setting));
  set("python_files", (setting) => (config.settings.include = setting));
  set("norecursedirs", (setting) => (config.settings.exclude = setting));
  set("python_functions", (setting) => config.patterns.set("python_functions", setting));
  set("python_classes", (setting) => config.patterns.set("python_classes", setting));
  const markers = Array.isArray(table.markers) ? table.markers.map(String) : typeof table.markers === "string" ? table.markers.split("\n") : undefined;
  if (markers) config.markers = markerNames(markers);
  return config;
}

function tomlTable(root: { [key: string]: TomlValue }, path: readonly string[]): { [key: string]: TomlValue } | undefined {
  let current: TomlValue | undefined = root;
  for (const key of path) {
    if (current === undefined || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = current[key];
  }
  return current !== undefined && typeof current === "object" && !Array.isArray(current) ? current : undefined;
}

/** coverage.py's `fail_under`, from an ini section or the pyproject table. */
function coverageThreshold(value: string | number | undefined, name: string, line: number | null): Map<string, Setting<number>> {
  const thresholds = new Map<string, Setting<number>>();
  const number = typeof value === "number" ? value : value !== undefined ? Number(value.trim()) : Number.NaN;
  if (Number.isFinite(number)) thresholds.set("total", { value: number, name, line });
  return thresholds;
}

/** Which ini section holds pytest's settings in each file kind. */
const PYTEST_SECTION: Partial<Record<PythonConfigKind, string>> = { "pytest.ini": "pytest", "tox.ini": "pytest", "setup.cfg": "tool:pytest" };
/** Which ini section holds coverage.py's report settings in each file kind. */
const COVERAGE_SECTION: Partial<Record<PythonConfigKind, string>> = { ".coveragerc": "report", "tox.ini": "coverage:report", "setup.cfg": "coverage:report" };

interface ParsedPython {
  pytest: PytestConfig;
  coverage: Map<string, Setting<number>>;
  ini?: IniFile;
  toml?: TomlDocument;
}

function parsePythonConfig(kind: PythonConfigKind, text: string): ParsedPython {
  if (kind === "pyproject.toml") {
    const toml = parseToml(text);
    const report = tomlTable(toml.root, ["tool", "coverage", "report"]);
    const failUnder = report?.fail_under;
    const coverage = coverageThreshold(
      typeof failUnder === "number" || typeof failUnder === "string" ? failUnder : undefined,
      "tool.coverage.report.fail_under",
      toml.lines.get("tool.coverage.report.fail_under") ?? null,
    );
    return { pytest: fromToml(toml), coverage, toml };
  }
  const ini = parseIni(text);
  const pytestSection = PYTEST_SECTION[kind];
  const coverageSection = COVERAGE_SECTION[kind];
  const failUnder = coverageSection ? ini.get(coverageSection)?.get("fail_under") : undefined;
  return {
    pytest: fromIniSection(pytestSection ? ini.get(pytestSection) : undefined, pytestSection ? `[${pytestSection}] ` : ""),
    coverage: coverageThreshold(failUnder?.value, `[${coverageSection}] fail_under`, failUnder?.line ?? null),
    ini,
  };
}

/**
 * pytest's collection settings of one config file (pytest docs,
 * "Configuration" and "Changing standard (Python) test discovery"):
 * `testpaths`, `python_files`, `norecursedirs`, `python_classes`,
 * `python_functions`, each as written (whitespace-separated words or a TOML
 * array). A key left out is absent: pytest's default applies.
 */
export interface PytestCollectionSettings {
  testpaths?: string[];
  pythonFiles?: string[];
  norecursedirs?: string[];
  pythonClasses?: string[];
  pythonFunctions?: string[];
}

/**
 * The collection settings of a pytest config file, or null when the file
 * does not configure pytest: a tox.ini without `[pytest]`, a setup.cfg
 * without `[tool:pytest]`, a pyproject.toml without
 * `[tool.pytest.ini_options]` or pytest 9's `[tool.pytest]` (a pytest.ini always does, even empty, as
 * pytest reads it first). Throws with the parser's message on bad syntax.
 */
export function readPytestCollection(kind: "pytest.ini" | "tox.ini" | "setup.cfg" | "pyproject.toml", text: string): PytestCollectionSettings | null {
  let config: PytestConfig;
  if (kind === "pyproject.toml") {
    const toml = parseToml(text);
    if (!pytestTomlTable(toml.root)) return null;
    config = fromToml(toml);
  } else {
    const section = parseIni(text).get(PYTEST_SECTION[kind] as string);
    if (!section && kind !== "pytest.ini") return null;
    config = fromIniSection(section, "");
  }
  const result: PytestCollectionSettings = {};
  if (config.settings.roots) result.testpaths = config.settings.roots.value;
  if (config.settings.include) result.pythonFiles = config.settings.include.value;
  if (config.settings.exclude) result.norecursedirs = config.settings.exclude.value;
  const classes = config.patterns.get("python_classes");
  if (classes) result.pythonClasses = classes.value;
  const functions = config.patterns.get("python_functions");
  if (functions) result.pythonFunctions = functions.value;
  return result;
}

/** tox `commands` (one command per line, a backslash continuing it; a leading `-` ignores the exit code) of every testenv section. */
/** tox environments by ini section name (`testenv`, `testenv:lint`), each with its keys. */
export type ToxEnvironments = Map<string, Map<string, IniEntry>>;

function toxEnvironments(ini: IniFile | undefined): ToxEnvironments {
  const environments: ToxEnvironments = new Map();
  for (const [name, section] of ini ?? []) if (name === "testenv" || name.startsWith("testenv:")) environments.set(name, section);
  return environments;
}

/** One tox 4 TOML command (`["pytest", "-v", { replace = "posargs", default = ["tests"] }]`) as a shell line. */
function tomlToxCommand(command: TomlValue): string {
  if (typeof command === "string") return command;
  if (!Array.isArray(command)) return "";
  return command
    .map((part) => {
      if (typeof part === "string") return /[\s"'\\]/.test(part) ? `'${part.replace(/'/g, "'\\''")}'` : part;
      if (part !== null && typeof part === "object" && !Array.isArray(part) && Array.isArray(part.default)) return part.default.map(String).join(" ");
      return "";
    })
    .filter(Boolean)
    .join(" ");
}

/**
 * tox environments configured in pyproject.toml: tox 4's native `[tool.tox]`
 * (`env_run_base` is `[testenv]`, `env.<name>` is `[testenv:<name>]`) or a
 * `legacy_tox_ini` string, in the shape tox.ini's sections have.
 */
export function pyprojectToxEnvironments(doc: TomlDocument | undefined): ToxEnvironments {
  const environments: ToxEnvironments = new Map();
  const tox = doc ? tomlTable(doc.root, ["tool", "tox"]) : undefined;
  if (!doc || !tox) return environments;
  if (typeof tox.legacy_tox_ini === "string") return toxEnvironments(parseIni(tox.legacy_tox_ini));
  const add = (name: string, table: TomlValue | undefined, path: string): void => {
    if (table === undefined || typeof table !== "object" || Array.isArray(table)) return;
    const section = new Map<string, IniEntry>();
    for (const [key, value] of Object.entries(table)) {
      const line = doc.lines.get(`${path}.${key}`) ?? doc.lines.get(path) ?? 0;
      if (key === "commands" && Array.isArray(value)) section.set(key, { value: value.map(tomlToxCommand).join("\n"), line });
      else if (typeof value === "string" || typeof value === "boolean" || typeof value === "number") section.set(key.replace(/-/g, "_"), { value: String(value), line });
    }
    environments.set(name, section);
  };
  add("testenv", tox.env_run_base, "tool.tox.env_run_base");
  const named = tox.env;
  if (named !== undefined && typeof named === "object" && !Array.isArray(named)) {
    for (const [name, table] of Object.entries(named)) add(`testenv:${name}`, table, `tool.tox.env.${name}`);
  }
  return environments;
}

/**
 * tox `commands` as plain shell lines: factor conditions (`coverage: cmd`)
 * and the ignore-exit-code `-` dropped, substitutions replaced by their
 * defaults (`{env:CMD:pytest}` -> `pytest`, `{posargs:tests}` -> `tests`,
 * `{posargs}` -> nothing, `{toxinidir}` -> `.`).
 */
/**
 * The commands of a tox `commands` value, one per entry: each line, with a
 * line ending in a backslash continued on the next (tox's ini format: "a
 * line ending with a backslash continues on the next line"), trimmed, empty
 * ones left out. A continuation line's own leading `-` (`--cov=x`) is an
 * argument, not the ignore-exit-code prefix.
 */
export function toxCommandLines(value: string): string[] {
  const commands: string[] = [];
  let pending = "";
  for (const raw of value.split("\n")) {
    const line = raw.trim();
    const joined = pending === "" ? line : `${pending} ${line}`;
    if (/\\$/.test(line)) pending = joined.replace(/\s*\\$/, "");
    else {
      pending = "";
      if (joined !== "") commands.push(joined);
    }
  }
  if (pending !== "") commands.push(pending);
  return commands;
}

function toxCommands(entry: IniEntry | undefined): string {
  return toxCommandLines(entry?.value ?? "")
    .map((line) =>
      line
        .trim()
        .replace(/^[\w{},!.-]+:\s+/, "")
        .replace(/^-\s*/, "")
        .replace(/\{(?:env:[\w]+|posargs|tty):?([^{}]*)\}/g, "$1")
        .replace(/\{(toxinidir|toxworkdir|envdir|envtmpdir|envsitepackagesdir)\}/g, ".")
        .replace(/\{envpython\}/g, "python")
        .replace(/\{envbindir\}\//g, ""),
    )
    .filter(Boolean)
    .join("\n");
}

/**
 * Notes for tox environments. `elsewhere` holds the environments of the
 * other tox config file changed with this one (tox.ini <-> pyproject.toml),
 * so an environment moved between them is compared where it went. An
 * environment gone from both is paired with a new one that runs the same
 * commands (a rename), and is reported removed only when one of its test
 * commands is run by no environment of the after side (the runs are
 * conserved, not the names).
 */
function compareTox(was: ToxEnvironments, now: ToxEnvironments, elsewhere: ToxEnvironments): TamperNote[] {
  const notes: TamperNote[] = [];
  const testLines = (entry: IniEntry | undefined): string[] =>
    toxCommands(entry)
      .split("\n")
      .filter((line) => runsTests(line));
  // Every test command the after side still runs, in any environment: a removed environment whose test commands all remain lost no test run.
  const remaining = new Set([...now.values(), ...elsewhere.values()].flatMap((section) => testLines(section.get("commands"))));
  const claimed = new Set<string>();
  for (const [name, section] of was) {
    let next = now.get(name) ?? elsewhere.get(name);
    const commands = section.get("commands");
    if (!next && commands) {
      // Renamed (`py31{0,4}-tests` -> `3.1{0,4}-tests`): a new environment that runs the same commands takes its place and is judged as it.
      const own = toxCommands(commands);
      const partner = [...now].find(([candidate, entry]) => !was.has(candidate) && !claimed.has(candidate) && toxCommands(entry.get("commands")) === own);
      if (partner) {
        claimed.add(partner[0]);
        next = partner[1];
      }
    }
    if (!next) {
      const lost = testLines(commands).filter((line) => !remaining.has(line));
      if (commands && lost.length > 0)
        notes.push({
          setting: `[${name}]`,
          line: null,
          message: `tox environment [${name}] that ran "${commands.value
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean)
            .join("; ")}" was removed`,
          before: commands.value,
          after: null,
        });
      continue;
    }
    const nextCommands = next.get("commands");
    if (commands) {
      const lines = (entry: IniEntry | undefined): string[] => toxCommandLines(entry?.value ?? "");
      const ignored = lines(nextCommands).filter((line) => line.startsWith("-") && !lines(commands).includes(line));
      if (ignored.length > 0) {
        notes.push({
          setting: `[${name}] commands`,
          line: nextCommands?.line ?? null,
          message: `tox [${name}] now ignores the exit code of ${ignored.map((line) => show(line)).join(", ")} (leading "-")`,
          before: commands.value,
          after: nextCommands?.value ?? null,
        });
      }
      notes.push(...compareCommands(toxCommands(commands), toxCommands(nextCommands), `tox [${name}] commands`, nextCommands?.line ?? commands.line));
    }
    for (const key of ["ignore_outcome", "ignore_errors"]) {
      const value = next.get(key);
      if (value && /^(true|1|yes)$/i.test(value.value.trim()) && !/^(true|1|yes)$/i.test(section.get(key)?.value.trim() ?? "")) {
        notes.push({
          setting: `[${name}] ${key}`,
          line: value.line,
          message: `tox [${name}] ${key} is now true: failing tests no longer fail the run`,
          before: section.get(key)?.value ?? null,
          after: value.value,
        });
      }
    }
  }
  return notes;
}

/** Test scripts of pyproject task runners: hatch env scripts, poe tasks, pdm scripts. */
function pyprojectScripts(doc: TomlDocument | undefined): Map<string, { command: string; line: number | null }> {
  const scripts = new Map<string, { command: string; line: number | null }>();
  if (!doc) return scripts;
  const visit = (value: TomlValue, path: string[]): void => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, key];
      const parent = path[path.length - 1];
      const isScriptTable = parent === "scripts" || (parent === "tasks" && path[path.length - 2] === "poe");
      if (isScriptTable && /test|cov|check/i.test(key)) {
        const command =
          typeof child === "string"
            ? child
            : Array.isArray(child)
              ? child.map(String).join("\n")
              : typeof child === "object" && typeof (child as { cmd?: unknown }).cmd === "string"
                ? String((child as { cmd: string }).cmd)
                : null;
        if (command !== null) scripts.set(childPath.join("."), { command, line: doc.lines.get(childPath.join(".")) ?? null });
      } else if (path.length < 6) visit(child, childPath);
    }
  };
  visit(doc.root, []);
  return scripts;
}

function comparePytest(before: PytestConfig, after: PytestConfig): TamperNote[] {
  const notes = compareRunnerSettings(before.settings, after.settings, "pytest");
  if (before.addopts || after.addopts) {
    const setting = after.addopts?.name ?? before.addopts?.name ?? "addopts";
    const afterOpts = withoutNewMarkerFilter(after.addopts?.value ?? "", before, after);
    notes.push(...compareCommands(`pytest ${before.addopts?.value ?? ""}`, `pytest ${afterOpts}`, setting, after.addopts?.line ?? null));
  }
  for (const [key, was] of before.patterns) {
    const now = after.patterns.get(key);
    if (!now) continue;
    const lost = was.value.filter((pattern) => !now.value.includes(pattern));
    if (lost.length > 0)
      notes.push({ setting: now.name, line: now.line, message: `pytest ${now.name} no longer collects ${lost.map((p) => show(p)).join(", ")}`, before: was.value, after: now.value });
  }
  return notes;
}

/**
 * Tamper notes for a python config file. `before`/`after` null means the
 * file is absent on that side. Throws (with the parser's message) when a
 * side cannot be read; the caller reports the file as not analysed.
 */
export function comparePythonConfig(kind: PythonConfigKind, before: string | null, after: string | null, otherToxFile?: string | null, filesBefore?: readonly string[]): TamperNote[] {
  if (kind === "conftest.py") return compareConftest(before ?? "", after ?? "", filesBefore);
  const empty: ParsedPython = { pytest: { settings: { thresholds: new Map() }, patterns: new Map() }, coverage: new Map() };
  const was = before === null ? empty : parsePythonConfig(kind, before);
  const now = after === null ? empty : parsePythonConfig(kind, after);
  const notes = comparePytest(was.pytest, now.pytest);
  notes.push(...compareRunnerSettings({ thresholds: was.coverage }, { thresholds: now.coverage }, "coverage.py"));
  // tox settings live in tox.ini or pyproject.toml; the other file's after side (when it changed too) catches moves.
  let elsewhere: ToxEnvironments = new Map();
  try {
    if (otherToxFile) elsewhere = kind === "tox.ini" ? pyprojectToxEnvironments(parseToml(otherToxFile)) : toxEnvironments(parseIni(otherToxFile));
  } catch {
    // the other file is judged (and reported unreadable) on its own
  }
  if (kind === "tox.ini") notes.push(...compareTox(toxEnvironments(was.ini), toxEnvironments(now.ini), elsewhere));
  if (kind === "pyproject.toml") notes.push(...compareTox(pyprojectToxEnvironments(was.toml), pyprojectToxEnvironments(now.toml), elsewhere));
  if (kind === "pyproject.toml") {
    const scripts = pyprojectScripts(now.toml);
    for (const [name, script] of pyprojectScripts(was.toml)) {
      const next = scripts.get(name);
      notes.push(...compareCommands(script.command, next?.command ?? "", name, next?.line ?? script.line));
    }
  }
  return notes;
}

// ---------------------------------------------------------------------------
// conftest.py

/** One logical Python line: indentation, code with string contents blanked, and the string literals in it. */
interface PythonLine {
  line: number;
  indent: number;
  code: string;
  strings: string[];
}

/**
 * Splits Python source into logical lines (brackets and backslashes join
 * physical lines), drops comments, and blanks string contents in `code`
 * while keeping them in `strings`, so a pattern never matches inside a string.
 */
export function pythonLines(source: string): PythonLine[] {
  const result: PythonLine[] = [];
  let code = "";
  let strings: string[] = [];
  let depth = 0;
  let startLine = 1;
  let lineNumber = 1;
  let indent = 0;
  let atLineStart = true;
  const flush = (): void => {
    if (code.trim() !== "") result.push({ line: startLine, indent, code: code.trim(), strings });
    code = "";
    strings = [];
    atLineStart = true;
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (atLineStart) {
      let j = i;
      let width = 0;
      while (source[j] === " " || source[j] === "\t") {
        width += source[j] === "\t" ? 8 : 1;
        j++;
      }
      if (source[j] === "\n" || source[j] === "#" || j >= source.length) {
        // blank or comment-only line
      } else {
        indent = width;
        startLine = lineNumber;
        atLineStart = false;
        i = j - 1;
        continue;
      }
    }
    if (char === "\n") {
      lineNumber++;
      if (depth === 0) flush();
      else code += " ";
      continue;
    }
    if (char === "#") {
      while (i + 1 < source.length && source[i + 1] !== "\n") i++;
      continue;
    }
    if (char === "\\" && source[i + 1] === "\n") {
      i++;
      lineNumber++;
      code += " ";
      continue;
    }
    if (char === '"' || char === "'") {
      const triple = source.startsWith(char.repeat(3), i);
      const delimiter = triple ? char.repeat(3) : char;
      let j = i + delimiter.length;
      let value = "";
      while (j < source.length && !source.startsWith(delimiter, j)) {
        if (source[j] === "\\") {
          value += source[j + 1] ?? "";
          j += 2;
          continue;
        }
        if (source[j] === "\n") {
          if (!triple) break;
          lineNumber++;
        }
        value += source[j];
        j++;
      }
      strings.push(value);
      code += `${delimiter}${delimiter}`;
      i = j + (source.startsWith(delimiter, j) ? delimiter.length : 0) - 1;
      continue;
    }
    if ("([{".includes(char)) depth++;
    if (")]}".includes(char)) depth = Math.max(0, depth - 1);
    code += char;
  }
  flush();
  return result;
}

/** What a conftest.py does to the test run. */
interface ConftestFacts {
  /** Paths and globs in `collect_ignore`/`collect_ignore_glob`, with the line that adds each. */
  ignored: Map<string, number>;
  /** The entries of {@link ignored} that `collect_ignore_glob` adds (fnmatch globs, not paths). */
  globs: Set<string>;
  /** Harness patches: name -> line (`makereport forces passed`, `sys.exit at import`, …). */
  patches: Map<string, number>;
}

const REPORT_HOOKS = /^def\s+(pytest_runtest_makereport|pytest_runtest_logreport|pytest_report_teststatus|pytest_runtest_protocol|pytest_runtest_call|pytest_pyfunc_call)\s*\(/;

function conftestFacts(source: string): ConftestFacts {
  const ignored = new Map<string, number>();
  const globs = new Set<string>();
  const patches = new Map<string, number>();
  const lines = pythonLines(source);
  let hook: { name: string; indent: number } | null = null;
  let functionIndent: number | null = null;
  for (const entry of lines) {
    const code = entry.code.replace(/^async\s+/, "");
    if (hook && entry.indent <= hook.indent) hook = null;
    if (functionIndent !== null && entry.indent <= functionIndent) functionIndent = null;
    const def = /^def\s+([A-Za-z_]\w*)/.exec(code);
    if (def) {
      const match = REPORT_HOOKS.exec(code);
      if (match) hook = { name: match[1] as string, indent: entry.indent };
      if (functionIndent === null) functionIndent = entry.indent;
      if (def[1] === "pytest_collection_modifyitems") hook = { name: "pytest_collection_modifyitems", indent: entry.indent };
      continue;
    }
    if (/^class\s/.test(code)) continue;
    if (/\bcollect_ignore(_glob)?\b\s*(=|\+=|\.append\(|\.extend\(|\.insert\()/.test(code)) {
      for (const value of entry.strings) ignored.set(value, entry.line);
      if (/\bcollect_ignore_glob\b/.test(code)) for (const value of entry.strings) globs.add(value);
      if (entry.strings.length === 0) ignored.set(`(computed) ${code}`, entry.line);
    }
    const isModuleLevel = functionIndent === null;
    if (isModuleLevel && /^(sys\.exit|os\._exit|exit|quit|pytest\.exit)\s*\(|^raise\s+SystemExit\b/.test(code)) patches.set(`${code.split("(")[0]} at import`, entry.line);
    if (isModuleLevel && /^(time|datetime|_?pytest|unittest)\.[\w.]+\s*=(?!=)/.test(code)) patches.set(`patches ${code.split("=")[0]?.trim()}`, entry.line);
    if (hook && hook.name !== "pytest_collection_modifyitems") {
      if (/\boutcome\s*=\s*["']{2}/.test(code) && entry.strings.some((value) => value === "passed")) patches.set(`${hook.name} forces outcome "passed"`, entry.line);
      if (/\.longrepr\s*=\s*None\b/.test(code)) patches.set(`${hook.name} drops failure reports`, entry.line);
      if (/\.(force_result|force_exception)\s*\(/.test(code)) patches.set(`${hook.name} forces the hook result`, entry.line);
      if (/\bwasxfail\s*=/.test(code)) patches.set(`${hook.name} marks failures as expected`, entry.line);
      if (hook.name === "pytest_pyfunc_call" && /^return\s+True\b/.test(code)) patches.set("pytest_pyfunc_call returns without running the test", entry.line);
      if (hook.name === "pytest_runtest_protocol" && /^return\s+True\b/.test(code)) patches.set("pytest_runtest_protocol skips running tests", entry.line);
    }
    if (hook?.name === "pytest_collection_modifyitems") {
      if (/\bitems\.(clear|remove|pop)\s*\(|\bitems\[[^\]]*\]\s*=(?!=)|\bdel\s+items\b|\bpytest_deselected\s*\(/.test(code))
        patches.set("pytest_collection_modifyitems drops collected tests", entry.line);
      if (/\.add_marker\s*\(.*\bmark\.(skip|skipif|xfail)\b/.test(code)) patches.set("pytest_collection_modifyitems skips collected tests", entry.line);
    }
  }
  return { ignored, globs, patches };
}

/**
 * A `collect_ignore_glob` entry as a regular expression over paths relative
 * to the conftest's folder. pytest matches it with `fnmatch` against the
 * path joined to that folder (_pytest/main.py pytest_ignore_collect), where
 * `*` also matches `/`, `?` one character and `[…]` a set (`[!…]` its
 * complement).
 */
function fnmatchRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[" && glob.indexOf("]", i + 2) !== -1) {
      const end = glob.indexOf("]", i + 2);
      const set = glob.slice(i + 1, end);
      source += `[${set.startsWith("!") ? `^${set.slice(1)}` : set}]`.replace(/\\/g, "\\\\");
      i = end;
    } else source += char.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  // Matched at any depth below the folder: more files than pytest's own match, so an entry is never taken for reaching none.
  return new RegExp(`^(?:.*/)?${source}$`);
}

/**
 * True when an ignore entry reaches a file of `files` (paths relative to
 * the conftest's folder): a `collect_ignore` path names the file or a
 * folder above it; a glob matches it ({@link fnmatchRegExp}).
 */
function reachesAny(entry: string, isGlob: boolean, files: readonly string[]): boolean {
  if (isGlob) {
    const pattern = fnmatchRegExp(entry);
    return files.some((file) => pattern.test(file));
  }
  const path = entry.replace(/^\.\//, "").replace(/\/+$/, "");
  return files.some((file) => file === path || file.startsWith(`${path}/`));
}

/**
 * conftest.py notes: tests newly ignored at collection, and harness patches
 * that were not there before. `filesBefore`, when given, lists the files
 * below the conftest's folder before the change (paths relative to it): an
 * ignore entry that reaches none of them leaves out only files the change
 * adds (a test module for a newer Python, ignored below it), so no test that
 * ran stops running and it is no note.
 */
export function compareConftest(before: string, after: string, filesBefore?: readonly string[]): TamperNote[] {
  const was = conftestFacts(before);
  const now = conftestFacts(after);
  const notes: TamperNote[] = [];
  // `collect_ignore = ["setup.py", "docs/conf.py"]` is routine; only entries that name tests hide tests.
  const added = [...now.ignored].filter(
    ([path]) => !was.ignored.has(path) && /test|spec|\(computed\)/i.test(path) && (filesBefore === undefined || path.startsWith("(computed)") || reachesAny(path, now.globs.has(path), filesBefore)),
  );
  if (added.length > 0) {
    notes.push({
      setting: "collect_ignore",
      line: added[0]?.[1] ?? null,
      message: `collect_ignore now leaves out ${added.map(([path]) => show(path)).join(", ")}: pytest no longer collects ${added.length === 1 ? "it" : "them"}`,
      before: [...was.ignored.keys()],
      after: [...now.ignored.keys()],
      detail: { ignored_added: added.map(([path]) => path) },
    });
  }
  // One note per hook (or module-level statement): a hook that both forces "passed" and drops the report is one tamper.
  const byOrigin = new Map<string, { line: number; patches: string[] }>();
  for (const [patch, line] of now.patches) {
    if (was.patches.has(patch)) continue;
    const origin = patch.split(" ")[0] as string;
    const entry = byOrigin.get(origin) ?? { line, patches: [] };
    entry.line = Math.min(entry.line, line);
    entry.patches.push(patch);
    byOrigin.set(origin, entry);
  }
  for (const [origin, { line, patches }] of byOrigin) {
    notes.push({ setting: origin, line, message: `the test harness is patched: ${patches.join("; ")}`, before: null, after: patches });
  }
  return notes;
}
