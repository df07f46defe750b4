/**
 * Loading ralph's project config: `aiwg.yml` (else `aiwg.yaml`) at the work
 * tree root, section `agent_persistence` (reference/agent-persistence-integration.txt,
 * "Configuration"). Other top-level sections belong to other tools and are
 * not looked at. A missing file or section means every default.
 *
 * Cheap to import: this module loads `node:fs`, `node:path` and the zod/mini
 * schema; the `yaml` package is imported only when a config file exists.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isErrno, RalphError } from "../errors.js";
import { formatConfigPath, normalizeConfig, PRE_TOOL_DECISIONS, type ConfigIssue, type ConfigPath, type PreToolDecision, type RalphConfig } from "./schema.js";

/** The config file names looked for at the work-tree root, in order. */
export const CONFIG_FILE_NAMES = ["aiwg.yml", "aiwg.yaml"] as const;

/** The top-level key of ralph's section. */
export const CONFIG_SECTION = "agent_persistence";

/** A warning about the config: the dotted path inside `agent_persistence` ('' for the file), the 1-based line when known. */
export interface LoadedConfigWarning {
  /** E.g. `reinforcement.quality_plateau_threshold`. */
  path: string;
  /** E.g. `5 read as 5% (0.05); write a fraction from 0 to 1`. */
  message: string;
  /** Line in the config file, or null (env overrides, file-level notes). */
  line: number | null;
}

/** What {@link loadConfig} returns. */
export interface LoadedConfig {
  /** The effective config: every default applied, aliases resolved, env overrides applied. */
  config: RalphConfig;
  /**
   * Where each leaf's value came from, by dotted path inside `agent_persistence`
   * (`recovery.max_retries`, `reinforcement.escalation_thresholds.iteration_3`;
   * lists and empty maps are leaves): `default`, `<file>:<line>` (e.g.
   * `aiwg.yml:12`) or `env:<NAME>` (e.g. `env:RALPH_AUTO_REVERT`).
   */
  sources: Record<string, string>;
  /** Legal but probably unintended settings, in file order; never errors. */
  warnings: LoadedConfigWarning[];
  /** Absolute path of the file read, or null when there is none. */
  file: string | null;
}

/** Options of {@link loadConfig} and {@link parseConfigText}. */
export interface LoadConfigOptions {
  /** The run's environment for the `RALPH_*` overrides (src/runtime-env.ts `vars`); default none set. */
  env?: Readonly<NodeJS.ProcessEnv>;
}

type YamlModule = typeof import("yaml");
let yamlModule: Promise<YamlModule> | undefined;

function loadYaml(): Promise<YamlModule> {
  yamlModule ??= import("yaml").then((mod) => {
    // Bundled as CommonJS, the named exports may only exist on `default`.
    const cjs = mod as YamlModule & { default?: YamlModule };
    return typeof cjs.LineCounter === "function" ? cjs : (cjs.default as YamlModule);
  });
  return yamlModule;
}

/** The raw section and the 1-based line of every key and list item in it, by dotted path. */
interface ParsedFile {
  section: unknown;
  /** Line of the `agent_persistence:` key, or null when the section is absent. */
  sectionLine: number | null;
  lines: Map<string, number>;
}

function configError(fileName: string, line: number | null, what: string, data: Record<string, unknown>, cause?: unknown): RalphError {
  return new RalphError("E_CONFIG", `${fileName}${line === null ? "" : `:${line}`}: ${what}`, { data: { file: fileName, line, ...data }, cause });
}

