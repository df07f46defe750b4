import { describe, expect, it } from "vitest";
import { buildCli, protectStringValues } from "../../src/cli/program.js";
import * as z from "zod/mini";
import { isRalphError } from "../../src/errors.js";
import { normalizeOptions, parseOptions, positiveIntOption, stringOption } from "../../src/cli/options.js";

/** What the real cac program gives for `ralph <command> …argv`. */
function cacOptions(argv: string[], command = "log"): Record<string, unknown> {
  const { help: _h, version: _v, ...options } = buildCli("test").parse(["node", "ralph", command, ...protectStringValues(argv)], { run: false }).options as Record<string, unknown>;
  return options;
}

const Schema = z.strictObject({
  message: z.optional(stringOption),
  m: z.optional(stringOption),
  loop: z.optional(stringOption),
  dryRun: z.optional(z.boolean()),
  all: z.optional(z.boolean()),
  limit: z.optional(positiveIntOption),
  n: z.optional(positiveIntOption),
});

describe("argv -> options", () => {
  const table: [argv: string[], expected: Record<string, unknown>][] = [
    [[], {}],
    [["--loop", "123"], { loop: "123" }], // cac turns number-like strings into numbers
    [["--loop", "a", "--loop", "b"], { loop: "b" }], // repeated flags become arrays: last wins
    [["--all"], { all: true }],
    [["-n", "5"], { n: 5, limit: 5 }],
    [["--limit", "5", "--loop", "0012"], { n: 5, limit: 5, loop: "0012" }],
  ];
  for (const [argv, expected] of table) {
    it(`log ${JSON.stringify(argv)}`, () => {
      expect(parseOptions(Schema, cacOptions(argv), "log")).toEqual(expected);
    });
  }
  const checkpointTable: [argv: string[], expected: Record<string, unknown>][] = [
    [["-m", "hello world"], { m: "hello world", message: "hello world" }],
    [["--message", "007"], { m: "007", message: "007" }],
    [["--loop", "1e3"], { loop: "1e3" }],
    [["--loop=0x10", "-m", "  spaced  "], { loop: "0x10", m: "  spaced  ", message: "  spaced  " }],
  ];
  const CheckpointSchema = z.strictObject({ message: z.optional(stringOption), m: z.optional(stringOption), loop: z.optional(stringOption) });
  for (const [argv, expected] of checkpointTable) {
    it(`checkpoint ${JSON.stringify(argv)}`, () => {
      expect(parseOptions(CheckpointSchema, cacOptions(argv, "checkpoint"), "checkpoint")).toEqual(expected);
    });
  }
  it("gc, install --git-hooks, push: the new flags as the commands read them", () => {
    expect(normalizeOptions(cacOptions(["--older-than", "30d", "--dry-run", "--all"], "gc"))).toEqual({ olderThan: "30d", dryRun: true, all: true });
    expect(normalizeOptions(cacOptions(["--older-than", "0012"], "gc"))).toEqual({ olderThan: "0012" });
    expect(normalizeOptions(cacOptions(["--git-hooks", "--manager", "lefthook", "--global", "--local"], "install"))).toEqual({ gitHooks: true, manager: "lefthook", global: true, local: true });
    expect(normalizeOptions(cacOptions(["--force", "--prune"], "push"))).toEqual({ force: true, prune: true });
    expect(normalizeOptions(cacOptions(["--codex", "--gemini", "--cursor"], "install"))).toEqual({ codex: true, gemini: true, cursor: true });
    expect(normalizeOptions(cacOptions(["--cursor"], "uninstall"))).toEqual({ cursor: true });
  });

  it("keeps positional arguments as text", () => {
    const parsed = buildCli("test").parse(["node", "ralph", "revert", ...protectStringValues(["0012345"])], { run: false });
    expect(parsed.args).toEqual(["0012345"]);
  });

  it("revert --dry-run collapses kebab and camel keys", () => {
    expect(cacOptions(["--dry-run"], "revert")).toMatchObject({ dryRun: true });
    expect(normalizeOptions(cacOptions(["--dry-run"], "revert"))).toEqual({ dryRun: true });
  });

  it("drops cac's '--' key and kebab-case duplicates", () => {
    expect(normalizeOptions({ "--": [], "dry-run": true, dryRun: true, loop: ["x", "y"] })).toEqual({ dryRun: true, loop: "y" });
  });

  const bad: [argv: string[], messagePart: string][] = [
    [["--bogus"], "unknown option --bogus"],
    [["--limit", "0"], "--limit"],
    [["--limit", "abc"], "--limit"],
    [["--loop"], "--loop"], // a value-taking flag without a value
    [["--bogus", "--all"], "unknown option --bogus"],
  ];
  for (const [argv, part] of bad) {
    it(`rejects ${JSON.stringify(argv)} as E_USAGE`, () => {
      let error: unknown;
      try {
        parseOptions(Schema, cacOptions(argv), "log");
      } catch (e) {
        error = e;
      }
      expect(isRalphError(error, "E_USAGE")).toBe(true);
      expect((error as Error).message).toContain(part);
    });
  }
});
