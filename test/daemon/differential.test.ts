/**
 * The warm process answers exactly what the in-process path answers (issue
 * 12, "Never required"): one scripted session (checkpoints, edits, the
 * Claude Code hooks with a denied test deletion and a judged write, check,
 * status, log, tests, diff, Stop) runs in two identical repositories, one
 * with RALPH_NO_DAEMON=1 and one through a warm process
 * (RALPH_DAEMON=require), and every step's exit code, stdout and stderr,
 * the loop refs and the checkpoint trees are compared. Oids are compared by
 * their order of appearance (commit times may differ), durations,
 * timestamps and the snapshot's work counters (files statted, hashed,
 * folders read: they depend on the racy-git window) are masked. Runs by default (part of the CI budget); run `npm
 * run build` first.
 */
import { readFileSync, writeFileSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runRalph, type RunResult } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "hooks");
const COLD: NodeJS.ProcessEnv = { RALPH_NO_DAEMON: "1", RALPH_DAEMON: undefined };
const WARM: NodeJS.ProcessEnv = { RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON: "require", RALPH_DAEMON_IDLE_MS: "20000" };

const MATH_TEST = [
  'import { expect, it } from "vitest";',
  'import { add } from "../src/math";',
  "",
  'it("adds", () => {',
  "  expect(add(1, 2)).toBe(3);",
  "});",
  "",
  'it("adds negatives", () => {',
  "  expect(add(-1, -2)).toBe(-3);",
  "});",
  "",
].join("\n");

function sampleRepo(): string {
  return makeRepo({
    "src/math.ts": "export const add = (a: number, b: number) => a + b;\n",
    "test/math.test.ts": MATH_TEST,
    "package.json": '{ "name": "sample", "scripts": { "test": "vitest run" } }\n',
  });
}

function fixture(name: string, root: string, patch: Record<string, unknown> = {}): string {
  const payload = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8").replaceAll("{{ROOT}}", root)) as Record<string, unknown>;
  return JSON.stringify({ ...payload, ...patch });
}

type Step = { name: string; act?: (root: string) => void; args: string[]; input?: (root: string) => string };

