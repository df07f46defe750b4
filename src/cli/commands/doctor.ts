/**
 * `ralph doctor [--json]`: is everything installed and answering? For each
 * event ralph installs, it finds ralph's command in `.claude/settings.json`
 * or `.claude/settings.local.json`, runs it through the shell the way Claude
 * Code does (hooks reference: command hooks run in a shell with the payload
 * on stdin) with a synthetic payload of that event, and reports whether it
 * answered with exactly one JSON object and exit 0. The commands run with
 * `RALPH_HOOK_DRY_RUN=1`, so they answer without writing checkpoints or logs.
 *
 * It also looks at git's pre-push hook (`ralph install --git-hooks`): it
 * names the hook manager in charge (husky, lefthook, pre-commit,
 * simple-git-hooks, or none) and runs ralph's entry along that manager's
 * path (./git-hooks.ts {@link checkGitHooks}); absent or someone else's is
 * only reported; ralph's must exit 0 saying it had nothing to check; a hook
 * file git would ignore (not executable), or a manager whose own hook is
 * not installed, fails. Only a ralph hook that does not answer counts as a
 * problem. JSON: `git_hooks` ({@link GitHookCheck}).
 *
 * The same check runs for Codex CLI, Gemini CLI and Cursor entries
 * (`ralph install --codex | --gemini | --cursor`; JSON `agent_checks`). For
 * Codex it also reads the user's config for what makes Codex skip project
 * hooks without a word: the hooks feature off, the project not trusted, no
 * trust recorded for an entry (src/hooks/codex-trust.ts; JSON `codex_trust`);
 * for Gemini, the hooks system switched off or ralph's entries listed in
 * `hooks.disabled` of the project or user settings. Each such reason counts
 * as a problem: the hook will not run.
 *
 * Hooks that are not installed are one line of information each (Claude
 * Code, the other agents, git), never a problem: `problems` counts installed hooks that do
 * not answer. Changes to ralph's guard made outside ralph
 * (src/hooks/guard-record.ts) are reported too (JSON `guard_changes`).
 *
 * Exit 0, or 2 when an installed hook does not answer (run the install again).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { checkCodexTrust } from "../../hooks/codex-trust.js";
import * as z from "zod/mini";
import { HOOK_PLAN, installedRalphCommands } from "../../hooks/claude-settings.js";
import { readSettingsFile, settingsPathFor } from "../../hooks/settings-file.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";
import type { Repository } from "../../store/repo.js";
import { homeOf, type RuntimeEnv } from "../../runtime-env.js";
import type { GitHookCheck } from "./git-hooks.js";
import { AGENT_INSTALLS, agentSettingsPath, INSTALL_AGENTS, installedAgentHooks, type InstallAgent } from "../../hooks/agent-settings.js";

const Options = z.strictObject({
  json: z.optional(z.boolean()),
});

/** One event's check. */
export interface DoctorCheck {
  event: string;
  status: "ok" | "not-installed" | "failed";
  settings: string | null;
  command: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  detail: string;
}

/** The git pre-push hook's check (./git-hooks.ts). */
export type { GitHookCheck } from "./git-hooks.js";

async function checkGitHook(repo: Repository): Promise<GitHookCheck> {
  const { checkGitHooks } = await import("./git-hooks.js");
  return checkGitHooks(repo);
}

/** A synthetic payload for an event (harmless: a Read tool, a doctor session). */
export function syntheticPayload(event: string, cwd: string): Record<string, unknown> {
  const common = { session_id: "ralph-doctor", transcript_path: "", cwd, permission_mode: "default", hook_event_name: event };
  switch (event) {
    case "SessionStart":
      return { ...common, source: "startup" };
    case "UserPromptSubmit":
      return { ...common, prompt: "ralph doctor" };
    case "PreToolUse":
      return { ...common, tool_name: "Read", tool_input: { file_path: `${cwd}/README.md` }, tool_use_id: "toolu_ralph_doctor" };
    case "PostToolUse":
      return { ...common, tool_name: "Read", tool_input: { file_path: `${cwd}/README.md` }, tool_response: {}, tool_use_id: "toolu_ralph_doctor" };
    case "Stop":
    case "SubagentStop":
      return { ...common, stop_hook_active: false };
    case "PreCompact":
      return { ...common, trigger: "manual", custom_instructions: "" };
    case "SessionEnd":
      return { ...common, reason: "other" };
    default:
      return common;
  }
}

