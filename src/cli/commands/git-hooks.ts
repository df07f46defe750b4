/**
 * The git-hooks part of `ralph install`, `ralph uninstall` and `ralph
 * doctor`: finds the hook manager in charge of pre-push
 * (src/hooks/git-hook-managers.ts) and registers ralph through it, or
 * writes ralph's own chained hook when there is none
 * (src/hooks/git-hook-install.ts).
 *
 * A `core.hooksPath` that comes from the global or system config is shared
 * by every repository of the user: ralph writes into it only with
 * `--global`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { RalphError } from "../../errors.js";
import { readRepoGitConfig } from "../../store/git-config.js";
import type { Repository } from "../../store/repo.js";
import { isExecutable } from "../../hooks/git-hook-install.js";

/** Options of {@link installGitHooks}. */
export interface GitHooksInstallOptions {
  /** Use this manager instead of the detected one (`none`: ralph's own hook file). */
  manager?: string;
  /** lefthook: lefthook-local.yml. */
  local?: boolean;
  /** Allow writing into a core.hooksPath set in the global or system config. */
  global?: boolean;
}

/** What {@link installGitHooks} reports: JSON fields, text lines, and warnings for stderr. */
export interface GitHooksReport {
  json: Record<string, unknown>;
  lines: string[];
  warnings: string[];
}

async function chooseManager(repo: Repository, wanted: string | undefined) {
  const { detectHookManager, HOOK_MANAGERS } = await import("../../hooks/git-hook-managers.js");
  const detection = detectHookManager(repo);
  if (wanted === undefined) return detection;
  if (!(HOOK_MANAGERS as readonly string[]).includes(wanted)) {
    throw new RalphError("E_USAGE", `unknown hook manager ${JSON.stringify(wanted)} (known: ${HOOK_MANAGERS.join(", ")})`, { data: { manager: wanted } });
  }
  return { ...detection, manager: wanted as (typeof HOOK_MANAGERS)[number], evidence: `--manager ${wanted}`, hookInstalled: detection.manager === wanted && detection.hookInstalled };
}

/**
 * `ralph install --git-hooks`: registers ralph with the manager in charge
 * (or `options.manager`), or writes the chained hook when there is none.
 * @throws RalphError E_USAGE for a global core.hooksPath without --global,
 *   an unknown --manager, or a manager config ralph cannot edit.
 */
export async function installGitHooks(repo: Repository, nodePath: string, cliPath: string, options: GitHooksInstallOptions): Promise<GitHooksReport> {
  const hooksPath = repo.config.get("core.hookspath");
  const ownHooksPath = readRepoGitConfig(repo.commonDir, repo.gitDir, repo.env.git).get("core.hookspath");
  const warnings: string[] = [];
  if (hooksPath !== undefined && hooksPath !== "" && ownHooksPath === undefined && !options.global) {
    throw new RalphError(
      "E_USAGE",
      `core.hooksPath (${hooksPath}) comes from your global or system git config, so every repository shares it; to install ralph there for all of them run: ralph install --git-hooks --global (or set core.hooksPath in this repository)`,
      { data: { hooksPath } },
    );
  }
  const detection = await chooseManager(repo, options.manager);
  if (detection.manager === "none") {
    const { installGitHook } = await import("../../hooks/git-hook-install.js");
    const git = installGitHook(repo, nodePath, cliPath);
    // git(1) core.hooksPath: a relative path is resolved in each work tree, so linked worktrees do not see this hook.
    if (hooksPath && !isAbsolute(hooksPath) && !hooksPath.startsWith("~/")) {
      warnings.push(
        `core.hooksPath is relative (${hooksPath}): git resolves it in each work tree, so pushes from linked worktrees skip this hook unless ralph install --git-hooks runs there too (or core.hooksPath is absolute)`,
      );
    }
    return {
      json: { ...git, manager: "none", evidence: detection.evidence, notes: [] },
      lines: [`ralph: git pre-push hook ${git.changed ? "installed" : "already installed"} in ${git.hook}` + (git.chained ? `; your earlier pre-push hook runs first, from ${git.chained}` : "")],
      warnings,
    };
  }
  const { installThroughManager, findPreCommitVersion } = await import("../../hooks/git-hook-managers.js");
  const preCommitVersion = detection.manager === "pre-commit" ? findPreCommitVersion(repo.workTree, repo.env.vars) : null;
  const done = await installThroughManager(repo, detection, nodePath, cliPath, { local: options.local === true, preCommitVersion });
  return {
    json: { ...done, hook: join(detection.hooksDir, "pre-push") },
    lines: [
      `ralph: pre-push guard ${done.changed ? "registered" : "already registered"} with ${done.manager} (${done.evidence}) in ${done.file}; it runs ${done.runner}`,
      ...done.notes.map((note) => `ralph: note: ${note}`),
    ],
    warnings,
  };
}

