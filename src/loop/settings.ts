/**
 * The loop engine's settings from the project config (`aiwg.yml`,
 * section `agent_persistence`, src/config): one mapping, so the Stop hook,
 * `ralph iterate`, `ralph start` and `ralph select` tune the engine alike.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AllowRule } from "../analysis/index.js";
import { isErrno, RalphError } from "../errors.js";
import { loadConfig, type LoadedConfig } from "../config/load.js";
import type { RalphConfig, ReadonlyConfig } from "../config/schema.js";
import { loopAllowRules, type DetectionPolicy, type JudgeOptions } from "./check.js";
import type { LoopId } from "../store/loop-id.js";
import type { LoopSettings } from "./evaluate.js";
import { TEMPLATE_FILE_NAMES, type ReinforcementLevel } from "./reinforcement.js";

/** The detection policy of a config (`detection.mode`, `patterns_enabled`, `severity`). Pure. */
export function detectionPolicyFrom(config: RalphConfig | ReadonlyConfig): DetectionPolicy {
  return { mode: config.detection.mode, patterns: [...config.detection.patterns_enabled], severity: { ...config.detection.severity } };
}

/** The allow rules of a config (`detection.allow`), as `Ralph-Allow` trailers would give them. Pure. */
export function configAllowRules(config: RalphConfig | ReadonlyConfig): AllowRule[] {
  return config.detection.allow.map((r) => ({ type: r.type, reason: r.reason, ...(r.path ? { path: r.path } : {}) }));
}

/** What a Stop hook spends beyond the loop's commands (Node start-up, checkpoint, analysis against the baseline, state), in ms: a generous bound. */
export const STOP_OVERHEAD_MS = 60_000;

/**
 * The longest a Stop hook call of a loop may take, in ms: the completion
 * command's limit, plus the quality command's and each configured metric
 * command's (coverage, TypeScript, lint; they run one after another at
 * every iteration), plus {@link STOP_OVERHEAD_MS}. The installed Stop hook's
 * `timeout` must cover it, or Claude Code kills the hook mid-check (hooks
 * reference, "timeout": seconds, per command). Pure.
 * @param completionTimeoutMs the loop's completion limit (`--completion-timeout`, else `loop.completion_timeout_ms`).
 * @param qualityCommand the loop's quality command, when it has one beyond the config's.
 */
export function stopHookBudgetMs(config: RalphConfig | ReadonlyConfig, completionTimeoutMs: number, qualityCommand: string | null = config.loop.quality_command): number {
  const m = config.metrics;
  const metricsMs = [m.coverage, m.typescript, m.lint].reduce((sum, c) => sum + (c.command ? c.timeout_ms : 0), 0);
  return completionTimeoutMs + (qualityCommand ? config.loop.quality_timeout_ms : 0) + metricsMs + STOP_OVERHEAD_MS;
}

/** The {@link LoopSettings} a config gives. Pure. */
export function loopSettingsFromConfig(config: RalphConfig | ReadonlyConfig): LoopSettings {
  const thresholds = Object.entries(config.reinforcement.escalation_thresholds)
    .map(([key, level]) => ({ iteration: Number(/^iteration_(\d+)$/.exec(key)?.[1] ?? Number.NaN), level: level as ReinforcementLevel }))
    .filter((t) => Number.isInteger(t.iteration) && t.iteration > 0)
    .sort((a, b) => a.iteration - b.iteration);
  const command = (c: { command: string | null; timeout_ms: number }) => (c.command ? { command: c.command, timeoutMs: c.timeout_ms } : null);
  const m = config.metrics;
  return {
    progress: {
      qualityThreshold: config.best_output_selection.quality_threshold,
      requireVerification: config.best_output_selection.require_verification,
      plateauThreshold: config.reinforcement.quality_plateau_threshold,
      defaultLevel: config.reinforcement.default_level,
      escalationThresholds: thresholds,
    },
    recovery: { maxRetries: config.recovery.max_retries, autoEscalateOnCritical: config.recovery.auto_escalate_on_critical },
    metrics: {
      coverage: { command: m.coverage.command, summaryPath: m.coverage.summary_path, timeoutMs: m.coverage.timeout_ms },
      typescript: command(m.typescript),
      lint: command(m.lint),
    },
    qualityTimeoutMs: config.loop.quality_timeout_ms,
    maxConsecutiveBlocks: config.loop.max_consecutive_blocks,
    allow: configAllowRules(config),
    policy: detectionPolicyFrom(config),
  };
}

/**
 * Loads the work tree's config and maps it; `env` is the run's environment
 * for aiwg.yml's `RALPH_*` overrides (src/runtime-env.ts `vars`; default none set).
 * @throws RalphError E_CONFIG for an invalid aiwg.yml (src/config/load.ts).
 */
export async function loadLoopSettings(workTree: string, env: Readonly<NodeJS.ProcessEnv> = {}): Promise<{ settings: LoopSettings; loaded: LoadedConfig }> {
  const loaded = await loadConfig(workTree, { env });
  const settings = loopSettingsFromConfig(loaded.config);
  if (loaded.config.reinforcement.templates_dir) settings.templates = readTemplates(join(workTree, loaded.config.reinforcement.templates_dir));
  return { settings, loaded };
}

/**
 * The user's reinforcement templates in `dir` (`MINIMAL.md`,
 * `STANDARD.md`, `AGGRESSIVE.md`; any may be missing: its level keeps the
 * built-in text). An empty file counts as missing.
 * @throws RalphError E_UNREADABLE when a file exists but cannot be read.
 */
export function readTemplates(dir: string): Partial<Record<ReinforcementLevel, string>> {
  const templates: Partial<Record<ReinforcementLevel, string>> = {};
  for (const [level, name] of Object.entries(TEMPLATE_FILE_NAMES) as [ReinforcementLevel, string][]) {
    const path = join(dir, name);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) continue;
      throw new RalphError("E_UNREADABLE", `cannot read the reinforcement template ${path}: ${(error as Error).message}`, { data: { path }, cause: error });
    }
    if (text.trim() !== "") templates[level] = text.replace(/\s+$/, "");
  }
  return templates;
}

/**
 * What `ralph check` and `ralph diff` judge with: the config's allow rules
 * and detection policy, plus the loop's human approvals. `env` as in {@link loadLoopSettings}.
 * @throws RalphError E_CONFIG for an invalid aiwg.yml.
 */
export async function judgeOptionsFor(workTree: string, loop: LoopId, env: Readonly<NodeJS.ProcessEnv>): Promise<JudgeOptions> {
  const { config } = await loadConfig(workTree, { env });
  return { allow: [...configAllowRules(config), ...loopAllowRules(workTree, loop)], policy: detectionPolicyFrom(config) };
}

/**
 * What a judgement outside any loop uses (the git pre-push hook): the
 * config's allow rules and detection policy only, no loop approvals. `env` as in {@link loadLoopSettings}.
 * @throws RalphError E_CONFIG for an invalid aiwg.yml; E_UNREADABLE when it cannot be read.
 */
export async function configJudgeOptions(workTree: string, env: Readonly<NodeJS.ProcessEnv>): Promise<JudgeOptions> {
  const { config } = await loadConfig(workTree, { env });
  return { allow: configAllowRules(config), policy: detectionPolicyFrom(config) };
}