/** One agent entry's check (Codex, Gemini, Cursor). */
export interface AgentDoctorCheck extends DoctorCheck {
  agent: InstallAgent;
}

/** A synthetic payload for an agent's event, in the agent's shape (docs/agents.md), harmless in a dry run. */
export function agentSyntheticPayload(agent: InstallAgent, event: string, cwd: string): Record<string, unknown> {
  if (agent === "cursor") return { hook_event_name: event, conversation_id: "ralph-doctor", generation_id: "ralph-doctor", workspace_roots: [cwd] };
  if (agent === "gemini") return { hook_event_name: event, session_id: "ralph-doctor", transcript_path: "", cwd, timestamp: new Date(0).toISOString() };
  return { ...syntheticPayload(event, cwd), transcript_path: null, model: "ralph-doctor", turn_id: "ralph-doctor" };
}

/**
 * Runs one installed hook command the way its agent does (a shell, the
 * payload on stdin, at most 30 s) in a dry run (RALPH_HOOK_DRY_RUN=1): ok when
 * it exits 0 with one JSON object on stdout and stderr matches `answeredAs`
 * (ralph's own "answered" line, so another program does not pass).
 */
function runInstalledHook(
  command: string,
  workTree: string,
  payload: Record<string, unknown>,
  answeredAs: RegExp,
  env: Readonly<NodeJS.ProcessEnv>,
): { ok: boolean; exit_code: number | null; duration_ms: number; detail: string } {
  const started = performance.now();
  const result = spawnSync(command, {
    shell: true,
    cwd: workTree,
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: 30_000,
    env: { ...env, RALPH_HOOK_DRY_RUN: "1", CLAUDE_PROJECT_DIR: workTree },
  });
  const durationMs = Math.round(performance.now() - started);
  const stderrLast = (result.stderr ?? "").trim().split("\n").pop() ?? "";
  let detail: string;
  let ok = false;
  if (result.error) detail = `could not run: ${result.error.message}`;
  else if (result.status !== 0) detail = `exit ${result.status ?? result.signal}: ${stderrLast || "(no stderr)"}`;
  else {
    try {
      const parsed = JSON.parse(result.stdout) as unknown;
      ok = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && answeredAs.test(result.stderr ?? "");
      detail = ok ? "answered one JSON object" : `answered, but not as ralph: ${stderrLast || result.stdout.slice(0, 200)}`;
    } catch {
      detail = `stdout is not one JSON object: ${JSON.stringify(result.stdout.slice(0, 200))}`;
    }
  }
  return { ok, exit_code: result.status, duration_ms: durationMs, detail };
}

/** Reads a JSON settings file for doctor (`comments`: Gemini's, read with comments stripped): null when absent or unreadable (doctor only reports). */
function readJsonQuietly(path: string, comments = false): Record<string, unknown> | null {
  try {
    return readSettingsFile(path, { comments });
  } catch {
    return null;
  }
}

/** Why Gemini CLI would not run ralph's entries, from the project and user settings (docs/agents.md, "Gemini CLI: Enabled and trusted"). */
export function geminiProblems(files: ReadonlyArray<{ path: string; settings: Record<string, unknown> | null }>, names: readonly string[]): string[] {
  const problems: string[] = [];
  for (const { path, settings } of files) {
    if (!settings) continue;
    const tools = settings.tools as Record<string, unknown> | undefined;
    const hooks = settings.hooks as Record<string, unknown> | undefined;
    if (tools?.enableHooks === false) problems.push(`${path} turns the hooks system off (tools.enableHooks = false)`);
    if (hooks?.enabled === false) problems.push(`${path} turns hooks off (hooks.enabled = false)`);
    const disabled = Array.isArray(hooks?.disabled) ? (hooks.disabled as unknown[]).filter((n): n is string => typeof n === "string" && names.includes(n)) : [];
    if (disabled.length > 0) problems.push(`${path} disables ralph's ${disabled.join(", ")} (hooks.disabled)`);
  }
  return problems;
}

