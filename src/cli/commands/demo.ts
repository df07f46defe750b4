/**
 * `ralph demo [--keep] [--json]`: ralph's main job end to end on the
 * embedded sample repository (src/cli/demo-project.ts), with no set-up and
 * no network: checkpoint, an agent's edit that deletes a failing test,
 * `ralph check` catching it, `ralph revert` bringing it back, and native git
 * reading what ralph stored. Needs the `git` binary (to create the sample
 * repository's first commit, as a user's repository would have).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { DEMO_AGENT_EDIT, DEMO_FILES, DEMO_IGNORED_FILES, DEMO_UNTRACKED_FILES } from "../demo-project.js";
import { parseOptions } from "../options.js";

const Options = z.strictObject({ keep: z.optional(z.boolean()), json: z.optional(z.boolean()) });

/** One step of the demo, as shown. */
interface DemoStep {
  command: string;
  exitCode: number;
  output: string;
}

const LOOP = "demo";

function writeAll(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** git with a neutral identity and config, so the demo works on a machine with no git set-up. */
function git(root: string, args: string[]): string {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_AUTHOR_NAME: "Demo Developer",
        GIT_AUTHOR_EMAIL: "dev@acme.invalid",
        GIT_COMMITTER_NAME: "Demo Developer",
        GIT_COMMITTER_EMAIL: "dev@acme.invalid",
      },
    });
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === "ENOENT") throw new RalphError("E_USAGE", "the demo needs the git binary on PATH; install git and retry", { cause: error });
    throw new RalphError("E_INTERNAL", `git ${args.join(" ")} failed in the demo: ${(err.stderr ?? err.message).trim().split("\n")[0]}`, { cause: error });
  }
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "demo");
  const { dispatch } = await import("../program.js");
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ralph-demo-")));
  const steps: DemoStep[] = [];
  const out: string[] = [];
  const say = (...lines: string[]): void => {
    out.push(...lines);
  };
  const ralph = async (...argv: string[]): Promise<DemoStep> => {
    let stdout = "";
    const sub = { cwd: root, stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stdout += t) };
    let exitCode = 0;
    let output: string;
    try {
      const result = await dispatch([...argv, "--loop", LOOP], sub, "demo");
      exitCode = result?.output.exitCode ?? 0;
      output = `${stdout}${result?.output.text ?? ""}`;
    } catch (error) {
      exitCode = error instanceof RalphError ? error.exitCode : 3;
      output = `${stdout}ralph: ${(error as Error).message}`;
    }
    const shown = argv.map((a) => (/^[\w@~./=-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
    const step = { command: `ralph ${shown}`, exitCode, output: output.trimEnd() };
    steps.push(step);
    say(`$ ${step.command}`);
    say(`${step.output.replace(/^/gm, "  ")}`);
    say(`  (exit ${exitCode})`);
    return step;
  };
  let keep = options.keep ?? false;
  const expect = (ok: boolean, what: string): void => {
    if (ok) return;
    keep = true;
    throw new RalphError("E_INTERNAL", `demo failed: ${what} (sample repository kept at ${root})`);
  };

  try {
    say("== 1. A real-looking repository: acme-invoice (TypeScript + Vitest), committed, with ignored node_modules/ and an untracked note");
    git(root, ["init", "-q", "-b", "main"]);
    writeAll(root, DEMO_FILES);
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "-m", "acme-invoice 1.4.0"]);
    writeAll(root, DEMO_IGNORED_FILES);
    writeAll(root, DEMO_UNTRACKED_FILES);
    const statusBefore = git(root, ["status", "--porcelain=v1", "-uall"]);
    const headBefore = git(root, ["rev-parse", "HEAD"]).trim();
    say(`  ${root}`);

    say("", "== 2. Before the agent's turn, ralph checkpoints the working tree (HEAD, index and branch untouched)");
    const first = await ralph("checkpoint", "-m", "before the agent's turn");
    expect(first.exitCode === 0 && /^[0-9a-f]{40}$/.test(first.output), "the first checkpoint did not print an oid");

    say("", "== 3. The agent breaks the negative-quantity guard, its test fails, and it deletes the test");
    for (const [path, edit] of Object.entries(DEMO_AGENT_EDIT)) writeFileSync(join(root, path), edit(readFileSync(join(root, path), "utf8")));
    await ralph("checkpoint", "-m", "after the agent's turn");

    say("", "== 4. ralph check compares the baseline with the working tree and blocks the deleted test");
    const check = await ralph("check", "--from", "@baseline");
    expect(check.exitCode === 1 && check.output.startsWith("BLOCK") && check.output.includes("rejects negative quantities"), "ralph check did not block the deleted test");

    say("", "== 5. ralph revert restores the baseline (a pre-revert checkpoint keeps the agent's state, so this is undoable)");
    const revert = await ralph("revert", "@baseline");
    expect(revert.exitCode === 0 && readFileSync(join(root, "test/invoice.test.ts"), "utf8") === DEMO_FILES["test/invoice.test.ts"], "the revert did not bring the test back");

    say("", "== 6. The test is back: the same check now passes");
    const recheck = await ralph("check", "--from", "@baseline");
    expect(recheck.exitCode === 0 && recheck.output.startsWith("PASS"), "the check after the revert did not pass");
    await ralph("log");

    say("", "== 7. Native git reads what ralph stored, and the user's own state never moved");
    const nativeLog = git(root, ["log", "--format=%h %s", `refs/ralph/${LOOP}/head`]).trimEnd();
    say("$ git log --format='%h %s' refs/ralph/demo/head", nativeLog.replace(/^/gm, "  "));
    const fsck = git(root, ["fsck", "--full", "--strict", "--no-dangling"]);
    say("$ git fsck --full --strict", `  ${fsck.trim() === "" ? "(clean)" : fsck.trim()}`);
    const statusAfter = git(root, ["status", "--porcelain=v1", "-uall"]);
    const headAfter = git(root, ["rev-parse", "HEAD"]).trim();
    expect(statusAfter === statusBefore && headAfter === headBefore, "the user's HEAD or status changed");
    say(`  HEAD still ${headAfter.slice(0, 12)}; git status is what it was before the demo:`, statusAfter.trimEnd().replace(/^/gm, "  "));

    say("", "demo passed: a deleted test was caught and restored; every state is a commit under refs/ralph/demo/.");
    if (options.keep) say(`the sample repository is kept at ${root}`);
    return { json: { ok: true, repository: options.keep ? root : null, steps }, text: out.join("\n") };
  } finally {
    if (!keep) rmSync(root, { recursive: true, force: true });
  }
}
