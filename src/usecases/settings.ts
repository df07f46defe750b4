/**
 * The settings a hook call judges with: the project's `aiwg.yml`
 * (`agent_persistence`, src/config), with the environment overrides
 * `RALPH_PRETOOL_DECISION` and `RALPH_AUTO_REVERT` applied by the config
 * loader. Agent-neutral: every adapter reads the same settings.
 */
import type { AllowRule } from "../analysis/index.js";
import type { RalphConfig, ReadonlyConfig } from "../config/schema.js";
import type { DetectionPolicy } from "../loop/check.js";
import { configAllowRules, detectionPolicyFrom } from "../loop/settings.js";
import type { Diagnostics } from "./types.js";

/** Settings of a hook call (see the module doc). */
export interface HookSettings {
  /** What a before-tool objection becomes: "deny" (default) or "ask" (`hooks.pre_tool_decision`). */
  preToolDecision: "deny" | "ask";
  /** Restore a tool call's changes when the after-tool judgement blocks it (`recovery.auto_revert`). */
  autoRevert: boolean;
  /** Allow rules of `detection.allow`, applied to every judgement like `Ralph-Allow` trailers. */
  allow: AllowRule[];
  /** PDARE tuning (`recovery.max_retries`, `recovery.auto_escalate_on_critical`). */
  recovery: { maxRetries: number; autoEscalateOnCritical: boolean };
  /** The detection policy (`detection.mode`, `patterns_enabled`, `severity`); null: built-in. */
  policy: DetectionPolicy | null;
}

/** {@link HookSettings} from a loaded config (defaults when null). */
export function hookSettingsFrom(config: ReadonlyConfig | RalphConfig | null): HookSettings {
  return {
    preToolDecision: config?.hooks.pre_tool_decision ?? "deny",
    autoRevert: config?.recovery.auto_revert ?? false,
    allow: config ? configAllowRules(config) : [],
    recovery: { maxRetries: config?.recovery.max_retries ?? 3, autoEscalateOnCritical: config?.recovery.auto_escalate_on_critical ?? true },
    policy: config ? detectionPolicyFrom(config) : null,
  };
}

/**
 * Loads the settings of the repository at `workTree`. Never throws for a
 * bad config: an invalid aiwg.yml does not turn protection off; the
 * defaults apply and `diagnostics` gets one line saying why.
 */
export async function loadHookSettings(workTree: string, env: Readonly<NodeJS.ProcessEnv>, diagnostics: Diagnostics): Promise<HookSettings> {
  const { loadConfig } = await import("../config/load.js");
  try {
    return hookSettingsFrom((await loadConfig(workTree, { env })).config);
  } catch (error) {
    diagnostics(`ralph: ${(error as Error).message}; the hook uses the default settings\n`);
    return hookSettingsFrom(null);
  }
}