/** Checks every agent's installed entries; the Codex trust and Gemini switches are read when their entries are there. */
function checkAgents(workTree: string, env: RuntimeEnv): { checks: AgentDoctorCheck[]; codexTrust: unknown; problems: string[] } {
  const checks: AgentDoctorCheck[] = [];
  const problems: string[] = [];
  let codexTrust: unknown = null;
  for (const agent of INSTALL_AGENTS) {
    const path = agentSettingsPath(workTree, agent);
    const settings = readJsonQuietly(path, agent === "gemini");
    const installed = settings ? installedAgentHooks(agent, settings) : [];
    if (installed.length === 0) continue;
    for (const { event } of AGENT_INSTALLS[agent].plan) {
      const entry = installed.find((h) => h.event === event);
      if (!entry) {
        checks.push({
          agent,
          event,
          status: "not-installed",
          settings: null,
          command: null,
          exit_code: null,
          duration_ms: null,
          detail: `no ralph hook for this event; run: ralph install --${agent}`,
        });
        continue;
      }
      const run = runInstalledHook(entry.command, workTree, agentSyntheticPayload(agent, event, workTree), new RegExp(`ralph: hook ${agent} .*answered`), env.vars);
      checks.push({ agent, event, status: run.ok ? "ok" : "failed", settings: path, command: entry.command, exit_code: run.exit_code, duration_ms: run.duration_ms, detail: run.detail });
    }
    if (agent === "codex") {
      const report = checkCodexTrust(workTree, path, installed, env.vars);
      codexTrust = report;
      problems.push(...report.problems.map((p) => `Codex: ${p}`));
    }
    if (agent === "gemini") {
      const names = AGENT_INSTALLS.gemini.plan.map((p) => `ralph-${p.event}`);
      const user = join(homeOf(env.git), ".gemini", "settings.json");
      problems.push(
        ...geminiProblems(
          [
            { path, settings },
            { path: user, settings: readJsonQuietly(user, true) },
          ],
          names,
        ).map((p) => `Gemini CLI: ${p}`),
      );
    }
  }
  return { checks, codexTrust, problems };
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  parseOptions(Options, raw, "doctor");
  const repo = openStore(ctx).repo;
  const workTree = repo.workTree;
  const installed = new Map<string, { command: string; settings: string }>();
  for (const path of [settingsPathFor(workTree, false), settingsPathFor(workTree, true)]) {
    const settings = readSettingsFile(path);
    if (!settings) continue;
    for (const [event, command] of installedRalphCommands(settings)) installed.set(event, { command, settings: path });
  }
  const checks: DoctorCheck[] = [];
  for (const { event } of HOOK_PLAN) {
    const entry = installed.get(event);
    if (!entry) {
      checks.push({ event, status: "not-installed", settings: null, command: null, exit_code: null, duration_ms: null, detail: "no ralph hook for this event; run: ralph install --claude" });
      continue;
    }
    const run = runInstalledHook(entry.command, workTree, syntheticPayload(event, workTree), /ralph: hook claude .*answered/, ctx.env.vars);
    checks.push({ event, status: run.ok ? "ok" : "failed", settings: entry.settings, command: entry.command, exit_code: run.exit_code, duration_ms: run.duration_ms, detail: run.detail });
  }
  const gitHook = await checkGitHook(repo);
  const agents = checkAgents(workTree, ctx.env);
  const failedClaude = checks.filter((c) => c.status === "failed");
  const installedClaude = checks.filter((c) => c.status !== "not-installed");
  const missingClaude = checks.filter((c) => c.status === "not-installed");
  const line = (label: string, name: string, durationMs: number | null, detail: string): string => `${label}  ${name.padEnd(16)} ${durationMs !== null ? `${durationMs} ms  ` : ""}${detail}`;
  const text: string[] = [];
  // What is installed is checked line by line; what is not is one line of information, not a problem.
  if (installedClaude.length === 0) text.push(line("--    ", "Claude Code", null, "not installed (information); to check this repository's agent sessions run: ralph install --claude"));
  else {
    for (const c of installedClaude) text.push(line(c.status === "ok" ? "ok    " : "FAILED", c.event, c.duration_ms, c.detail));
    if (missingClaude.length > 0)
      text.push(line("--    ", "Claude Code", null, `no ralph hook for ${missingClaude.map((c) => c.event).join(", ")} (information); ralph install --claude installs every event`));
  }
  const gitName = `git pre-push${gitHook.manager === "none" ? "" : ` (${gitHook.manager})`}`;
  if (gitHook.status === "not-installed") text.push(line("--    ", gitName, null, `not installed (information): ${gitHook.detail.replace(/^no pre-push hook; /, "")} (${gitHook.hook})`));
  else text.push(line({ ok: "ok    ", failed: "FAILED", foreign: "other " }[gitHook.status], gitName, gitHook.duration_ms, `${gitHook.detail} (${gitHook.hook})`));
  for (const agent of INSTALL_AGENTS) {
    const mine = agents.checks.filter((c) => c.agent === agent);
    const name = AGENT_INSTALLS[agent].name;
    if (mine.length === 0) {
      text.push(line("--    ", name, null, `not installed (information); to check its sessions run: ralph install --${agent}`));
      continue;
    }
    for (const c of mine) text.push(line(c.status === "ok" ? "ok    " : c.status === "failed" ? "FAILED" : "--    ", `${name} ${c.event}`, c.duration_ms, c.detail));
  }
  for (const problem of agents.problems) text.push(line("FAILED", "will not run", null, problem));
  const gitProblem = gitHook.status === "failed" ? 1 : 0;
  const failedAgents = agents.checks.filter((c) => c.status === "failed").length;
  const problems = failedClaude.length + failedAgents + agents.problems.length;
  const answered = installedClaude.length - failedClaude.length + (gitHook.status === "ok" ? 1 : 0) + agents.checks.filter((c) => c.status === "ok").length;
  if (problems + gitProblem === 0)
    text.push(
      installedClaude.length === 0 && gitHook.status !== "ok" && agents.checks.length === 0
        ? "ralph: no ralph hook is installed here, so none was run"
        : `ralph: every installed hook answered (${answered})`,
    );
  if (failedClaude.length > 0) text.push(`ralph: ${failedClaude.length} of ${installedClaude.length} installed Claude Code hooks are not answering; run: ralph install --claude`);
  for (const agent of INSTALL_AGENTS) {
    const failed = agents.checks.filter((c) => c.agent === agent && c.status === "failed").length;
    if (failed > 0) text.push(`ralph: ${failed} installed ${AGENT_INSTALLS[agent].name} hook(s) are not answering; run: ralph install --${agent}`);
  }
  if (gitProblem) text.push("ralph: the git pre-push hook is not answering; run: ralph install --git-hooks");
  const { checkGuard, describeGuardReport } = await import("../../hooks/guard-record.js");
  const guard = await checkGuard(repo);
  const guardMessage = describeGuardReport(guard);
  if (guardMessage) text.push(guardMessage);
  // Exit 2 when an installed hook does not answer (the user must reinstall); hooks merely absent are not failures.
  const failed = problems > 0 || gitProblem > 0;
  const json = {
    ok: problems + gitProblem === 0,
    problems: problems + gitProblem,
    checks,
    agent_checks: agents.checks,
    agent_problems: agents.problems,
    codex_trust: agents.codexTrust,
    git_hooks: gitHook,
    guard_changes: guard.changes,
  };
  return { json, text: text.join("\n"), exitCode: failed ? 2 : 0 };
}
