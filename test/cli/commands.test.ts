/**
 * In-repo flows: checkpoint, log, loops, diff, check, revert, tests; their
 * --json shapes; REV forms; running from a subdirectory. Every repository is
 * built with real git, and native git reads back what ralph stored. The
 * commands run in-process (runCli); the V8 code cache (written by one
 * process, used by the next) and start-up time go through the built binary.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPathForTests, linesOf, parseJsonOutput, runRalph, runRalphInProcess } from "../helpers/cli.js";
import { commitAll, fsck, git, gitEnv, makeRepo, makeTempDir, userState, writeFiles, type FileSpec } from "../helpers/git.js";

const OID = /^[0-9a-f]{40}$/;

const MATH_TEST = `import { describe, it, expect } from "vitest";
import { add } from "../src/math";

describe("math", () => {
  it("adds", async () => {
    expect(add(1, 2)).toBe(3);
  });

  it("adds negatives", async () => {
    expect(add(-1, -2)).toBe(-3);
  });
});
`;

const MATH_TEST_WITHOUT_NEGATIVES = MATH_TEST.replace(
  `
  it("adds negatives", async () => {
    expect(add(-1, -2)).toBe(-3);
  });
`,
  "",
);

// No package.json or other runner config here: `ralph tests` fails on those (see the known-bugs block).
const PROJECT: Record<string, FileSpec> = {
  "src/math.ts": "export const add = (a: number, b: number): number => a + b;\n",
  "test/math.test.ts": MATH_TEST,
  "sub/deep/notes.md": "notes\n",
  "bin/run.sh": { content: "#!/bin/sh\necho hi\n", mode: 0o755 },
  "link-to-math": { symlink: "src/math.ts" },
  ".gitignore": "*.log\nbuild/\n",
};

/** Runs ralph and asserts exit 0 with nothing on stderr; returns stdout. */
async function ok(cwd: string, args: string[]): Promise<string> {
  const r = await runRalphInProcess(cwd, args);
  expect(r.status, `ralph ${args.join(" ")}\n${r.stderr}`).toBe(0);
  expect(r.stderr).toBe("");
  return r.stdout;
}

/** Runs a --json command and parses stdout as exactly one JSON value. */
async function okJson<T>(cwd: string, args: string[]): Promise<T> {
  return parseJsonOutput<T>({ stdout: await ok(cwd, [...args, "--json"]), stderr: "" });
}

/** The tree native git would write for the work tree (tracked + untracked, not ignored), without touching the real index. */
function nativeWorkTree(root: string): string {
  const tmpIndex = join(makeTempDir("ralph-index-"), "index");
  const env = { ...gitEnv, GIT_INDEX_FILE: tmpIndex };
  execFileSync("git", ["add", "-A"], { cwd: root, env });
  return execFileSync("git", ["write-tree"], { cwd: root, env, encoding: "utf8" }).trim();
}

function treeOf(root: string, rev: string): string {
  return git(root, ["rev-parse", `${rev}^{tree}`]).trim();
}

/** Bytes and mtimes of every file under root (not .git), for "nothing changed" checks. */
function fileStates(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (path === ".git") continue;
      const st = lstatSync(join(root, path));
      if (e.isDirectory()) {
        out.set(`${path}/`, `${st.mode}`);
        walk(path);
      } else if (e.isSymbolicLink()) out.set(path, `link ${readlinkSync(join(root, path))} ${st.mtimeMs}`);
      else out.set(path, `${st.mode} ${st.mtimeMs} ${st.ctimeMs} ${readFileSync(join(root, path)).toString("base64")}`);
    }
  };
  walk("");
  return out;
}

function refsUnder(root: string, prefix = "refs/ralph"): string {
  return git(root, ["for-each-ref", "--format=%(objectname) %(refname)", prefix]);
}

interface CheckpointJson {
  oid: string;
  changed: boolean;
  loop: string;
  kind: string;
  tree: string;
  ref: string;
  skipped: unknown[];
  stats: Record<string, number>;
}

interface LogEntry {
  oid: string;
  loop: string;
  kind: string | null;
  iteration: number | null;
  subject: string;
  time: string;
  refs: string[];
}

