/**
 * Test runner config files and package.json: vitest/vite/jest/mocha config
 * modules (read statically from the Babel AST), `.mocharc.*`, `.c8rc*`,
 * `.nycrc*`, and package.json's test scripts and `jest`/`mocha`/`c8`/`nyc`
 * keys.
 */

import { compareCommands, coversCommand, isTestScriptName, isWatchOnly, type CommandScope } from "./command.js";
import type { TamperNote } from "./finding.js";
import { parseJsonWithLines } from "./json.js";
import { avaSettings, compareRunnerSettings, e2eSettings, istanbulSettings, jestSettings, mochaSettings, vitestSettings, type RunnerSettings } from "./runner-settings.js";
import { getPath, readStaticConfig, type StaticConfig, type StaticValue } from "./static-value.js";
import { readYaml } from "./yaml.js";

/** Which runner a JS-side config file configures. */
export type JsConfigTool = "vitest" | "jest" | "mocha" | "c8" | "nyc" | "ava" | "playwright" | "cypress";

const EMPTY: StaticConfig = { value: {}, lines: new Map() };

/**
 * Reads a runner config file of any of the formats by extension: JS/TS
 * module (statically, see static-value.ts), JSON(C) or YAML; null content
 * reads as an empty config. Throws when the file does not parse or a module
 * exports nothing readable.
 */
export async function readConfig(path: string, content: string | null): Promise<StaticConfig> {
  if (content === null) return EMPTY;
  if (/\.[cm]?[jt]s$/i.test(path)) {
    const config = await readStaticConfig(path, content);
    if ("error" in config) throw new Error(config.error);
    return config;
  }
  if (/\.ya?ml$/i.test(path)) return await readYaml(content);
  return parseJsonWithLines(content);
}

function settingsOf(tool: JsConfigTool, config: StaticConfig): RunnerSettings {
  switch (tool) {
    case "vitest":
      return vitestSettings(config.value, config.lines);
    case "jest":
      return jestSettings(config.value, config.lines);
    case "mocha":
      return mochaSettings(config.value, config.lines);
    case "c8":
    case "nyc":
      return istanbulSettings(config.value, config.lines);
    case "ava":
      return avaSettings(config.value, config.lines);
    case "playwright":
    case "cypress":
      return e2eSettings(config.value, config.lines);
  }
}

/** Notes for a runner config file (`vitest.config.ts`, `jest.config.js`, `.mocharc.yml`, `.nycrc`, …). */
export async function compareRunnerConfigFile(tool: JsConfigTool, path: string, before: string | null, after: string | null): Promise<TamperNote[]> {
  const [was, now] = await Promise.all([readConfig(path, before), readConfig(path, after)]);
  return compareRunnerSettings(settingsOf(tool, was), settingsOf(tool, now), tool);
}

/** A sub-object of a parsed JSON file with its lines re-rooted (`jest.testMatch` -> `testMatch`). */
function subConfig(config: StaticConfig, key: string): StaticConfig {
  const value: StaticValue = getPath(config.value, key) ?? {};
  const lines = new Map<string, number>();
  for (const [path, line] of config.lines) if (path.startsWith(`${key}.`)) lines.set(path.slice(key.length + 1), line);
  return { value, lines };
}

