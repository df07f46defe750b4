/**
 * The warm process's named-file fast path (src/daemon/server.ts
 * warmScanFor): a PostToolUse after an Edit checkpoints only the file the
 * payload names, without the watcher's barrier, while the rest of the work
 * tree is known clean; when the watcher saw another change since the last
 * scan, the whole tree is checkpointed (through the dirty set) and the other
 * change is in the post-tool checkpoint. Run `npm run build` first.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRalph } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "hooks");
const WARM: NodeJS.ProcessEnv = { RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON: "require", RALPH_DAEMON_IDLE_MS: "60000", RALPH_DEBUG: "1" };

/** A PostToolUse payload of an Edit of `rel` (the post-edit fixture, pointed at this repository). */
function postEdit(root: string, rel: string, id: string): string {
  const payload = JSON.parse(readFileSync(join(FIXTURES, "post-edit.json"), "utf8").replaceAll("{{ROOT}}", root)) as Record<string, unknown>;
  return JSON.stringify({ ...payload, tool_use_id: id, tool_input: { file_path: join(root, rel), old_string: "a", new_string: "b" } });
}

/** The paths in the tree of every loop head under refs/ralph. */
function headPaths(root: string): Set<string> {
  const heads = git(root, ["for-each-ref", "--format=%(refname)", "refs/ralph"])
    .split("\n")
    .filter((r) => r.endsWith("/head"));
  return new Set(heads.flatMap((ref) => git(root, ["ls-tree", "-r", "--name-only", ref]).split("\n").filter(Boolean)));
}

describe("PostToolUse after an Edit through the warm process", () => {
  it("re-reads only the named file while the rest is clean, and the whole tree once the watcher saw something else", () => {
    const root = makeRepo({ "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 1;\n" });
    try {
      expect(runRalph(root, ["checkpoint"], { env: WARM }).status).toBe(0);
      const start = runRalph(root, ["hook", "claude", "SessionStart"], { env: WARM, input: readFileSync(join(FIXTURES, "session-start.json"), "utf8").replaceAll("{{ROOT}}", root) });
      expect(start.status, start.stderr).toBe(0);
      expect(runRalph(root, ["checkpoint"], { env: WARM }).status).toBe(0); // a scan after the watcher's first (full) take
      expect(runRalph(root, ["checkpoint"], { env: WARM }).status).toBe(0);

      writeFileSync(join(root, "src/a.ts"), "export const a = 2;\n");
      const fast = runRalph(root, ["hook", "claude", "PostToolUse"], { env: WARM, input: postEdit(root, "src/a.ts", "t1") });
      expect(fast.status, fast.stderr).toBe(0);
      expect(fast.stderr).not.toMatch(/snapshot \(/); // the fast path: no work tree scan

      writeFileSync(join(root, "src/other.ts"), "export const other = 1;\n");
      writeFileSync(join(root, "src/a.ts"), "export const a = 3;\n");
      const whole = runRalph(root, ["hook", "claude", "PostToolUse"], { env: WARM, input: postEdit(root, "src/a.ts", "t2") });
      expect(whole.status, whole.stderr).toBe(0);
      expect(whole.stderr).toMatch(/snapshot \(/);
      expect(headPaths(root).has("src/other.ts")).toBe(true);
    } finally {
      runRalph(root, ["daemon", "stop"], { env: WARM });
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