describe("checkpoint", () => {
  it("prints the new oid, then 'unchanged' for the same tree; sets head and baseline; HEAD, index and status untouched", async () => {
    const root = makeRepo(PROJECT);
    writeFiles(root, { "untracked.txt": "u\n", "debug.log": "ignored\n" });
    const before = userState(root);
    const first = await ok(root, ["checkpoint", "--loop", "a"]);
    expect(first).toMatch(/^[0-9a-f]{40}\n$/);
    const oid = first.trim();
    expect(await ok(root, ["checkpoint", "--loop", "a"])).toBe("unchanged\n");
    expect(refsUnder(root)).toBe(`${oid} refs/ralph/a/baseline\n${oid} refs/ralph/a/head\n`);
    expect(userState(root)).toEqual(before);
    // The checkpoint's tree is exactly what native git would store: untracked kept, ignored left out, modes and symlinks kept.
    expect(treeOf(root, oid)).toBe(nativeWorkTree(root));
    const ls = git(root, ["ls-tree", "-r", oid]);
    expect(ls).toMatch(/^100755 blob [0-9a-f]{40}\tbin\/run\.sh$/m);
    expect(ls).toMatch(/^120000 blob [0-9a-f]{40}\tlink-to-math$/m);
    expect(ls).toContain("\tuntracked.txt\n");
    expect(ls).not.toContain("debug.log");
    fsck(root);
  });

  it("--json: {oid, changed, loop, kind, tree, ref, skipped, stats}, for a new and an unchanged checkpoint", async () => {
    const root = makeRepo(PROJECT);
    const made = await okJson<CheckpointJson>(root, ["checkpoint", "--loop", "j", "--kind", "pre-tool", "-m", "before edit"]);
    expect(Object.keys(made).sort()).toEqual(["changed", "kind", "loop", "oid", "ref", "skipped", "stats", "tree"]);
    expect(made).toMatchObject({ changed: true, loop: "j", kind: "pre-tool", ref: "refs/ralph/j/head", skipped: [] });
    expect(made.oid).toMatch(OID);
    expect(made.tree).toBe(treeOf(root, made.oid));
    expect(git(root, ["rev-parse", made.ref]).trim()).toBe(made.oid);
    for (const value of Object.values(made.stats)) expect(typeof value).toBe("number");
    expect(git(root, ["log", "-1", "--format=%s", made.oid]).trim()).toBe("before edit");
    const trailers = git(root, ["log", "-1", "--format=%(trailers:only,unfold)", made.oid]);
    expect(trailers).toContain("Ralph-Loop: j\n");
    expect(trailers).toContain("Ralph-Kind: pre-tool\n");
    expect(trailers).toContain(`Ralph-Head: ${git(root, ["rev-parse", "HEAD"]).trim()}\n`);

    const same = await okJson<CheckpointJson>(root, ["checkpoint", "--loop", "j"]);
    expect(same).toMatchObject({ changed: false, oid: made.oid, tree: made.tree, loop: "j", ref: "refs/ralph/j/head" });

    writeFiles(root, { "src/math.ts": "export const add = (a: number, b: number): number => b + a;\n" });
    const next = await okJson<CheckpointJson>(root, ["checkpoint", "--loop", "j"]);
    expect(next.changed).toBe(true);
    expect(git(root, ["rev-parse", `${next.oid}^`]).trim()).toBe(made.oid);
    expect(git(root, ["rev-parse", "refs/ralph/j/baseline"]).trim()).toBe(made.oid);
  });

  it("--kind iteration --iteration 2 sets iterations/0002, and @2 resolves to it", async () => {
    const root = makeRepo(PROJECT);
    await ok(root, ["checkpoint", "--loop", "it"]);
    writeFiles(root, { "src/math.ts": "// v2\n" });
    const it2 = await okJson<CheckpointJson>(root, ["checkpoint", "--loop", "it", "--kind", "iteration", "--iteration", "2"]);
    expect(git(root, ["rev-parse", "refs/ralph/it/iterations/0002"]).trim()).toBe(it2.oid);
    const diff = await okJson<{ from: string }>(root, ["diff", "@2", "--loop", "it"]);
    expect(diff.from).toBe(it2.oid);
    const loops = await okJson<{ loop: string; iterations: number }[]>(root, ["loops"]);
    expect(loops.find((l) => l.loop === "it")?.iterations).toBe(1);
  });

  it("works in a repository with no commits yet", async () => {
    const root = makeRepo({ "a.txt": "a\n" }, { commit: false });
    const made = await okJson<CheckpointJson>(root, ["checkpoint"]);
    expect(made.changed).toBe(true);
    expect(made.loop).toBe("default");
    expect(git(root, ["log", "-1", "--format=%(trailers:key=Ralph-Head,valueonly)", made.oid]).trim()).toBe("none");
    expect(git(root, ["ls-tree", "--name-only", made.oid]).trim()).toBe("a.txt");
    fsck(root);
  });
});

