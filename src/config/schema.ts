/**
 * ralph's project configuration: the `agent_persistence` section of
 * `aiwg.yml` at the work-tree root (reference/agent-persistence-integration.txt,
 * "Configuration"), plus ralph's own fields under `agent_persistence.loop`,
 * `.metrics`, `.store`, `.hooks` and `.daemon`.
 *
 * Three steps (STYLE.md §8): the zod/mini schema ({@link ConfigSchema})
 * checks shapes and ranges and rejects unknown keys; {@link normalizeConfig}
 * then maps finding-type aliases onto DESIGN.md's types and reads a
 * percent-looking plateau threshold as a fraction; the rules report what is
 * legal but probably not meant (levels that go down, p99 below p95) as
 * warnings, kept apart from errors. Every field has a default
 * ({@link DEFAULT_CONFIG}), so a missing file or section is a valid config.
 *
 * zod/mini, not classic zod: hooks load this in a fresh process.
 */
import * as z from "zod/mini";
import { FINDING_TYPES, type FindingType, type Severity } from "../analysis/types.js";

/** DESIGN.md's ten finding types (defined with the analysis types). */
export { FINDING_TYPES };

/**
 * Other names for finding types (older guides, other tools), each mapped onto
 * the nearest DESIGN.md type. Accepted wherever a type is, with a warning
 * naming the type it became.
 */
export const FINDING_TYPE_ALIASES: Readonly<Record<string, FindingType>> = {
  test_removal: "test_deletion",
  test_deleted: "test_deletion",
  deleted_tests: "test_deletion",
  test_skip: "test_disabled",
  test_skipped: "test_disabled",
  test_skipping: "test_disabled",
  skipped_tests: "test_disabled",
  assertion_deletion: "assertion_removal",
  assertion_removed: "assertion_removal",
  assertion_weakened: "assertion_weakening",
  weakened_assertions: "assertion_weakening",
  expectation_change: "expectation_changed",
  expected_value_changed: "expectation_changed",
  suppression: "validation_bypass",
  guard_removal: "validation_bypass",
  validation_removal: "validation_bypass",
  reward_hacking: "special_casing",
  test_special_casing: "special_casing",
  test_tampering: "test_config_tamper",
  test_config_tampering: "test_config_tamper",
  config_tamper: "test_config_tamper",
  coverage_drop: "coverage_regression",
  coverage_decrease: "coverage_regression",
  feature_deletion: "feature_removal",
  export_removal: "feature_removal",
};

/** Finding severities, worst first (DESIGN.md). */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const satisfies readonly Severity[];

/** Detection modes (reference guide: off, minimal, standard, aggressive). */
export const DETECTION_MODES = ["off", "minimal", "standard", "aggressive"] as const;
/** A detection mode. */
export type DetectionMode = (typeof DETECTION_MODES)[number];

/** Reinforcement levels, weakest first (DESIGN.md "Loop engine"). */
export const REINFORCEMENT_LEVELS = ["MINIMAL", "STANDARD", "AGGRESSIVE"] as const;
/** A reinforcement level. */
export type ReinforcementLevel = (typeof REINFORCEMENT_LEVELS)[number];

/** What a PreToolUse objection becomes in Claude Code. */
export const PRE_TOOL_DECISIONS = ["deny", "ask"] as const;
/** A PreToolUse decision. */
export type PreToolDecision = (typeof PRE_TOOL_DECISIONS)[number];

/** The hard cap of `loop.max_iterations` (and of auto-extension). */
export const MAX_ITERATIONS_CAP = 200;

/** An allow rule from config: the same meaning as a `Ralph-Allow: <type> [path=<glob>] <reason>` commit trailer (src/loop/check.ts). */
export interface ConfigAllowRule {
  /** A finding type, or `*` for every type. Example: `test_deletion`. */
  type: FindingType | "*";
  /** Limits the rule to files at, under, or matching this glob (`*`, `**`, `?`); absent: every file. Example: `test/legacy/**`. */
  path?: string;
  /** Why the change is intended (required). Example: `legacy suite replaced by test/v2`. */
  reason: string;
}