async function parseYaml(text: string, fileName: string): Promise<ParsedFile> {
  const yaml = await loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false });
  const lineAt = (offset: number | undefined): number | null => (offset === undefined ? null : lineCounter.linePos(offset).line);
  const syntax = doc.errors[0];
  if (syntax) {
    const line = lineAt(syntax.pos[0]);
    const message = syntax.code === "MULTIPLE_DOCS" ? "the file holds more than one YAML document (a second '---')" : syntax.message.split("\n")[0]?.replace(/\s*at line \d+, column \d+:?$/, "");
    throw configError(fileName, line, `${message}; fix the YAML syntax`, { reason: "yaml", yaml_code: syntax.code }, syntax);
  }
  const root = doc.contents;
  if (root === null || (yaml.isScalar(root) && root.value === null)) return { section: undefined, sectionLine: null, lines: new Map() };
  if (!yaml.isMap(root)) {
    throw configError(fileName, lineAt(root.range?.[0]), `the file is not a map of sections; write '${CONFIG_SECTION}:' at the top level`, { reason: "not_a_map" });
  }
  const pair = root.items.find((p) => (yaml.isScalar(p.key) ? p.key.value : p.key) === CONFIG_SECTION);
  if (!pair) return { section: undefined, sectionLine: null, lines: new Map() };
  const lines = new Map<string, number>();
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (yaml.isMap(node)) {
      for (const item of node.items) {
        const key = yaml.isScalar(item.key) ? String(item.key.value) : String(item.key);
        const keyPath = [...path, key];
        const line = lineAt((item.key as { range?: [number, number, number] } | null)?.range?.[0]);
        if (line !== null) lines.set(formatConfigPath(keyPath), line);
        walk(item.value, keyPath);
      }
    } else if (yaml.isSeq(node)) {
      node.items.forEach((item, i) => {
        const itemPath = [...path, i];
        const line = lineAt((item as { range?: [number, number, number] } | null)?.range?.[0]);
        if (line !== null) lines.set(formatConfigPath(itemPath), line);
        walk(item, itemPath);
      });
    }
  };
  walk(pair.value, []);
  let sectionValue: Record<string, unknown>;
  try {
    // Converting only the section: other tools' sections may use many aliases (yaml caps alias expansion).
    sectionValue = { [CONFIG_SECTION]: yaml.isNode(pair.value) ? pair.value.toJS(doc, { maxAliasCount: 100 }) : pair.value };
  } catch (error) {
    throw configError(
      fileName,
      lineAt((pair.key as { range?: [number, number, number] }).range?.[0]),
      `${CONFIG_SECTION}: ${(error as Error).message.split("\n")[0]}; use fewer YAML aliases there`,
      { reason: "yaml_aliases" },
      error,
    );
  }
  return { section: sectionValue[CONFIG_SECTION], sectionLine: lineAt((pair.key as { range?: [number, number, number] }).range?.[0]), lines };
}

/** The line of `path`, else of its nearest ancestor written in the file, else of the section key. */
function lineOf(parsed: ParsedFile, path: ConfigPath): number | null {
  for (let n = path.length; n > 0; n--) {
    const line = parsed.lines.get(formatConfigPath(path.slice(0, n)));
    if (line !== undefined) return line;
  }
  return parsed.sectionLine;
}

/** `{a: {b: 1, c: []}}` -> `[["a.b", 1], ["a.c", []]]`: plain objects recurse; lists, scalars and empty maps are leaves. */
export function flattenConfig(value: unknown, prefix: (string | number)[] = []): [path: string, value: unknown][] {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([key, inner]) => flattenConfig(inner, [...prefix, key]));
  }
  return [[formatConfigPath(prefix), value]];
}

/** Maps whose entries a file replaces as a whole: an entry's source is the map's line when the entry itself is not written (an alias key). */
const REPLACED_MAPS = ["detection.severity", "reinforcement.escalation_thresholds"];

interface EnvOverride {
  name: string;
  path: string;
  apply: (config: RalphConfig, value: string) => boolean;
  expected: string;
}

/** Environment variables kept for compatibility (they predate aiwg.yml); they win over the file. */
const ENV_OVERRIDES: EnvOverride[] = [
  {
    name: "RALPH_AUTO_REVERT",
    path: "recovery.auto_revert",
    expected: "1, true, 0 or false",
    apply: (config, value) => {
      const v = value.trim().toLowerCase();
      if (v !== "1" && v !== "true" && v !== "0" && v !== "false") return false;
      config.recovery.auto_revert = v === "1" || v === "true";
      return true;
    },
  },
  {
    name: "RALPH_PRETOOL_DECISION",
    path: "hooks.pre_tool_decision",
    expected: PRE_TOOL_DECISIONS.join(" or "),
    apply: (config, value) => {
      const v = value.trim().toLowerCase();
      if (!(PRE_TOOL_DECISIONS as readonly string[]).includes(v)) return false;
      config.hooks.pre_tool_decision = v as PreToolDecision;
      return true;
    },
  },
];

/** The one-line message of a config error: `aiwg.yml:12: agent_persistence.recovery.max_retrys: unknown key (did you mean max_retries?); rename it to max_retries`. */
function issueMessage(fileName: string, line: number | null, issue: ConfigIssue): string {
  const path = formatConfigPath(issue.path);
  return `${fileName}${line === null ? "" : `:${line}`}: ${CONFIG_SECTION}${path === "" ? "" : `.${path}`}: ${issue.message}; ${issue.hint}`;
}

/**
 * Parses config text (the content of `fileName`) into the effective config.
 * `text` null means there is no file: every default, env overrides still apply.
 * @param fileName the name used in sources, warnings and messages (default `aiwg.yml`).
 * @throws RalphError E_CONFIG (exit 2) for a YAML syntax error or a schema error, with the
 *   message `<file>:<line>: agent_persistence.<path>: <what is wrong>; <what to do>` (the
 *   first problem by line; `data.issues` lists them all as `{path, line, message, hint}`).
 */