describe("log and loops", () => {
  it("log --json: newest first along the first-parent chain, with the loop refs at each entry", async () => {
    const root = makeRepo(PROJECT);
    const oids: string[] = [];
    for (let i = 0; i < 3; i++) {
      writeFiles(root, { "counter.txt": `${i}\n` });
      oids.push((await ok(root, ["checkpoint", "--loop", "lg", "-m", `step ${i}`])).trim());
    }
    const log = await okJson<LogEntry[]>(root, ["log", "--loop", "lg"]);
    expect(log.map((e) => e.oid)).toEqual([...oids].reverse());
    expect(log.map((e) => e.oid)).toEqual(git(root, ["rev-list", "--first-parent", "refs/ralph/lg/head"]).trim().split("\n"));
    expect(log.map((e) => e.subject)).toEqual(["step 2", "step 1", "step 0"]);
    expect(log[0]?.refs).toEqual(["head"]);
    expect(log[1]?.refs).toEqual([]);
    expect(log[2]?.refs).toEqual(["baseline"]);
    for (const e of log) {
      expect(e).toMatchObject({ loop: "lg", kind: "manual", iteration: null });
      expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    // -n limits; text output names the refs.
    expect((await okJson<LogEntry[]>(root, ["log", "--loop", "lg", "-n", "2"])).map((e) => e.oid)).toEqual([oids[2], oids[1]]);
    const text = await ok(root, ["log", "--loop", "lg"]);
    expect(linesOf(text)).toHaveLength(3);
    expect(linesOf(text)[0]).toContain((oids[2] as string).slice(0, 12));
    expect(linesOf(text)[0]).toContain("(head)");
  });

  it("log --all and loops --json list every loop", async () => {
    const root = makeRepo(PROJECT);
    const a = (await ok(root, ["checkpoint", "--loop", "alpha"])).trim();
    writeFiles(root, { "x.txt": "x\n" });
    const b1 = (await ok(root, ["checkpoint", "--loop", "beta"])).trim();
    writeFiles(root, { "x.txt": "y\n" });
    const b2 = (await ok(root, ["checkpoint", "--loop", "beta"])).trim();
    const loops = await okJson<{ loop: string; head: string; baseline: string | null; best: string | null; iterations: number; updated: string }[]>(root, ["loops"]);
    expect(loops.map((l) => l.loop).sort()).toEqual(["alpha", "beta"]);
    expect(loops.find((l) => l.loop === "alpha")).toMatchObject({ head: a, baseline: a, best: null, iterations: 0 });
    expect(loops.find((l) => l.loop === "beta")).toMatchObject({ head: b2, baseline: b1, best: null, iterations: 0 });
    const all = await okJson<LogEntry[]>(root, ["log", "--all"]);
    expect(all.map((e) => e.oid).sort()).toEqual([a, b1, b2].sort());
    expect(new Set(all.map((e) => e.loop))).toEqual(new Set(["alpha", "beta"]));
  });

  it("empty repository state: log and loops say so, --json gives []", async () => {
    const root = makeRepo(PROJECT);
    expect(await okJson<unknown[]>(root, ["loops"])).toEqual([]);
    expect(await okJson<unknown[]>(root, ["log"])).toEqual([]);
    expect(await okJson<unknown[]>(root, ["log", "--all"])).toEqual([]);
    expect(await ok(root, ["loops"])).toMatch(/no loops/);
  });
});

describe("diff", () => {
  it("diff @baseline --json lists a modified, an added and a deleted file", async () => {
    const root = makeRepo(PROJECT);
    const base = (await ok(root, ["checkpoint", "--loop", "d"])).trim();
    writeFiles(root, { "src/math.ts": "export const add = (a: number, b: number): number => a - -b;\n", "src/new.ts": "export {};\n" });
    rmSync(join(root, "sub/deep/notes.md"));
    const diff = await okJson<{ from: string; to: string; files: { path: string; status: string }[]; verdict: string; findings: unknown[] }>(root, ["diff", "@baseline", "--loop", "d"]);
    expect(diff.from).toBe(base);
    expect(diff.to).toBe("WORKTREE");
    expect(diff.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual(["A src/new.ts", "D sub/deep/notes.md", "M src/math.ts"]);
    expect(diff.verdict).toMatch(/^(PASS|WARN|BLOCK)$/);
    expect(Array.isArray(diff.findings)).toBe(true);
    const text = await ok(root, ["diff", "@baseline", "--loop", "d"]);
    expect(text).toMatch(/^M {2}src\/math\.ts$/m);
  });

  it("a WORKTREE comparison does not change what the next one, or the next checkpoint, sees", async () => {
    // Regression: after one `diff`, a modified tracked file beside a new untracked one was reported deleted,
    // and the following checkpoint stored a tree without it (seen between 5a5c82a and 23aee28).
    const root = makeRepo({ "src/math.ts": "v1\n", README: "r\n" });
    await ok(root, ["checkpoint", "--loop", "w"]);
    writeFiles(root, { "src/math.ts": "v2\n", "src/new.ts": "x\n" });
    const want = ["A src/new.ts", "M src/math.ts"];
    for (let i = 0; i < 3; i++) {
      const diff = await okJson<{ files: { path: string; status: string }[] }>(root, ["diff", "@baseline", "--loop", "w"]);
      expect(diff.files.map((f) => `${f.status} ${f.path}`).sort(), `diff ${i + 1}`).toEqual(want);
    }
    expect((await okJson<{ tests: unknown[] }>(root, ["tests"])).tests).toEqual([]);
    expect((await runRalphInProcess(root, ["check", "--loop", "w"])).status).toBe(0);
    const made = await okJson<CheckpointJson>(root, ["checkpoint", "--loop", "w"]);
    expect(made.tree).toBe(nativeWorkTree(root));
    expect((await okJson<{ files: unknown[] }>(root, ["diff", "@head", "--loop", "w"])).files).toEqual([]);
  });

  it("REV forms resolve to the same commits native git sees", async () => {
    const root = makeRepo(PROJECT);
    const c: string[] = [];
    for (let i = 0; i < 3; i++) {
      writeFiles(root, { "n.txt": `${i}\n` });
      c.push((await ok(root, ["checkpoint", "--loop", "r"])).trim());
    }
    const [c0, c1, c2] = c as [string, string, string];
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    const from = async (rev: string): Promise<string> => (await okJson<{ from: string }>(root, ["diff", rev, "--loop", "r"])).from;
    const cases: [string, string][] = [
      ["@head", c2],
      ["@head~1", c1],
      ["@head~2", c0],
      ["@head^", c1],
      ["@baseline", c0],
      [c1, c1],
      [c1.slice(0, 7), c1],
      [c1.toUpperCase(), c1],
      ["refs/ralph/r/head", c2],
      ["refs/ralph/r/head~2", c0],
      ["ralph/r/head^1", c1],
      ["HEAD", head],
      ["main", head],
    ];
    for (const [rev, want] of cases) expect(await from(rev), rev).toBe(want);
    // FROM and TO both commits.
    const both = await okJson<{ from: string; to: string; files: { path: string; status: string }[] }>(root, ["diff", "@baseline", "@head", "--loop", "r"]);
    expect(both).toMatchObject({ from: c0, to: c2, files: [{ path: "n.txt", status: "M" }] });
  });
});

describe("check, revert and tests", () => {
  async function deletedTestRepo(): Promise<{ root: string; base: string }> {
    const root = makeRepo(PROJECT);
    const base = (await ok(root, ["checkpoint", "--loop", "c"])).trim();
    writeFileSync(join(root, "test/math.test.ts"), MATH_TEST_WITHOUT_NEGATIVES);
    return { root, base };
  }

  it("the first check that parses writes @babel/parser's V8 code cache under .git/ralph/v8-cache; the next process uses it", async () => {
    const { root } = await deletedTestRepo();
    // Fresh processes are what this checks (a warm process loads the parser once and keeps it): in-process in both test modes.
    const debugEnv = { env: { RALPH_DEBUG: "1", RALPH_NO_DAEMON: "1" } };
    const first = runRalph(root, ["check", "--from", "@baseline", "--loop", "c"], debugEnv);
    expect(first.status, first.stderr).toBe(1);
    expect(first.stderr).toMatch(/code cache .*v8-cache\/babel-parser-[0-9a-f]{16}\.bin written/);
    expect(readdirSync(join(root, ".git", "ralph", "v8-cache"))).toEqual([expect.stringMatching(/^babel-parser-[0-9a-f]{16}\.bin$/)]);
    // The facts are cached now, so drop them: the next process must parse again, with the code cache.
    rmSync(join(root, ".git", "ralph", "facts"), { recursive: true, force: true });
    const second = runRalph(root, ["check", "--from", "@baseline", "--loop", "c"], debugEnv);
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toMatch(/code cache .*babel-parser-[0-9a-f]{16}\.bin used/);
    expect(second.stderr).not.toMatch(/code cache .* written/);
    expect(second.stdout).toBe(first.stdout);
  });

  it("check exits 1 when a test case is deleted, and 0 after revert @baseline restores it", async () => {
    const { root } = await deletedTestRepo();
    const blocked = await runRalphInProcess(root, ["check", "--from", "@baseline", "--loop", "c"]);
    expect(blocked.status, blocked.stderr).toBe(1);
    expect(blocked.stderr).toBe("");
    expect(blocked.stdout).toMatch(/^BLOCK/);
    expect(blocked.stdout).toContain("math > adds negatives");

    const json = await runRalphInProcess(root, ["check", "--from", "@baseline", "--loop", "c", "--json"]);
    expect(json.status).toBe(1);
    const judgement = parseJsonOutput<{
      verdict: string;
      from: string;
      to: string;
      findings: { type: string; severity: string; file: string; test: string; allowed: boolean }[];
      stats: Record<string, number>;
    }>(json);
    expect(judgement.verdict).toBe("BLOCK");
    expect(judgement.to).toBe("WORKTREE");
    expect(judgement.findings).toEqual([expect.objectContaining({ type: "test_deletion", severity: "critical", file: "test/math.test.ts", test: "math > adds negatives", allowed: false })]);
    expect(judgement.stats).toMatchObject({ tests_before: 2, tests_after: 1, files_changed: 1 });

    // With --loop named, the default --from is the loop's baseline.
    expect((await runRalphInProcess(root, ["check", "--loop", "c"])).status).toBe(1);

    const revert = await runRalphInProcess(root, ["revert", "@baseline", "--loop", "c"]);
    expect(revert.status, revert.stderr).toBe(0);
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST);
    const passed = await runRalphInProcess(root, ["check", "--from", "@baseline", "--loop", "c"]);
    expect(passed.status, passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/^PASS/);
    fsck(root);
  });

  it("check defaults: --from is the active loop's baseline, else HEAD; --to is the work tree", async () => {
    const { root, base } = await deletedTestRepo();
    // A loop exists: the default "from" is its baseline, so committing the deletion does not hide it.
    const before = await runRalphInProcess(root, ["check", "--json"]);
    expect(before.status, before.stderr).toBe(1);
    expect(parseJsonOutput<{ from: string; to: string }>(before)).toMatchObject({ from: base, to: "WORKTREE" });
    expect((await runRalphInProcess(root, ["check", "--fail-on", "warn"])).status).toBe(1);
    commitAll(root, "delete a test");
    expect((await runRalphInProcess(root, ["check"])).status).toBe(1);
    // Between two commits, too.
    expect((await runRalphInProcess(root, ["check", "--from", "@baseline", "--to", "HEAD", "--loop", "c"])).status).toBe(1);
    expect((await runRalphInProcess(root, ["check", "--from", "HEAD~1", "--to", "HEAD"])).status).toBe(1);
    // No loop at all: "from" is HEAD.
    const plain = makeRepo(PROJECT);
    writeFileSync(join(plain, "test/math.test.ts"), MATH_TEST_WITHOUT_NEGATIVES);
    const uncommitted = await runRalphInProcess(plain, ["check", "--json"]);
    expect(uncommitted.status, uncommitted.stderr).toBe(1);
    expect(parseJsonOutput<{ from: string }>(uncommitted).from).toBe(git(plain, ["rev-parse", "HEAD"]).trim());
    commitAll(plain, "delete a test");
    const clean = await runRalphInProcess(plain, ["check"]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^PASS/);
  });

  it("check --format github prints ::error annotations", async () => {
    const { root } = await deletedTestRepo();
    const r = await runRalphInProcess(root, ["check", "--from", "@baseline", "--loop", "c", "--format", "github"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("");
    const annotations = linesOf(r.stdout).filter((l) => l.startsWith("::"));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error file=test\/math\.test\.ts,line=\d+,title=[^:]*::.*adds negatives/);
  });

  it("revert --dry-run changes nothing (bytes, mtimes, refs) and prints what would change", async () => {
    const { root, base } = await deletedTestRepo();
    writeFiles(root, { "added.txt": "new\n", "debug.log": "ignored, never touched\n" });
    const files = fileStates(root);
    const refs = refsUnder(root);
    const user = userState(root);
    const text = await ok(root, ["revert", "@baseline", "--loop", "c", "--dry-run"]);
    expect(text).toMatch(/would write +test\/math\.test\.ts/);
    expect(text).toMatch(/would remove +added\.txt/);
    const json = await okJson<{ loop: string; target: { oid: string }; preRevert: string | null; dryRun: boolean; written: string[]; removed: string[] }>(root, [
      "revert",
      "@baseline",
      "--loop",
      "c",
      "--dry-run",
    ]);
    expect(json).toMatchObject({ loop: "c", target: { oid: base }, preRevert: null, dryRun: true, written: ["test/math.test.ts"], removed: ["added.txt"] });
    expect(fileStates(root)).toEqual(files);
    expect(refsUnder(root)).toBe(refs);
    expect(userState(root)).toEqual(user);
  });

  it("revert writes a pre-revert checkpoint, removes added files, keeps ignored ones, and can be undone", async () => {
    const { root, base } = await deletedTestRepo();
    writeFiles(root, { "added.txt": "new\n", "debug.log": "ignored\n", "build/out.js": "ignored too\n" });
    const agentTree = nativeWorkTree(root);
    const result = await okJson<{ preRevert: string; restored: string; written: string[]; removed: string[]; dryRun: boolean }>(root, ["revert", "@baseline", "--loop", "c"]);
    expect(result.dryRun).toBe(false);
    expect(result.preRevert).toMatch(OID);
    expect(treeOf(root, result.preRevert)).toBe(agentTree);
    expect(git(root, ["log", "-1", "--format=%(trailers:key=Ralph-Kind,valueonly)", result.preRevert]).trim()).toBe("pre-revert");
    // The restored work tree is the new head, on top of the pre-revert checkpoint.
    expect(git(root, ["rev-parse", "refs/ralph/c/head"]).trim()).toBe(result.restored);
    expect(git(root, ["rev-parse", "refs/ralph/c/head^"]).trim()).toBe(result.preRevert);
    expect(treeOf(root, result.restored)).toBe(treeOf(root, base));
    expect(result.removed).toEqual(["added.txt"]);
    expect(nativeWorkTree(root)).toBe(treeOf(root, base));
    expect(readFileSync(join(root, "debug.log"), "utf8")).toBe("ignored\n");
    expect(readFileSync(join(root, "build/out.js"), "utf8")).toBe("ignored too\n");
    // Undo.
    await ok(root, ["revert", result.preRevert, "--loop", "c"]);
    expect(nativeWorkTree(root)).toBe(agentTree);
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST_WITHOUT_NEGATIVES);
    fsck(root);
  });

  it("tests --json lists the test ids ralph sees, at WORKTREE and at a REV", async () => {
    const { root, base } = await deletedTestRepo();
    const now = await okJson<{ rev: string; tests: { id: string; file: string; line: number; flags: string[]; assertions: number }[] }>(root, ["tests"]);
    expect(now.rev).toBe("WORKTREE");
    expect(now.tests).toEqual([{ id: "math > adds", file: "test/math.test.ts", line: 5, flags: [], assertions: 1 }]);
    const then = await okJson<{ rev: string; tests: { id: string }[] }>(root, ["tests", "@baseline", "--loop", "c"]);
    expect(then.rev).toBe(base);
    expect(then.tests.map((t) => t.id)).toEqual(["math > adds", "math > adds negatives"]);
    const text = await ok(root, ["tests"]);
    expect(text).toContain("test/math.test.ts:5  math > adds");
  });

  it("tests reads facts from the facts cache a check filled, and fills it for the next run; the listing is the same either way", async () => {
    const { root } = await deletedTestRepo();
    const debugEnv = { env: { RALPH_DEBUG: "1" } };
    const first = await runRalphInProcess(root, ["tests", "--json"], debugEnv);
    expect(first.status, first.stderr).toBe(0);
    const counts = (stderr: string) => /tests: (\d+) files; facts cache (\d+) hits, (\d+) misses, (\d+) written/.exec(stderr)?.slice(1).map(Number);
    const [files, hits, misses, written] = counts(first.stderr) ?? [];
    expect(files).toBeGreaterThan(0);
    expect([hits, misses, written]).toEqual([0, files, files]);
    const second = await runRalphInProcess(root, ["tests", "--json"], debugEnv);
    expect(counts(second.stderr)).toEqual([files, files, 0, 0]);
    expect(second.stdout).toBe(first.stdout);
    // A check of the same files finds them cached too: one facts cache for both commands.
    const check = await runRalphInProcess(root, ["check", "--from", "@baseline", "--loop", "c"], debugEnv);
    expect(check.stderr).toMatch(/facts cache: [1-9]\d* hits/);
  });

  it("tests and check follow the runner's include/exclude config", async () => {
    const jest = (ignore: string[]): string => `${JSON.stringify({ name: "p", jest: { testPathIgnorePatterns: ignore } }, null, 2)}\n`;
    const root = makeRepo({
      ...PROJECT,
      "package.json": jest(["/node_modules/", "/fixtures/"]),
      "test/fixtures/sample.test.ts": `it("is input data", async () => { expect(1).toBe(2); });\n`,
      "test/slow/io.test.ts": `it("reads", async () => { expect(read()).toBe(1); });\nit("writes", () => { expect(write()).toBe(1); });\n`,
    });
    const listed = await okJson<{ tests: { id: string; file: string }[]; not_collected: { file: string; by: string }[] }>(root, ["tests"]);
    expect(listed.tests.map((t) => `${t.file} ${t.id}`)).toEqual([
      "test/math.test.ts math > adds",
      "test/math.test.ts math > adds negatives",
      "test/slow/io.test.ts reads",
      "test/slow/io.test.ts writes",
    ]);
    expect(listed.not_collected).toEqual([{ file: "test/fixtures/sample.test.ts", by: `jest testMatch (package.json "jest")` }]);

    await ok(root, ["checkpoint", "--loop", "d"]);
    writeFiles(root, { "package.json": jest(["/node_modules/", "/fixtures/", "/slow/"]) });
    const judged = await runRalphInProcess(root, ["check", "--from", "@baseline", "--loop", "d", "--json"]);
    expect(judged.status, judged.stderr).toBe(1);
    const findings = parseJsonOutput<{ findings: { type: string; file: string; evidence?: { tests?: string[] } }[] }>(judged).findings;
    expect(findings).toContainEqual(expect.objectContaining({ type: "test_disabled", file: "test/slow/io.test.ts", evidence: expect.objectContaining({ tests: ["reads", "writes"] }) }));
    expect(findings.map((f) => f.type).sort()).toEqual(["test_config_tamper", "test_disabled"]);
  });
});

describe("from a subdirectory", () => {
  it("checkpoint, log, diff, check, tests and revert act on the whole work tree", async () => {
    const root = makeRepo(PROJECT);
    const sub = join(root, "sub", "deep");
    const base = (await ok(sub, ["checkpoint", "--loop", "s"])).trim();
    expect(treeOf(root, base)).toBe(nativeWorkTree(root));
    writeFileSync(join(root, "test/math.test.ts"), MATH_TEST_WITHOUT_NEGATIVES);
    writeFiles(root, { "sub/deep/more.md": "more\n" });
    const second = await okJson<CheckpointJson>(sub, ["checkpoint", "--loop", "s"]);
    expect(second.changed).toBe(true);
    expect(git(root, ["diff-tree", "-r", "--name-only", base, second.oid]).trim().split("\n").sort()).toEqual(["sub/deep/more.md", "test/math.test.ts"]);
    expect((await okJson<LogEntry[]>(sub, ["log", "--loop", "s"])).map((e) => e.oid)).toEqual([second.oid, base]);
    const diff = await okJson<{ files: { path: string }[] }>(sub, ["diff", "@baseline", "--loop", "s"]);
    expect(diff.files.map((f) => f.path).sort()).toEqual(["sub/deep/more.md", "test/math.test.ts"]);
    expect((await runRalphInProcess(sub, ["check", "--loop", "s"])).status).toBe(1);
    expect((await okJson<{ tests: unknown[] }>(sub, ["tests"])).tests).toHaveLength(1);
    await ok(sub, ["revert", "@baseline", "--loop", "s"]);
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST);
    expect(lstatSync(join(root, "sub/deep/more.md"), { throwIfNoEntry: false })).toBeUndefined();
    expect((await runRalphInProcess(sub, ["check", "--loop", "s"])).status).toBe(0);
  });
});