/** A command run with a time limit; `command` null means "not configured". */
export interface TimedCommand {
  /** Shell command, or null (default) for none. */
  command: string | null;
  /** Time limit in ms. */
  timeout_ms: number;
}

/**
 * The effective configuration: the `agent_persistence` section with every
 * default applied and every alias resolved. Keys are the YAML's (snake_case).
 * Spec: reference/agent-persistence-integration.txt, "Configuration" (enabled,
 * detection, reinforcement, recovery, best_output_selection, performance);
 * `loop`, `metrics`, `store`, `hooks`, `daemon` and the fields marked ralph's own
 * (`detection.severity`, `detection.allow`, `recovery.auto_revert`,
 * `reinforcement.templates_dir`, the p99 and false-positive budgets) are ralph's.
 */
export interface RalphConfig {
  /** Master switch of the persistence features. Default `true`. Example: `enabled: false`. */
  enabled: boolean;
  detection: {
    /** How hard detection looks. Default `standard`. Example: `mode: aggressive`. */
    mode: DetectionMode;
    /**
     * Finding types reported. Default: all ten of DESIGN.md. Aliases
     * ({@link FINDING_TYPE_ALIASES}) are mapped with a warning.
     * Example: `patterns_enabled: [test_deletion, validation_bypass]`.
     */
    patterns_enabled: FindingType[];
    /** Severity per finding type, over the built-in ones. Default `{}`. Example: `severity: {feature_removal: high}`. */
    severity: Partial<Record<FindingType, Severity>>;
    /** Intended changes that downgrade matching findings (never silence them). Default `[]`. Example: `allow: [{type: test_deletion, path: "test/old/**", reason: "suite replaced"}]`. */
    allow: ConfigAllowRule[];
  };
  reinforcement: {
    /** Level of the first iterations. Default `MINIMAL`. Example: `default_level: STANDARD`. */
    default_level: ReinforcementLevel;
    /**
     * Level from iteration N on, keyed `iteration_<N>`. Default
     * `{iteration_3: STANDARD, iteration_5: AGGRESSIVE}`; a map given in
     * aiwg.yml replaces the default one. Example: `{iteration_2: STANDARD}`.
     */
    escalation_thresholds: Record<string, ReinforcementLevel>;
    /** Quality delta (a fraction 0-1) under which three iterations in a row count as a plateau. Default `0.05` (5%); `5` is read as 5% with a warning. */
    quality_plateau_threshold: number;
    /** Folder (relative to the work tree) of templates overriding the built-in reinforcement text; null (default) for the built-in text. Example: `.aiwg/ralph/templates`. */
    templates_dir: string | null;
  };
  recovery: {
    /** PDARE retries before the human gate, 0-10. Default `3`. */
    max_retries: number;
    /** Go straight to the human gate on a critical finding. Default `true`. */
    auto_escalate_on_critical: boolean;
    /** Restore a blocked tool call's changes automatically. Default `false`; env `RALPH_AUTO_REVERT=1` overrides. */
    auto_revert: boolean;
    /** Minutes the human gate waits; null (default) waits indefinitely. Example: `30`. */
    human_gate_timeout_minutes: number | null;
  };
  best_output_selection: {
    /** Track and offer the best iteration. Default `true`. */
    enabled: boolean;
    /** Minimum quality score (percent, 0-100) of a best candidate. Default `70`. */
    quality_threshold: number;
    /** Only verified iterations (completion command passed) are candidates. Default `false`. */
    require_verification: boolean;
  };
  performance: {
    /** Detection latency budget, p95, in ms. Default `500`. */
    detection_latency_budget_ms: number;
    /** Detection latency budget, p99, in ms. Default `1000`. */
    detection_latency_p99_budget_ms: number;
    /** Allowed iteration-time overhead, percent. Default `10`. */
    max_integration_overhead_percentage: number;
    /** Allowed false-positive rate, percent. Default `5`. */
    max_false_positive_rate_percentage: number;
  };
  loop: {
    /** The completion command (done when it exits 0); null (default): `ralph start --completion` gives it. Example: `npm test`. */
    completion_command: string | null;
    /** Time limit of one completion check, ms. Default `60000`. */
    completion_timeout_ms: number;
    /** A command whose last output line is a 0-100 quality score; null (default): none. Example: `node scripts/quality.mjs`. */
    quality_command: string | null;
    /** Time limit of the quality command, ms. Default `60000`. */
    quality_timeout_ms: number;
    /** Iterations before the loop gives up, 1-200. Default `20`. */
    max_iterations: number;
    /** At max_iterations, extend by 10 (up to 200) instead of stopping. Default `false`. */
    auto_extend: boolean;
    /**
     * Stop blocks within one Claude Code `stop_hook_active` chain (one turn
     * kept going by ralph) before ralph lets the turn end, the loop still
     * running, 1-7. Default `5`. Example: `3`. Claude Code ends a turn itself
     * after 8 consecutive Stop blocks (hooks reference, "Stop input").
     */
    max_consecutive_blocks: number;
  };
  metrics: {
    /** Coverage: a command writing an istanbul/c8 summary, and where it lands. Default command null, `coverage/coverage-summary.json`, 300000 ms. Example: `npx vitest run --coverage`. */
    coverage: TimedCommand & { summary_path: string };
    /** TypeScript error count. Default command null, 120000 ms. Example: `npx tsc --noEmit`. */
    typescript: TimedCommand;
    /** Lint error count. Default command null, 120000 ms. Example: `npx eslint .`. */
    lint: TimedCommand;
  };
  store: {
    /** Files larger than this are skipped by checkpoints (not stored), in bytes (src/store/snapshot.ts). Default `52428800` (50 MiB). Example: `10485760`. */
    size_cap_bytes: number;
  };
  hooks: {
    /** What a PreToolUse objection becomes in Claude Code: `deny` (default) or `ask`; env `RALPH_PRETOOL_DECISION` overrides. */
    pre_tool_decision: PreToolDecision;
  };
  daemon: {
    /** Idle time after which the warm per-repository process exits, ms (src/daemon/server.ts). Default `600000` (10 minutes); env `RALPH_DAEMON_IDLE_MS` overrides. Example: `120000`. */
    idle_ms: number;
  };
}