/** `npm test`, `npm run x`, `pnpm x`, `yarn run x`, `bun run x`, with `-- args` after them. */
const SCRIPT_CALL = /\b(?:npm|pnpm|yarn|bun)\s+(?:(t|test)\b|(?:run|run-script)\s+('\/[^']+\/'|"\/[^"]+\/"|\/\S+\/|[\w:.-]+)|([\w:.-]+))((?:\s+--(?:\s+[^\s;&|()]+)+)?)/g;

/**
 * A script's command with the scripts it calls in the same package.json
 * spliced in (`npm run test:unit` -> `(vitest run)`), arguments after `--`
 * appended to the callee, at most 5 levels deep. So a `test` script that
 * now calls a new `test:ci` script is judged by what `test:ci` runs.
 */
export function resolveScript(scripts: Readonly<Record<string, string>>, command: string, depth = 0): string {
  if (depth >= 5) return command;
  return command.replace(SCRIPT_CALL, (whole, test: string | undefined, run: string | undefined, bare: string | undefined, args: string) => {
    const name = test ? "test" : (run ?? bare ?? "");
    // pnpm runs every script matching `/regex/` (`pnpm run "/^test:.*/"`).
    const pattern = /^['"]?\/(.+)\/['"]?$/.exec(name);
    if (pattern) {
      let regex: RegExp;
      try {
        regex = new RegExp(pattern[1] as string);
      } catch {
        return whole;
      }
      const matching = Object.keys(scripts).filter((script) => regex.test(script));
      return matching.length === 0 ? whole : `(${matching.map((script) => `(${resolveScript(scripts, scripts[script] as string, depth + 1)})`).join(" && ")})`;
    }
    const body = scripts[name];
    if (body === undefined || (bare !== undefined && ["install", "ci", "exec", "add", "dlx", "i"].includes(bare))) return whole;
    const extra = args.replace(/^\s+--/, "").trim();
    return `(${resolveScript(scripts, body, depth + 1)}${extra ? ` ${extra}` : ""})`;
  });
}

/** True when a script command calls the script `name` (`pnpm unit`, `npm run unit`, `yarn unit -- -x`). */
function callsScript(command: string, name: string): boolean {
  for (const match of command.matchAll(SCRIPT_CALL)) if ((match[1] ? "test" : (match[2] ?? match[3])) === name) return true;
  return false;
}

/**
 * True when a test script the change removes was inlined into the scripts
 * that called it (sweep of ai/nanoid 7b6241af: `"unit": "uvu . .test.js$"`
 * removed as `"test:coverage": "c8 pnpm unit"` became `"c8 pnpm bnt"`):
 * some script called it before, and every such caller the change keeps
 * runs as many tests after it as through the removed script (no notes of
 * its own). A removed script no kept script called is judged as removed.
 */
function isInlinedByCallers(name: string, before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>, scope?: CommandScope): boolean {
  const callers = Object.keys(before).filter((caller) => caller !== name && callsScript(before[caller] as string, name) && after[caller] !== undefined);
  return (
    callers.length > 0 &&
    callers.every(
      (caller) =>
        !callsScript(after[caller] as string, name) &&
        compareCommands(resolveScript(before, before[caller] as string), resolveScript(after, after[caller] as string), `scripts.${caller}`, null, undefined, undefined, scope).length === 0,
    )
  );
}

/**
 * Notes for package.json: test scripts weakened or gone, and the
 * runner/coverage settings it embeds. `scope` (the after tree, both starts
 * the package's folder) lets a script's runs be judged by what they test there.
 */
export function comparePackageJson(before: string | null, after: string | null, scope?: CommandScope): TamperNote[] {
  const was = before === null ? EMPTY : parseJsonWithLines(before);
  const now = after === null ? EMPTY : parseJsonWithLines(after);
  const notes: TamperNote[] = [];
  const scriptsBefore = getPath(was.value, "scripts");
  const scriptsAfter = getPath(now.value, "scripts");
  const scripts = (value: StaticValue | undefined): Record<string, string> =>
    value !== null && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string")) : {};
  const oldScripts = scripts(scriptsBefore);
  const newScripts = scripts(scriptsAfter);
  // What the scripts added in this change run, so a test script renamed (`test:ci` -> `test:spec`) is not a removal.
  const addedScripts = Object.entries(newScripts)
    .filter(([name]) => !(name in oldScripts))
    .map(([, command]) => resolveScript(newScripts, command))
    .join("\n");
  for (const [name, command] of Object.entries(oldScripts)) {
    if (!isTestScriptName(name) && !/^(ci|check|verify|coverage|cov)(:|$)/.test(name)) continue;
    const next = newScripts[name];
    const line = now.lines.get(`scripts.${name}`) ?? null;
    if (next === undefined && addedScripts !== "" && coversCommand(resolveScript(oldScripts, command), addedScripts)) continue;
    if (next === undefined && isInlinedByCallers(name, oldScripts, newScripts, scope)) continue;
    if (isWatchOnly(resolveScript(oldScripts, command))) continue;
    const resolvedBefore = resolveScript(oldScripts, command);
    const resolvedAfter = next === undefined ? "" : resolveScript(newScripts, next);
    if (resolvedAfter === resolvedBefore) continue;
    notes.push(...compareCommands(resolvedBefore, resolvedAfter, `scripts.${name}`, line, undefined, undefined, scope));
  }
  const embedded: [string, (config: StaticConfig, prefix: string) => RunnerSettings, string][] = [
    ["jest", (config, prefix) => jestSettings(config.value, config.lines, prefix), "jest"],
    ["mocha", (config, prefix) => mochaSettings(config.value, config.lines, prefix), "mocha"],
    ["c8", (config, prefix) => istanbulSettings(config.value, config.lines, prefix), "c8"],
    ["nyc", (config, prefix) => istanbulSettings(config.value, config.lines, prefix), "nyc"],
    ["ava", (config, prefix) => avaSettings(config.value, config.lines, prefix), "ava"],
  ];
  for (const [key, read, tool] of embedded) {
    if (getPath(was.value, key) === undefined && getPath(now.value, key) === undefined) continue;
    const toLines = (config: StaticConfig): StaticConfig => {
      const sub = subConfig(config, key);
      return { value: sub.value, lines: new Map([...sub.lines].map(([path, line]) => [path, line])) };
    };
    const beforeSettings = read(toLines(was), `${key}.`);
    const afterSettings = read(toLines(now), `${key}.`);
    notes.push(...compareRunnerSettings(beforeSettings, afterSettings, tool));
  }
  return notes;
}