describe("--json output is exactly one JSON value on stdout", () => {
  it("for every command that takes --json", async () => {
    const root = makeRepo(PROJECT);
    await ok(root, ["checkpoint", "--loop", "one"]);
    writeFiles(root, { "z.txt": "z\n" });
    const commands: string[][] = [
      ["checkpoint", "--loop", "one"],
      ["checkpoint", "--loop", "one"],
      ["log", "--loop", "one"],
      ["log", "--all"],
      ["loops"],
      ["diff", "@baseline", "--loop", "one"],
      ["check", "--loop", "one"],
      ["revert", "@baseline", "--loop", "one", "--dry-run"],
      ["tests"],
      ["revert", "@baseline", "--loop", "one"],
    ];
    for (const args of commands) {
      const r = await runRalphInProcess(root, [...args, "--json"]);
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(" ")).toBe("");
      const value = parseJsonOutput(r);
      expect(value, args.join(" ")).not.toBeNull();
      expect(typeof value).toBe("object");
    }
  });
});

describe("option values are used as typed", () => {
  it("a number-like --loop is used as written: --loop 007 writes refs/ralph/007", async () => {
    const root = makeRepo(PROJECT);
    const made = await okJson<CheckpointJson>(root, ["checkpoint", "--loop", "007"]);
    expect(made.loop).toBe("007");
    expect(refsUnder(root)).toContain("refs/ralph/007/head");
  });

  it("a number-like -m is used as written: -m 0x10 keeps its subject", async () => {
    const root = makeRepo(PROJECT);
    const made = await okJson<CheckpointJson>(root, ["checkpoint", "-m", "0x10"]);
    expect(git(root, ["log", "-1", "--format=%s", made.oid]).trim()).toBe("0x10");
  });

  it("a number-like --from names the ref given: tag 007", async () => {
    const root = makeRepo(PROJECT);
    git(root, ["tag", "007"]);
    writeFileSync(join(root, "test/math.test.ts"), MATH_TEST_WITHOUT_NEGATIVES);
    const r = await runRalphInProcess(root, ["check", "--from", "007"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
  });
});

describe("start-up time", () => {
  it("measures `ralph --version` against `node -e 0` (median of 10, interleaved)", async () => {
    const cli = cliPathForTests();
    const samples: Record<"bare" | "version" | "help", number[]> = { bare: [], version: [], help: [] };
    const runs: [keyof typeof samples, string[]][] = [
      ["bare", ["-e", "0"]],
      ["version", [cli, "--version"]],
      ["help", [cli, "--help"]],
    ];
    for (const [, args] of runs) spawnSync(process.execPath, args); // warm the file cache
    // Interleaved, so a burst of load on the machine hits all three alike.
    for (let i = 0; i < 10; i++) {
      for (const [name, args] of runs) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, args, { env: gitEnv, encoding: "utf8" });
        samples[name].push(performance.now() - t0);
        expect(r.status, r.stderr).toBe(0);
      }
    }
    const median = (xs: number[]): number => {
      const sorted = [...xs].sort((x, y) => x - y);
      return ((sorted[4] as number) + (sorted[5] as number)) / 2;
    };
    const bare = median(samples.bare);
    const version = median(samples.version);
    const help = median(samples.help);
    console.log(
      `start-up (median of 10): node -e 0 ${bare.toFixed(1)} ms; ralph --version ${version.toFixed(1)} ms (${(version - bare).toFixed(1)} more); ` +
        `ralph --help ${help.toFixed(1)} ms (${(help - bare).toFixed(1)} more)`,
    );
  });
});