/** Deep-readonly view of a config. */
export type ReadonlyConfig = { readonly [K in keyof RalphConfig]: Readonly<RalphConfig[K]> };

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The configuration when aiwg.yml is absent or says nothing; deeply frozen (use {@link cloneDefaultConfig} for a mutable copy). */
export const DEFAULT_CONFIG: ReadonlyConfig = deepFreeze({
  enabled: true,
  detection: { mode: "standard", patterns_enabled: [...FINDING_TYPES], severity: {}, allow: [] },
  reinforcement: {
    default_level: "MINIMAL",
    escalation_thresholds: { iteration_3: "STANDARD", iteration_5: "AGGRESSIVE" },
    quality_plateau_threshold: 0.05,
    templates_dir: null,
  },
  recovery: { max_retries: 3, auto_escalate_on_critical: true, auto_revert: false, human_gate_timeout_minutes: null },
  best_output_selection: { enabled: true, quality_threshold: 70, require_verification: false },
  performance: {
    detection_latency_budget_ms: 500,
    detection_latency_p99_budget_ms: 1000,
    max_integration_overhead_percentage: 10,
    max_false_positive_rate_percentage: 5,
  },
  loop: {
    completion_command: null,
    completion_timeout_ms: 60_000,
    quality_command: null,
    quality_timeout_ms: 60_000,
    max_iterations: 20,
    auto_extend: false,
    max_consecutive_blocks: 5,
  },
  metrics: {
    coverage: { command: null, summary_path: "coverage/coverage-summary.json", timeout_ms: 300_000 },
    typescript: { command: null, timeout_ms: 120_000 },
    lint: { command: null, timeout_ms: 120_000 },
  },
  store: { size_cap_bytes: 52_428_800 },
  hooks: { pre_tool_decision: "deny" },
  daemon: { idle_ms: 600_000 },
} satisfies RalphConfig);