/** `ralph uninstall --git-hooks`: removes ralph's manager entry (files put back as they were) and ralph's own hook file, whichever is there. */
export async function uninstallGitHooks(repo: Repository): Promise<GitHooksReport & { removed: number }> {
  const { uninstallGitHook } = await import("../../hooks/git-hook-install.js");
  const { uninstallThroughManager } = await import("../../hooks/git-hook-managers.js");
  const managed = await uninstallThroughManager(repo);
  const git = uninstallGitHook(repo);
  const lines: string[] = [];
  if (git.removed) lines.push(`ralph: removed the git pre-push hook ${git.hook}`);
  if (git.keptEdited) lines.push(`ralph: the hook had been edited since install; it is kept at ${git.keptEdited}`);
  if (git.restored) lines.push(`ralph: restored your earlier pre-push hook at ${git.restored}`);
  for (const path of managed.restored) lines.push(`ralph: put ${path} back as it was before ralph install (${managed.manager})`);
  for (const path of managed.edited) lines.push(`ralph: removed ralph's entry from ${path} (edited since install, the rest kept)`);
  const removed = (git.removed ? 1 : 0) + managed.restored.length + managed.edited.length;
  if (managed.manager === "simple-git-hooks" && removed > 0) lines.push("ralph: note: run npx simple-git-hooks so .git/hooks/pre-push forgets ralph's lines");
  return {
    json: { ...git, kept_edited: git.keptEdited, manager: managed.manager ?? "none", manager_files: { restored: managed.restored, edited: managed.edited }, removed_runner: managed.removedRunner },
    lines,
    warnings: [],
    removed,
  };
}

/** The git pre-push part of `ralph doctor`. */
export interface GitHookCheck {
  /** The manager in charge (`none`: ralph's own hook file). */
  manager: string;
  evidence: string;
  hook: string;
  /** `foreign`: a pre-push hook that is not ralph's (ralph install --git-hooks would chain it). */
  status: "ok" | "not-installed" | "foreign" | "failed";
  /** The user's hook ralph's runs first, or null. */
  chained: string | null;
  /** The manager's file holding ralph's entry, or null. */
  file: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  detail: string;
}

function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function firstErrorLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  // Node's crash ends with its version line: the first line naming an error says what is wrong.
  return lines.find((line) => /\b\w*Error\b|ralph:/.test(line))?.trim() ?? lines.pop() ?? "";
}

/**
 * Doctor's look at pre-push: names the manager in charge, checks each link
 * of its path (the manager's hook file in the hooks folder, ralph's entry
 * in its file, the runner), then runs ralph's entry the way the manager
 * does (husky and simple-git-hooks: the block through `sh -e` with git's
 * two arguments; lefthook: its `run` with `{1}` `{2}` filled in; pre-commit:
 * its entry without PRE_COMMIT_* variables), with no ref lines; it must exit
 * 0 saying it had nothing to check. Without a manager: ralph's own hook
 * file, run the same way.
 */
