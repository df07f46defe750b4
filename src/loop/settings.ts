/**
 * The loop engine's settings from the project config (`aiwg.yml`,
 * section `agent_persistence`, src/config): one mapping, so the Stop hook,
 * `ralph iterate`, `ralph start` and `ralph select` tune the engine alike.
 */
import type { AllowRule } from "../analysis/index.js";
import { loadConfig, type LoadedConfig } from "../config/load.js";
import type { RalphConfig, ReadonlyConfig } from "../config/schema.js";
import { loopAllowRules, type DetectionPolicy, type JudgeOptions } from "./check.js";
import type { LoopId } from "../store/loop-id.js";
import type { LoopSettings } from "./evaluate.js";
import type { ReinforcementLevel } from "./reinforcement.js";

/** The detection policy of a config (`detection.mode`, `patterns_enabled`, `severity`). Pure. */
export function detectionPolicyFrom(config: RalphConfig | ReadonlyConfig): DetectionPolicy {
  return { mode: config.detection.mode, patterns: [...config.detection.patterns_enabled], severity: { ...config.detection.severity } };
}

/** The allow rules of a config (`detection.allow`), as `Ralph-Allow` trailers would give them. Pure. */
export function configAllowRules(config: RalphConfig | ReadonlyConfig): AllowRule[] {
  return config.detection.allow.map((r) => ({ type: r.type, reason: r.reason, ...(r.path ? { path: r.path } : {}) }));
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
    allow: configAllowRules(config),
    policy: detectionPolicyFrom(config),
  };
}

/**
 * Loads the work tree's config and maps it.
 * @throws RalphError E_CONFIG for an invalid aiwg.yml (src/config/load.ts).
 */
export async function loadLoopSettings(workTree: string): Promise<{ settings: LoopSettings; loaded: LoadedConfig }> {
  const loaded = await loadConfig(workTree);
  return { settings: loopSettingsFromConfig(loaded.config), loaded };
}

/**
 * What `ralph check` and `ralph diff` judge with: the config's allow rules
 * and detection policy, plus the loop's human approvals.
 * @throws RalphError E_CONFIG for an invalid aiwg.yml.
 */
export async function judgeOptionsFor(workTree: string, loop: LoopId): Promise<JudgeOptions> {
  const { config } = await loadConfig(workTree);
  return { allow: [...configAllowRules(config), ...loopAllowRules(workTree, loop)], policy: detectionPolicyFrom(config) };
}