/** A fresh, mutable deep copy of {@link DEFAULT_CONFIG}. */
export function cloneDefaultConfig(): RalphConfig {
  return structuredClone(DEFAULT_CONFIG) as RalphConfig;
}

// ---------------------------------------------------------------- schema

const D = DEFAULT_CONFIG;
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.int().check(z.gte(min), z.lte(max));
const num = (min: number, max: number) => z.number().check(z.gte(min), z.lte(max));
const command = z.nullable(z.string().check(z.minLength(1)));
const timeoutMs = int(100);
/** A section: absent or `null` (a bare `recovery:` line) means all its defaults. */
const section = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.pipe(
    z.transform((v: unknown) => (v === null || v === undefined ? {} : v)),
    z.strictObject(shape),
  );
/** A finding-type name as written; aliases and unknown names are resolved by {@link normalizeConfig}. */
const typeName = z.string();

/**
 * The zod/mini schema of the `agent_persistence` section as written (before
 * {@link normalizeConfig}): shapes, ranges, unknown keys. Finding-type names
 * and `iteration_<N>` keys are plain strings here; normalisation checks them.
 */
export const ConfigSchema = section({
  enabled: z._default(z.boolean(), D.enabled),
  detection: section({
    mode: z._default(z.enum(DETECTION_MODES), D.detection.mode),
    patterns_enabled: z._default(z.array(typeName), () => [...D.detection.patterns_enabled]),
    severity: z._default(z.record(z.string(), z.enum(SEVERITIES)), () => ({})),
    allow: z._default(
      z.array(
        z.strictObject({
          type: typeName,
          path: z.optional(z.string().check(z.minLength(1))),
          reason: z.string().check(z.minLength(1)),
        }),
      ),
      () => [],
    ),
  }),
  reinforcement: section({
    default_level: z._default(z.enum(REINFORCEMENT_LEVELS), D.reinforcement.default_level),
    escalation_thresholds: z._default(z.record(z.string(), z.enum(REINFORCEMENT_LEVELS)), () => ({ ...D.reinforcement.escalation_thresholds })),
    // A fraction 0-1; up to 100 is accepted here and read as percent by normalizeConfig.
    quality_plateau_threshold: z._default(num(0, 100), D.reinforcement.quality_plateau_threshold),
    templates_dir: z._default(z.nullable(z.string().check(z.minLength(1))), D.reinforcement.templates_dir),
  }),
  recovery: section({
    max_retries: z._default(int(0, 10), D.recovery.max_retries),
    auto_escalate_on_critical: z._default(z.boolean(), D.recovery.auto_escalate_on_critical),
    auto_revert: z._default(z.boolean(), D.recovery.auto_revert),
    human_gate_timeout_minutes: z._default(z.nullable(z.number().check(z.gt(0))), D.recovery.human_gate_timeout_minutes),
  }),
  best_output_selection: section({
    enabled: z._default(z.boolean(), D.best_output_selection.enabled),
    quality_threshold: z._default(num(0, 100), D.best_output_selection.quality_threshold),
    require_verification: z._default(z.boolean(), D.best_output_selection.require_verification),
  }),
  performance: section({
    detection_latency_budget_ms: z._default(int(1), D.performance.detection_latency_budget_ms),
    detection_latency_p99_budget_ms: z._default(int(1), D.performance.detection_latency_p99_budget_ms),
    max_integration_overhead_percentage: z._default(num(0, 100), D.performance.max_integration_overhead_percentage),
    max_false_positive_rate_percentage: z._default(num(0, 100), D.performance.max_false_positive_rate_percentage),
  }),
  loop: section({
    completion_command: z._default(command, D.loop.completion_command),
    completion_timeout_ms: z._default(timeoutMs, D.loop.completion_timeout_ms),
    quality_command: z._default(command, D.loop.quality_command),
    quality_timeout_ms: z._default(timeoutMs, D.loop.quality_timeout_ms),
    max_iterations: z._default(int(1, MAX_ITERATIONS_CAP), D.loop.max_iterations),
    auto_extend: z._default(z.boolean(), D.loop.auto_extend),
    max_consecutive_blocks: z._default(int(1, 7), D.loop.max_consecutive_blocks),
  }),
  metrics: section({
    coverage: section({
      command: z._default(command, D.metrics.coverage.command),
      summary_path: z._default(z.string().check(z.minLength(1)), D.metrics.coverage.summary_path),
      timeout_ms: z._default(timeoutMs, D.metrics.coverage.timeout_ms),
    }),
    typescript: section({
      command: z._default(command, D.metrics.typescript.command),
      timeout_ms: z._default(timeoutMs, D.metrics.typescript.timeout_ms),
    }),
    lint: section({
      command: z._default(command, D.metrics.lint.command),
      timeout_ms: z._default(timeoutMs, D.metrics.lint.timeout_ms),
    }),
  }),
  store: section({ size_cap_bytes: z._default(int(1), D.store.size_cap_bytes) }),
  hooks: section({ pre_tool_decision: z._default(z.enum(PRE_TOOL_DECISIONS), D.hooks.pre_tool_decision) }),
  daemon: section({ idle_ms: z._default(int(1000), D.daemon.idle_ms) }),
});