describe("fixed bugs (their failing inputs first)", () => {
  it("ralph tests works in a repository with a package.json, Makefile or coverage summary", async () => {
    const root = makeRepo({
      ...PROJECT,
      "package.json": '{ "name": "p", "type": "module", "scripts": { "test": "vitest run" } }\n',
      Makefile: "test:\n\tnpx vitest run\n",
      "coverage/coverage-summary.json": '{ "total": { "lines": { "pct": 90 } } }\n',
    });
    for (const rev of [[], ["HEAD"]]) {
      const r = await runRalphInProcess(root, ["tests", ...rev, "--json"]);
      expect(r.status, r.stderr).toBe(0);
      expect(parseJsonOutput<{ tests: { id: string }[] }>(r).tests.map((t) => t.id)).toEqual(["math > adds", "math > adds negatives"]);
    }
  });
});

describe("conditional skips", () => {
  it("tests lists a conditional skip as conditional, with its condition, and an unconditional one as skipped", async () => {
    const root = makeRepo({
      "tests/test_paths.py":
        "import sys\nimport pytest\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_posix():\n    assert 1\n\n@pytest.mark.skip(reason='later')\ndef test_later():\n    assert 1\n",
    });
    const rows = (await okJson<{ tests: { id: string; flags: string[]; conditional_via?: string }[] }>(root, ["tests"])).tests;
    expect(rows.map((row) => [row.id, row.flags, row.conditional_via])).toEqual([
      ["test_posix", ["conditional"], "@pytest.mark.skipif"],
      ["test_later", ["skipped"], undefined],
    ]);
    expect(await ok(root, ["tests"])).toContain("test_posix  [conditional: @pytest.mark.skipif]");
  });
});