export async function checkGitHooks(repo: Repository): Promise<GitHookCheck> {
  const { detectHookManager, registeredEntry, runnerPathOf, managerNotes, BLOCK_BEGIN } = await import("../../hooks/git-hook-managers.js");
  const detection = detectHookManager(repo);
  const hook = join(detection.hooksDir, "pre-push");
  if (detection.manager === "none") return { ...(await checkOwnHook(repo)), manager: "none", evidence: detection.evidence, file: null };
  const base = { manager: detection.manager, evidence: detection.evidence, hook, chained: null, exit_code: null, duration_ms: null };
  const entry = registeredEntry(repo, detection);
  const install = "ralph install --git-hooks";
  if (entry === null) return { ...base, file: null, status: "not-installed", detail: `${detection.manager} is in charge of pre-push (${detection.evidence}) and has no ralph entry; run: ${install}` };
  const runner = runnerPathOf(repo);
  const missing = managerNotes(detection).filter(() => !detection.hookInstalled);
  if (missing.length > 0) return { ...base, file: entry.file, status: "failed", detail: `git does not reach ralph: ${missing.join("; ")}` };
  if (detection.manager === "simple-git-hooks" && !(readTextOrNull(hook) ?? "").includes(BLOCK_BEGIN)) {
    return { ...base, file: entry.file, status: "failed", detail: `${hook} was written before ralph's entry was added to ${entry.file}; run: npx simple-git-hooks` };
  }
  if (!isExecutable(runner)) return { ...base, file: entry.file, status: "failed", detail: `${runner} is missing or not executable, so the entry only says ralph is not installed; run: ${install}` };
  const script =
    detection.manager === "lefthook"
      ? entry.command.replaceAll("{1}", "ralph-doctor").replaceAll("{2}", "ralph-doctor")
      : detection.manager === "pre-commit"
        ? entry.command
        : `set -e\n${entry.command}`;
  const argv = detection.manager === "pre-commit" ? ["-c", `exec ${script}`] : ["-c", script, "pre-push", "ralph-doctor", "ralph-doctor"];
  const env = { ...repo.env.vars };
  for (const key of Object.keys(env)) if (key.startsWith("PRE_COMMIT_")) delete env[key];
  const started = performance.now();
  const result = spawnSync("sh", argv, { cwd: repo.workTree, input: "", encoding: "utf8", timeout: 30_000, env });
  const durationMs = Math.round(performance.now() - started);
  const ok = !result.error && result.status === 0 && /ralph: pre-push: nothing to check/.test(result.stderr ?? "");
  const detail = result.error
    ? `could not run: ${result.error.message}; run: ${install}`
    : ok
      ? `answered through ${detection.manager} (${entry.file})`
      : `exit ${result.status ?? result.signal}: ${firstErrorLine(result.stderr ?? "") || "(no stderr)"}; run: ${install}`;
  return { ...base, file: entry.file, status: ok ? "ok" : "failed", exit_code: result.status, duration_ms: durationMs, detail };
}

async function checkOwnHook(repo: Repository): Promise<Omit<GitHookCheck, "manager" | "evidence" | "file">> {
  const { inspectGitHook } = await import("../../hooks/git-hook-install.js");
  const found = inspectGitHook(repo);
  const base = { hook: found.hook, chained: found.hasChained ? found.chainedPath : null, exit_code: null, duration_ms: null };
  if (found.state === "absent") return { ...base, status: "not-installed", detail: "no pre-push hook; to refuse test-deleting pushes run: ralph install --git-hooks" };
  if (found.state === "foreign") {
    // install refuses to overwrite either file when both exist (an earlier install's chained hook was left behind).
    const detail = found.hasChained
      ? `a pre-push hook that is not ralph's, and ${found.chainedPath} from an earlier ralph install: keep the one you want (delete or move the other), then run ralph install --git-hooks`
      : "a pre-push hook that is not ralph's; ralph install --git-hooks keeps it and runs it first";
    return { ...base, status: "foreign", detail };
  }
  if (!found.command) return { ...base, status: "failed", detail: "ralph's tag is there but not the node and cli paths; run: ralph install --git-hooks" };
  if (!isExecutable(found.hook)) return { ...base, status: "failed", detail: "git ignores it: the file is not executable; run: ralph install --git-hooks" };
  const chainedNote = base.chained && !isExecutable(base.chained) ? `; ${base.chained} is not executable, so neither git nor ralph runs it` : "";
  const started = performance.now();
  const result = spawnSync(found.command.node, [found.command.cli, "hook", "git", "pre-push", "ralph-doctor", "ralph-doctor"], {
    cwd: repo.workTree,
    env: repo.env.vars,
    input: "",
    encoding: "utf8",
    timeout: 30_000,
  });
  const durationMs = Math.round(performance.now() - started);
  const ok = !result.error && result.status === 0 && /ralph: pre-push: nothing to check/.test(result.stderr ?? "");
  const detail = result.error
    ? `could not run: ${result.error.message}; run: ralph install --git-hooks`
    : ok
      ? `answered${base.chained ? `; runs ${base.chained} first` : ""}${chainedNote}`
      : `exit ${result.status ?? result.signal}: ${firstErrorLine(result.stderr ?? "") || "(no stderr)"}; run: ralph install --git-hooks`;
  return { ...base, status: ok ? "ok" : "failed", exit_code: result.status, duration_ms: durationMs, detail };
}