// ---------------------------------------------------------------- issues

/** A path inside `agent_persistence`: keys and array indexes, e.g. `["detection", "allow", 0, "reason"]`. */
export type ConfigPath = readonly (string | number)[];

/** A problem that makes the config invalid: where, what is wrong, what to do. */
export interface ConfigIssue {
  path: ConfigPath;
  /** What is wrong, e.g. `unknown key (did you mean max_retries?)`. */
  message: string;
  /** What to do, e.g. `remove it or fix its spelling`. */
  hint: string;
}

/** Something legal but probably not meant; the config still loads. */
export interface ConfigWarning {
  path: ConfigPath;
  message: string;
}

/** `["detection", "allow", 0, "reason"]` -> `detection.allow[0].reason` ('' for the section itself). */
export function formatConfigPath(path: ConfigPath): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}

/** Edit distance (insert, delete, substitute, swap of neighbours), for "did you mean". */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The candidate closest to `word` when it is close enough to be a typo, else null. */
export function closestName(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

function valueAt(root: unknown, path: ConfigPath): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  string: "a string",
  object: "a map",
  array: "a list",
  record: "a map",
};

/** The known keys of the object at `path` in the schema (for "did you mean"). */
function knownKeysAt(path: ConfigPath): string[] {
  let node: unknown = DEFAULT_CONFIG;
  for (const part of path) node = typeof part === "number" ? (node as unknown[])[0] : (node as Record<string, unknown>)?.[part];
  if (path.at(-2) === "allow") return ["type", "path", "reason"];
  return node !== null && typeof node === "object" && !Array.isArray(node) ? Object.keys(node) : [];
}