export async function parseConfigText(text: string | null, fileName = "aiwg.yml", options: LoadConfigOptions = {}): Promise<Omit<LoadedConfig, "file">> {
  // The same text, name and override values give the same result: a warm process (src/daemon/) parses each aiwg.yml
  // content once and reparses as soon as the file's text changes. Callers get their own copy. Errors are not kept.
  const env = options.env ?? {};
  const key = JSON.stringify([text, fileName, ENV_OVERRIDES.map((o) => env[o.name] ?? null)]);
  const known = parsedConfigs.get(key);
  if (known !== undefined) return structuredClone(known);
  const result = await parseConfigUncached(text, fileName, env);
  if (parsedConfigs.size >= 16) parsedConfigs.delete(parsedConfigs.keys().next().value as string);
  parsedConfigs.set(key, structuredClone(result));
  return result;
}

/** Results of {@link parseConfigText} by text, file name and env override values (at most 16, oldest dropped first). */
const parsedConfigs = new Map<string, Omit<LoadedConfig, "file">>();

async function parseConfigUncached(text: string | null, fileName: string, env: NodeJS.ProcessEnv): Promise<Omit<LoadedConfig, "file">> {
  const parsed: ParsedFile = text === null ? { section: undefined, sectionLine: null, lines: new Map() } : await parseYaml(text, fileName);
  const result = normalizeConfig(parsed.section);
  if (result.config === null) {
    const issues = result.errors.map((issue) => ({ issue, line: lineOf(parsed, issue.path) })).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const first = issues[0] as { issue: ConfigIssue; line: number | null };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more: see 'ralph config --check --json')` : "";
    throw new RalphError("E_CONFIG", issueMessage(fileName, first.line, first.issue) + more, {
      data: {
        file: fileName,
        line: first.line,
        path: `${CONFIG_SECTION}.${formatConfigPath(first.issue.path)}`.replace(/\.$/, ""),
        issues: issues.map(({ issue, line }) => ({ path: formatConfigPath(issue.path), line, message: issue.message, hint: issue.hint })),
      },
    });
  }
  const config = result.config;
  const warnings: LoadedConfigWarning[] = result.warnings
    .map((w) => ({ path: formatConfigPath(w.path), message: w.message, line: lineOf(parsed, w.path) }))
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));

  const sources: Record<string, string> = {};
  for (const [path] of flattenConfig(config)) {
    let line = parsed.lines.get(path);
    if (line === undefined) {
      const map = REPLACED_MAPS.find((m) => path.startsWith(`${m}.`));
      if (map !== undefined) line = parsed.lines.get(map);
    }
    sources[path] = line === undefined ? "default" : `${fileName}:${line}`;
  }

  for (const override of ENV_OVERRIDES) {
    const value = env[override.name];
    if (value === undefined || value.trim() === "") continue;
    if (override.apply(config, value)) sources[override.path] = `env:${override.name}`;
    else warnings.push({ path: override.path, message: `${override.name}=${JSON.stringify(value)} ignored: use ${override.expected}`, line: null });
  }
  return { config, sources, warnings };
}

/**
 * Loads the project config of the work tree rooted at `workTree` (an
 * absolute path: the repository's work-tree root, see src/store/repo.ts):
 * `aiwg.yml`, else `aiwg.yaml` (when both exist, aiwg.yml wins and a
 * warning says so), section `agent_persistence`, then the env overrides
 * `RALPH_AUTO_REVERT=1|true|0|false` (recovery.auto_revert) and
 * `RALPH_PRETOOL_DECISION=deny|ask` (hooks.pre_tool_decision). No file: every
 * default, no error. Spec: reference/agent-persistence-integration.txt,
 * "Configuration"; field docs in {@link RalphConfig}.
 * @throws RalphError E_CONFIG for invalid YAML or a schema error (see {@link parseConfigText});
 *   E_UNREADABLE when the file exists but cannot be read.
 */
export async function loadConfig(workTree: string, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const found: { name: string; path: string; text: string }[] = [];
  for (const name of CONFIG_FILE_NAMES) {
    const path = join(workTree, name);
    try {
      found.push({ name, path, text: readFileSync(path, "utf8") });
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) continue;
      if (isErrno(error, "EISDIR")) {
        throw new RalphError("E_CONFIG", `${name} is a folder, not a file; remove it or make it a YAML file`, { data: { file: name, line: null, reason: "not_a_file" }, cause: error });
      }
      throw new RalphError("E_UNREADABLE", `cannot read ${name}: ${(error as Error).message}; check its permissions`, { data: { path: name }, cause: error });
    }
  }
  const chosen = found[0];
  if (!chosen) return { ...(await parseConfigText(null, "aiwg.yml", options)), file: null };
  const loaded = await parseConfigText(chosen.text, chosen.name, options);
  for (const ignored of found.slice(1)) loaded.warnings.unshift({ path: "", message: `${ignored.name} ignored: ${chosen.name} is read`, line: null });
  return { ...loaded, file: chosen.path };
}