describe("python tests inherited across files", () => {
  const SIGNER = "class TestSigner:\n    def test_sign(self):\n        assert sign(b'x') == b'x.sig'\n\n    def test_unsign(self):\n        assert unsign(b'x.sig') == b'x'\n";
  const TIMED = "from tests.test_signer import TestSigner\n\n\nclass TestTimestampSigner(TestSigner):\n    def test_max_age(self):\n        assert unsign(b'x.sig', max_age=1) == b'x'\n";

  it("tests lists inherited tests where pytest collects them, naming where they are declared", async () => {
    const root = makeRepo({ "tests/test_signer.py": SIGNER, "tests/test_timed.py": TIMED });
    const rows = (await okJson<{ tests: { id: string; file: string; line: number; declared_in?: unknown }[] }>(root, ["tests"])).tests;
    expect(rows.filter((row) => row.file === "tests/test_timed.py")).toEqual([
      { id: "TestSigner > test_sign", file: "tests/test_timed.py", line: 1, flags: [], assertions: 1, declared_in: { file: "tests/test_signer.py", line: 2, class: "TestSigner" } },
      { id: "TestSigner > test_unsign", file: "tests/test_timed.py", line: 1, flags: [], assertions: 1, declared_in: { file: "tests/test_signer.py", line: 5, class: "TestSigner" } },
      { id: "TestTimestampSigner > test_sign", file: "tests/test_timed.py", line: 4, flags: [], assertions: 1, declared_in: { file: "tests/test_signer.py", line: 2, class: "TestSigner" } },
      { id: "TestTimestampSigner > test_unsign", file: "tests/test_timed.py", line: 4, flags: [], assertions: 1, declared_in: { file: "tests/test_signer.py", line: 5, class: "TestSigner" } },
      { id: "TestTimestampSigner > test_max_age", file: "tests/test_timed.py", line: 5, flags: [], assertions: 1 },
    ]);
    expect(await ok(root, ["tests"])).toContain("tests/test_timed.py:4  TestTimestampSigner > test_unsign  (declared at tests/test_signer.py:5)");
  });

  it("check reports a base's deleted test method once, with the unchanged subclass that also ran it", async () => {
    const root = makeRepo({ "tests/test_signer.py": SIGNER, "tests/test_timed.py": TIMED });
    writeFileSync(join(root, "tests/test_signer.py"), SIGNER.replace("\n    def test_unsign(self):\n        assert unsign(b'x.sig') == b'x'\n", ""));
    const result = await runRalphInProcess(root, ["check", "--format", "json"]);
    expect(result.status).toBe(1);
    const findings = parseJsonOutput<{ findings: { type: string; file: string; test?: string; evidence?: Record<string, unknown> }[] }>(result).findings;
    expect(findings).toMatchObject([
      {
        type: "test_deletion",
        file: "tests/test_signer.py",
        test: "TestSigner > test_unsign",
        evidence: { inherited_by: [{ file: "tests/test_timed.py", test: "TestTimestampSigner > test_unsign" }] },
      },
    ]);
  });
});