/** One zod issue as {@link ConfigIssue}s (an unknown-keys issue gives one per key). */
function fromZodIssue(issue: z.core.$ZodIssue, raw: unknown): ConfigIssue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  const value = valueAt(raw, path);
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => {
        const near = closestName(key, knownKeysAt(path));
        return {
          path: [...path, key],
          message: `unknown key${near ? ` (did you mean ${near}?)` : ""}`,
          hint: near ? `rename it to ${near}` : `remove it; known keys here: ${knownKeysAt(path).join(", ")}`,
        };
      });
    case "invalid_type": {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      // Every field that may be null has null as its default.
      const nullable = valueAt(DEFAULT_CONFIG, path) === null;
      return [
        {
          path,
          message: `expected ${expected}${nullable ? " or null" : ""}, got ${describeValue(value)}`,
          hint: `write ${expected}${issue.expected === "string" ? " (quote it if YAML reads it as something else)" : ""}`,
        },
      ];
    }
    case "too_small":
      if (issue.origin === "string") return [{ path, message: "empty", hint: "give a value, or null for none" }];
      return [
        issue.inclusive
          ? { path, message: `${String(value)} is below the minimum ${String(issue.minimum)}`, hint: `use at least ${String(issue.minimum)}` }
          : {
              path,
              message: `${String(value)} is not above ${String(issue.minimum)}`,
              hint: `use a number above ${String(issue.minimum)}${valueAt(DEFAULT_CONFIG, path) === null ? ", or null for none" : ""}`,
            },
      ];
    case "too_big":
      return [{ path, message: `${String(value)} is above the maximum ${String(issue.maximum)}`, hint: `use ${issue.inclusive ? "at most" : "less than"} ${String(issue.maximum)}` }];
    case "invalid_value":
      return [{ path, message: `${describeValue(value)} is not allowed`, hint: `use one of ${issue.values.map(String).join(", ")}` }];
    default:
      return [{ path, message: issue.message, hint: "see 'ralph config' for the defaults" }];
  }
}

// ---------------------------------------------------------------- normalise and rules

/** The result of {@link normalizeConfig}: a config when `errors` is empty. */
export interface NormalizedConfig {
  /** The effective config; null when there are errors. */
  config: RalphConfig | null;
  errors: ConfigIssue[];
  warnings: ConfigWarning[];
}

const ESCALATION_KEY = /^iteration_([1-9]\d*)$/;

/**
 * Resolves one finding-type name: a DESIGN.md type passes, an alias becomes
 * its type with a warning, anything else is an error listing the known types.
 */
function resolveType(name: string, path: ConfigPath, errors: ConfigIssue[], warnings: ConfigWarning[], allowStar = false): FindingType | "*" | null {
  if ((FINDING_TYPES as readonly string[]).includes(name) || (allowStar && name === "*")) return name as FindingType | "*";
  const alias = FINDING_TYPE_ALIASES[name];
  if (alias) {
    warnings.push({ path, message: `"${name}" is not one of ralph's finding types; read as ${alias}` });
    return alias;
  }
  const near = closestName(name, [...FINDING_TYPES, ...Object.keys(FINDING_TYPE_ALIASES)]);
  errors.push({
    path,
    message: `unknown finding type "${name}"${near ? ` (did you mean ${near}?)` : ""}`,
    hint: `use one of ${FINDING_TYPES.join(", ")}${allowStar ? ", or * for all" : ""}`,
  });
  return null;
}

/**
 * Validates and normalises a raw `agent_persistence` value (whatever the YAML
 * held; null or undefined mean "no section"): schema, then aliases and
 * percent-vs-fraction, then the warning rules. Never throws; the caller
 * turns `errors` into a RalphError (src/config/load.ts).
 */
