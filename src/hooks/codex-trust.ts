/**
 * Whether Codex CLI will run ralph's project hooks, as far as files tell
 * (docs/agents.md, "Codex CLI: Enabled and trusted"): Codex skips them
 * without a word when the hooks feature is off, when the project is not
 * trusted, or when a hook has no trusted hash (or is disabled) in the
 * user's config. All three live in the user's `config.toml`
 * (`$CODEX_HOME/config.toml`, default `~/.codex/config.toml`):
 *
 *   [features] hooks = false            # or the deprecated codex_hooks
 *   [projects."/abs/repo"] trust_level = "trusted"   # a parent folder counts
 *   [hooks.state."<hooks.json path>:pre_tool_use:0:0"] trusted_hash = "sha256:…"; enabled = false
 *
 * (Codex sources: codex-rs/hooks/src/engine/discovery.rs, config_rules.rs,
 * lib.rs `hook_key`.) ralph does not recompute Codex's trust hash (its
 * normalisation differs between Codex versions), so a recorded hash is
 * "trust recorded", not "trusted".
 *
 * The reader here takes TOML's table headers and `key = value` lines with
 * strings, booleans and numbers, which is all these settings use; a value it
 * cannot read (arrays, inline tables, multi-line strings) is skipped, never
 * guessed.
 */
import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { isErrno } from "../errors.js";
import type { InstalledAgentHook } from "./agent-settings.js";

/** A TOML document as nested objects (tables), arrays of tables, and scalar values. */
export type TomlTable = { [key: string]: TomlValue };
type TomlValue = string | number | boolean | TomlTable | TomlTable[];