/** The scripted session: each step may change the work tree, then runs one ralph command line. */
const SESSION: Step[] = [
  { name: "baseline checkpoint", args: ["checkpoint", "-m", "baseline", "--json"] },
  { name: "no-op checkpoint", args: ["checkpoint"] },
  { name: "SessionStart", args: ["hook", "claude", "SessionStart"], input: (root) => fixture("session-start", root) },
  {
    name: "PreToolUse deleting a test (denied)",
    args: ["hook", "claude", "PreToolUse"],
    input: (root) =>
      fixture("pre-edit", root, {
        tool_input: { file_path: `${root}/test/math.test.ts`, old_string: 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n', new_string: "" },
      }),
  },
  { name: "PreToolUse honest edit", args: ["hook", "claude", "PreToolUse"], input: (root) => fixture("pre-edit", root) },
  {
    name: "PostToolUse after a Write",
    act: (root) => writeFileSync(join(root, "src/extra.ts"), "export const extra = 1;\n"),
    args: ["hook", "claude", "PostToolUse"],
    input: (root) => fixture("post-write", root),
  },
  {
    name: "checkpoint after an edit",
    act: (root) => writeFileSync(join(root, "src/math.ts"), "export const add = (a: number, b: number) => b + a;\n"),
    args: ["checkpoint", "-m", "edit", "--json"],
  },
  {
    name: "check a deleted test",
    act: (root) => writeFileSync(join(root, "test/math.test.ts"), MATH_TEST.split("\n").slice(0, 7).join("\n")),
    args: ["check", "--from", "HEAD", "--json"],
  },
  { name: "check text", args: ["check", "--from", "HEAD"] },
  { name: "status", args: ["status", "--json"] },
  { name: "log", args: ["log", "--all", "--json"] },
  { name: "loops", args: ["loops", "--json"] },
  { name: "tests", args: ["tests", "--json"] },
  { name: "diff", args: ["diff", "HEAD", "--json"] },
  { name: "a bad option", args: ["checkpoint", "--kind", "nonsense", "--json"] },
  { name: "PostToolUse after a Bash deleting a file", act: (root) => unlinkSync(join(root, "src/extra.ts")), args: ["hook", "claude", "PostToolUse"], input: (root) => fixture("post-bash", root) },
  { name: "Stop", args: ["hook", "claude", "Stop"], input: (root) => fixture("stop", root) },
  { name: "garbage payload", args: ["hook", "claude", "PreToolUse"], input: () => "{not json" },
  { name: "final checkpoint", args: ["checkpoint", "-m", "final", "--json"] },
];

/** Masks what legitimately differs between two runs: the root path, oids (numbered by first appearance), durations, times. */
function normalise(text: string, root: string, oids: Map<string, string>): string {
  return (
    text
      .replaceAll(root, "<ROOT>")
      .replace(/\b[0-9a-f]{40}\b/g, (oid) => {
        if (!oids.has(oid)) oids.set(oid, `<oid${oids.size}>`);
        return oids.get(oid) as string;
      })
      .replace(/\b[0-9a-f]{12}\b/g, (short) => {
        for (const [oid, name] of oids) if (oid.startsWith(short)) return `${name}:12`;
        // A short oid seen before its full form: numbered as a full one would be, so its later full form matches.
        const key = `short:${short}`;
        if (!oids.has(key)) oids.set(key, `<short${oids.size}>`);
        return oids.get(key) as string;
      })
      .replace(/"(\w*(?:duration|_ms|Ms|elapsed)\w*)": [\d.]+/g, '"$1": 0')
      // A snapshot's work counters depend on timing too: a file or folder changed within the racy window of the last scan
      // (src/store/stat-cache.ts RACY_WINDOW_MS) is read again, so two runs of the same step may read different numbers.
      .replace(/"(files_statted|files_hashed|dirs_read|filesStatted|filesHashed|dirsRead)": \d+/g, '"$1": 0')
      .replace(/\d+(?:\.\d+)? ?ms\b/g, "<n> ms")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>")
  );
}

interface Transcript {
  steps: { name: string; status: number | null; stdout: string; stderr: string }[];
  refs: string;
  trees: string[];
}

function runSession(env: NodeJS.ProcessEnv): Transcript {
  const root = sampleRepo();
  const oids = new Map<string, string>();
  const steps = SESSION.map((step) => {
    step.act?.(root);
    const result: RunResult = runRalph(root, step.args, { env, ...(step.input ? { input: step.input(root) } : {}) });
    return { name: step.name, status: result.status, stdout: normalise(result.stdout, root, oids), stderr: normalise(result.stderr, root, oids) };
  });
  const refs = normalise(git(root, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/ralph"]), root, oids);
  // Trees are content: equal across the two runs oid for oid, not only by position.
  const trees = git(root, ["for-each-ref", "--format=%(objectname)", "refs/ralph"])
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((oid) => git(root, ["rev-parse", `${oid}^{tree}`]).trim());
  if (env.RALPH_DAEMON === "require") runRalph(root, ["daemon", "stop"], { env });
  rmSync(root, { recursive: true, force: true });
  return { steps, refs, trees };
}

afterEach(() => undefined);

describe("in-process and warm answer the same", () => {
  it("a scripted session gives the same exit codes, output, refs and trees in both modes", () => {
    const cold = runSession(COLD);
    const warm = runSession(WARM);
    // The session did what it says (not two equally broken runs).
    const byName = (t: Transcript, name: string) => t.steps.find((s) => s.name === name)!;
    expect(byName(cold, "PreToolUse deleting a test (denied)").stdout).toContain('"deny"');
    expect(byName(cold, "check a deleted test").status).toBe(1);
    expect(byName(cold, "a bad option").status).toBe(2);
    expect(byName(cold, "no-op checkpoint").stdout).toBe("unchanged\n");
    for (let i = 0; i < SESSION.length; i++) expect(warm.steps[i], SESSION[i]!.name).toEqual(cold.steps[i]);
    expect(warm.refs).toBe(cold.refs);
    expect(warm.trees).toEqual(cold.trees);
  });
});