export function normalizeConfig(raw: unknown): NormalizedConfig {
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) return { config: null, errors: parsed.error.issues.flatMap((i) => fromZodIssue(i, raw)), warnings: [] };
  const input = parsed.data;
  const errors: ConfigIssue[] = [];
  const warnings: ConfigWarning[] = [];

  // Finding types: aliases, unknown names.
  const patterns: FindingType[] = [];
  input.detection.patterns_enabled.forEach((name, i) => {
    const type = resolveType(name, ["detection", "patterns_enabled", i], errors, warnings) as FindingType | null;
    if (type && !patterns.includes(type)) patterns.push(type);
  });
  const severity: Partial<Record<FindingType, Severity>> = {};
  for (const [name, level] of Object.entries(input.detection.severity)) {
    const type = resolveType(name, ["detection", "severity", name], errors, warnings) as FindingType | null;
    if (type) severity[type] = level;
  }
  const allow: ConfigAllowRule[] = [];
  input.detection.allow.forEach((rule, i) => {
    const type = resolveType(rule.type, ["detection", "allow", i, "type"], errors, warnings, true);
    if (type) allow.push({ type, ...(rule.path !== undefined ? { path: rule.path } : {}), reason: rule.reason });
  });

  // Escalation thresholds: iteration_<N> keys, levels that never go down.
  const thresholds = input.reinforcement.escalation_thresholds;
  const steps: [n: number, key: string, level: ReinforcementLevel][] = [];
  for (const [key, level] of Object.entries(thresholds)) {
    const m = ESCALATION_KEY.exec(key);
    if (!m) errors.push({ path: ["reinforcement", "escalation_thresholds", key], message: "key is not iteration_<N>", hint: "name it iteration_<positive integer>, e.g. iteration_3" });
    else steps.push([Number(m[1]), key, level]);
  }
  steps.sort((a, b) => a[0] - b[0]);
  const rank = (level: ReinforcementLevel) => REINFORCEMENT_LEVELS.indexOf(level);
  let previous: [string, ReinforcementLevel] = ["default_level", input.reinforcement.default_level];
  for (const [, key, level] of steps) {
    if (rank(level) < rank(previous[1])) {
      warnings.push({ path: ["reinforcement", "escalation_thresholds", key], message: `${level} is weaker than ${previous[1]} at ${previous[0]}: reinforcement goes down as iterations grow` });
    }
    previous = [key, level];
  }
  const orderedThresholds: Record<string, ReinforcementLevel> = {};
  for (const [, key, level] of steps) orderedThresholds[key] = level;

  // Plateau threshold: a fraction; 1 < v <= 100 is percent.
  let plateau = input.reinforcement.quality_plateau_threshold;
  if (plateau > 1) {
    warnings.push({ path: ["reinforcement", "quality_plateau_threshold"], message: `${plateau} read as ${plateau}% (${plateau / 100}); write a fraction from 0 to 1` });
    plateau = plateau / 100;
  }

  // templates_dir: inside the work tree, '/'-separated, no leading ./
  let templatesDir = input.reinforcement.templates_dir;
  if (templatesDir !== null) {
    const parts = templatesDir
      .replace(/\\/g, "/")
      .split("/")
      .filter((p) => p !== "" && p !== ".");
    if (/^([a-zA-Z]:)?[\\/]/.test(templatesDir) || parts.includes("..")) {
      errors.push({ path: ["reinforcement", "templates_dir"], message: `${JSON.stringify(templatesDir)} is outside the work tree`, hint: "give a path relative to the repository root, without .." });
    }
    templatesDir = parts.length === 0 ? "." : parts.join("/");
  }

  // Other rules: legal, probably not meant.
  const bos = input.best_output_selection;
  if (bos.quality_threshold > 0 && bos.quality_threshold < 1) {
    warnings.push({
      path: ["best_output_selection", "quality_threshold"],
      message: `${bos.quality_threshold} is a percent (0-100), not a fraction: did you mean ${Math.round(bos.quality_threshold * 100)}?`,
    });
  }
  const perf = input.performance;
  if (perf.detection_latency_p99_budget_ms < perf.detection_latency_budget_ms) {
    warnings.push({
      path: ["performance", "detection_latency_p99_budget_ms"],
      message: `the p99 budget (${perf.detection_latency_p99_budget_ms} ms) is below the p95 budget (${perf.detection_latency_budget_ms} ms)`,
    });
  }
  if (patterns.length === 0 && input.detection.mode !== "off" && errors.length === 0) {
    warnings.push({ path: ["detection", "patterns_enabled"], message: "no finding type enabled: detection reports nothing (use mode: off to say so)" });
  }

  if (errors.length > 0) return { config: null, errors, warnings };
  const config: RalphConfig = {
    ...input,
    detection: { ...input.detection, patterns_enabled: patterns, severity, allow },
    reinforcement: { ...input.reinforcement, escalation_thresholds: orderedThresholds, quality_plateau_threshold: plateau, templates_dir: templatesDir },
  };
  return { config, errors, warnings };
}