/** Reads one key (bare, "basic" or 'literal') or dotted key from the start of `text`; returns its parts and the rest. */
function readKey(text: string): { parts: string[]; rest: string } | null {
  const parts: string[] = [];
  let rest = text.trimStart();
  for (;;) {
    let m: RegExpExecArray | null;
    if ((m = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) parts.push(unescapeBasic(m[1]!));
    else if ((m = /^'([^']*)'/.exec(rest))) parts.push(m[1]!);
    else if ((m = /^[A-Za-z0-9_-]+/.exec(rest))) parts.push(m[0]);
    else return null;
    rest = rest.slice(m[0].length).trimStart();
    if (!rest.startsWith(".")) return { parts, rest };
    rest = rest.slice(1).trimStart();
  }
}

function unescapeBasic(text: string): string {
  return text.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, e: string) => {
    if (e[0] === "u" || e[0] === "U") return String.fromCodePoint(parseInt(e.slice(1), 16));
    return ({ b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" } as Record<string, string>)[e] ?? e;
  });
}

/** A scalar value at the start of `text` (after `=`), or undefined for anything else. */
function readScalar(text: string): string | number | boolean | undefined {
  const t = text.trim();
  let m: RegExpExecArray | null;
  if ((m = /^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(t)) && !t.startsWith('"""')) return unescapeBasic(m[1]!);
  if ((m = /^'([^']*)'\s*(#.*)?$/.exec(t)) && !t.startsWith("'''")) return m[1]!;
  if ((m = /^(true|false)\s*(#.*)?$/.exec(t))) return m[1] === "true";
  if ((m = /^([+-]?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)\s*(#.*)?$/.exec(t))) return Number(m[1]!.replace(/_/g, ""));
  return undefined;
}

/** The table at `parts` under `root`, created as needed (a new array entry when `arrayLast`); null when a non-table is in the way. */
function tableAt(root: TomlTable, parts: readonly string[], arrayLast: boolean): TomlTable | null {
  let table: TomlTable = root;
  for (const [i, part] of parts.entries()) {
    const existing = table[part];
    if (i === parts.length - 1 && arrayLast) {
      const list = Array.isArray(existing) ? existing : existing === undefined ? [] : null;
      if (list === null) return null;
      const entry: TomlTable = {};
      list.push(entry);
      table[part] = list;
      return entry;
    }
    if (existing === undefined) {
      const next: TomlTable = {};
      table[part] = next;
      table = next;
    } else if (Array.isArray(existing)) {
      const last = existing[existing.length - 1];
      if (!last) return null;
      table = last;
    } else if (typeof existing === "object") table = existing;
    else return null;
  }
  return table;
}

/** Parses TOML text into tables and scalars (see the module doc for what is skipped). Never throws. */
export function readToml(text: string): TomlTable {
  const root: TomlTable = {};
  let current: TomlTable | null = root;
  let skipUntil: RegExp | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (skipUntil) {
      if (skipUntil.test(raw)) skipUntil = null;
      continue;
    }
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[(\[)?(.*?)\](\])?\s*(#.*)?$/.exec(line);
    if (header) {
      const key = readKey(header[2]!);
      current = key && key.rest === "" ? tableAt(root, key.parts, header[1] === "[" && header[3] === "]") : null;
      continue;
    }
    const key = readKey(line);
    if (!key || !key.rest.startsWith("=")) continue;
    const valueText = key.rest.slice(1).trim();
    if (valueText.startsWith('"""') && !/"""\s*(#.*)?$/.test(valueText.slice(3))) skipUntil = /"""/;
    else if (valueText.startsWith("'''") && !/'''\s*(#.*)?$/.test(valueText.slice(3))) skipUntil = /'''/;
    else if (valueText.startsWith("[") && !/\]\s*(#.*)?$/.test(valueText)) skipUntil = /\]\s*(#.*)?$/;
    const value = readScalar(valueText);
    if (value === undefined || current === null) continue;
    const parent = tableAt(current, key.parts.slice(0, -1), false);
    if (parent) parent[key.parts[key.parts.length - 1]!] = value;
  }
  return root;
}

const get = (table: TomlValue | undefined, key: string): TomlValue | undefined => (typeof table === "object" && table !== null && !Array.isArray(table) ? table[key] : undefined);

/** Codex's snake-case label of an event in hook state keys (`PreToolUse` → `pre_tool_use`). */
export function codexEventLabel(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The state key Codex gives one hook entry: `<hooks.json path>:<event label>:<group>:<handler>`. */
export function codexHookKey(hooksJsonPath: string, hook: Pick<InstalledAgentHook, "event" | "groupIndex" | "handlerIndex">): string {
  return `${hooksJsonPath}:${codexEventLabel(hook.event)}:${hook.groupIndex}:${hook.handlerIndex}`;
}

/** What the user's config says about one of ralph's entries. */
export interface CodexHookTrust {
  event: string;
  key: string;
  /** `recorded`: a trusted hash is recorded (ralph cannot check it matches); `untrusted`: none; `disabled`: `enabled = false`. */
  state: "recorded" | "untrusted" | "disabled";
}

/** What files tell about whether Codex runs ralph's project hooks. */
export interface CodexTrustReport {
  /** The user's config file read (it may not exist). */
  configPath: string;
  /** False when `[features] hooks` (or `codex_hooks`) is false; true when set true; null when unset (Codex's default: on since 0.124). */
  featureEnabled: boolean | null;
  /** The `trust_level` recorded for the project or its nearest parent folder; null when none is. */
  projectTrust: string | null;
  hooks: CodexHookTrust[];
  /** One line per reason Codex will skip ralph's hooks; empty when files show none. */
  problems: string[];
}

/** The user's Codex config file: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`. */
export function codexConfigPath(env: NodeJS.ProcessEnv): string {
  return join(env.CODEX_HOME && env.CODEX_HOME !== "" ? env.CODEX_HOME : join(env.HOME ?? homedir(), ".codex"), "config.toml");
}

/** A path and its real path (Codex may record either), deduplicated. */
function pathForms(path: string): string[] {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    /* absent: the path as given */
  }
  return [...new Set([path, real])];
}

/**
 * Reads the user's Codex config and reports on ralph's entries of the
 * project's `.codex/hooks.json` (`hooksJsonPath`, absolute).
 * @param installed ralph's entries in that file (src/hooks/agent-settings.ts installedAgentHooks).
 */
export function checkCodexTrust(workTree: string, hooksJsonPath: string, installed: readonly InstalledAgentHook[], env: NodeJS.ProcessEnv): CodexTrustReport {
  const configPath = codexConfigPath(env);
  let config: TomlTable = {};
  try {
    config = readToml(readFileSync(configPath, "utf8"));
  } catch (error) {
    if (!isErrno(error, "ENOENT", "ENOTDIR")) throw error;
  }
  const features = get(config, "features");
  const flag = get(features, "hooks") ?? get(features, "codex_hooks");
  const featureEnabled = typeof flag === "boolean" ? flag : null;
  const projects = get(config, "projects");
  let projectTrust: string | null = null;
  for (const form of pathForms(workTree)) {
    for (let dir = form; projectTrust === null; dir = dirname(dir)) {
      const level = get(get(projects, dir), "trust_level");
      if (typeof level === "string") projectTrust = level;
      if (dirname(dir) === dir) break;
    }
  }
  const states = get(get(config, "hooks"), "state");
  const hooks: CodexHookTrust[] = installed.map((hook) => {
    const keys = pathForms(hooksJsonPath).map((path) => codexHookKey(path, hook));
    const state = keys.map((key) => get(states, key)).find((s) => s !== undefined);
    const enabled = get(state, "enabled");
    const hash = get(state, "trusted_hash");
    return { event: hook.event, key: keys[0]!, state: enabled === false ? "disabled" : typeof hash === "string" && hash !== "" ? "recorded" : "untrusted" };
  });
  const problems: string[] = [];
  if (featureEnabled === false) problems.push(`hooks are turned off in ${configPath} ([features] hooks = false): Codex runs no hook`);
  if (projectTrust !== "trusted") {
    problems.push(
      `the project is not trusted in ${configPath} (${projectTrust === null ? "no trust_level" : `trust_level = "${projectTrust}"`}): Codex ignores its .codex folder, hooks included; trust it when Codex asks, or set [projects."${workTree}"] trust_level = "trusted"`,
    );
  }
  const untrusted = hooks.filter((h) => h.state === "untrusted").map((h) => h.event);
  const disabled = hooks.filter((h) => h.state === "disabled").map((h) => h.event);
  if (untrusted.length > 0) problems.push(`no trust recorded for ralph's ${untrusted.join(", ")} hook(s): Codex skips them until you trust them in Codex's /hooks`);
  if (disabled.length > 0) problems.push(`ralph's ${disabled.join(", ")} hook(s) are disabled in ${configPath} (enabled = false)`);
  return { configPath, featureEnabled, projectTrust, hooks, problems };
}
