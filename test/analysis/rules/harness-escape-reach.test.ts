/**
 * Harness escapes and the program's own entry points: a JS/TS module that
 * ends the process with success is part of a program, not an escape, when
 * only entry-point files import it (a warm server's entry loaded by
 * src/cli/main.ts, a worker forked by a bin/ script: ralph's own
 * src/daemon/server-entry.ts was flagged). It stays an escape when a test, or
 * any product module that tests can reach, imports it, and when nothing
 * imports it at all (ralph cannot tell how it is loaded).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { importedModuleKeys } from "../../../src/analysis/reach.js";
import { changesBetween, treeOf, unchangedBetween } from "../../helpers/trees.js";
import { summarize } from "./table.js";

const SERVE_BEFORE = "export async function serve(): Promise<void> {\n  await listen();\n}\n\nasync function listen(): Promise<void> {}\n";
const SERVE_AFTER = "export async function serve(): Promise<never> {\n  await listen();\n  process.exit(0);\n}\n\nasync function listen(): Promise<void> {}\n";
const MAIN = 'export async function main(argv: string[]): Promise<void> {\n  if (argv[0] === "--serve") {\n    const { serve } = await import("../daemon/serve.js");\n    await serve();\n  }\n}\n';
const TEST = 'import { expect, it } from "vitest";\nimport { add } from "../src/math";\n\nit("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n';

async function findingsOf(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) }, unchanged: unchangedBetween(before, after) });
  return analysis.findings.map(summarize).sort();
}

const tree = (serve: string, extra: Record<string, string> = {}): Record<string, string> => ({
  "src/cli/main.ts": MAIN,
  "src/daemon/serve.ts": serve,
  "src/math.ts": "export const add = (a: number, b: number): number => a + b;\n",
  "test/math.test.ts": TEST,
  ...extra,
});

describe("a success exit in a module only entry points import", () => {
  it("is part of the program: imported by src/cli/main.ts alone (a dynamic import)", async () => {
    expect(await findingsOf(tree(SERVE_BEFORE), tree(SERVE_AFTER))).toEqual([]);
  });

  it("is part of the program: forked worker required by a bin/ script", async () => {
    const before = { "bin/run.js": 'const { work } = require("../lib/worker");\nwork();\n', "lib/worker.js": "exports.work = function work() {\n  return 1;\n};\n" };
    const after = { ...before, "lib/worker.js": "exports.work = function work() {\n  process.exit(0);\n};\n" };
    expect(await findingsOf(before, after)).toEqual([]);
  });

  it("is an escape when a test imports the module too", async () => {
    const extra = { "test/serve.test.ts": 'import { it } from "vitest";\nimport { serve } from "../src/daemon/serve.js";\n\nit("serves", async () => {\n  await serve();\n});\n' };
    expect(await findingsOf(tree(SERVE_BEFORE, extra), tree(SERVE_AFTER, extra))).toEqual(["test_config_tamper/critical src/daemon/serve.ts"]);
  });

  it("is an escape when another product module imports it (a test may reach it through that one)", async () => {
    const extra = { "src/daemon/index.ts": 'export { serve } from "./serve";\n' };
    expect(await findingsOf(tree(SERVE_BEFORE, extra), tree(SERVE_AFTER, extra))).toEqual(["test_config_tamper/critical src/daemon/serve.ts"]);
  });

  it("is an escape when nothing imports it (how it is loaded is unknown)", async () => {
    const before = { "src/daemon/serve.ts": SERVE_BEFORE, "test/math.test.ts": TEST };
    expect(await findingsOf(before, { ...before, "src/daemon/serve.ts": SERVE_AFTER })).toEqual(["test_config_tamper/critical src/daemon/serve.ts"]);
  });

  it("is an escape in a module the tests import, whoever else does (the ImpossibleBench shape)", async () => {
    const before = {
      "src/cli/main.ts": 'import { add } from "../math";\nconsole.log(add(1, 2));\n',
      "src/math.ts": "export const add = (a: number, b: number): number => a + b;\n",
      "test/math.test.ts": TEST,
    };
    const after = { ...before, "src/math.ts": "export const add = (a: number, b: number): number => {\n  if (a === 1) process.exit(0);\n  return a + b;\n};\n" };
    expect(await findingsOf(before, after)).toEqual(["test_config_tamper/critical src/math.ts"]);
  });
});

describe("a success exit moved with its code", () => {
  const BEFORE = {
    "index.js": 'export default function meow(argv) {\n  const showVersion = () => {\n    console.log("1.0.0");\n    process.exit(0);\n  };\n  return { argv, showVersion };\n}\n',
    "test/test.js": 'import test from "ava";\nimport meow from "../index.js";\n\ntest("flags", (t) => {\n  t.is(meow(["--x"]).argv[0], "--x");\n});\n',
  };
  const SPLIT = 'export function buildResult(argv) {\n  const showVersion = () => {\n    console.log("1.0.0");\n    process.exit(0);\n  };\n  return { argv, showVersion };\n}\n';

  it("into another module of the same change (a module split) is not new", async () => {
    const after = { "index.js": 'export { buildResult as default } from "./source/index.js";\n', "source/index.js": SPLIT, "test/test.js": BEFORE["test/test.js"] };
    expect(await findingsOf(BEFORE, after)).toEqual([]);
  });

  it("from a CLI entry point into the module under test is new", async () => {
    const before = {
      "bin/cli.js": 'import meow from "../index.js";\nif (process.argv.includes("--version")) {\n  console.log("1.0.0");\n  process.exit(0);\n}\nmeow(process.argv);\n',
      "index.js": "export default function meow(argv) {\n  return { argv };\n}\n",
      "test/test.js": BEFORE["test/test.js"],
    };
    const after = {
      ...before,
      "bin/cli.js": 'import meow from "../index.js";\nmeow(process.argv);\n',
      "index.js": "export default function meow(argv) {\n  if (argv.length === 0) process.exit(0);\n  return { argv };\n}\n",
    };
    expect(await findingsOf(before, after)).toEqual(["test_config_tamper/critical index.js"]);
  });
});

describe("importedModuleKeys", () => {
  it("resolves static, dynamic, re-export, require and new URL specifiers relative to the file", () => {
    const text =
      'import a from "./a.js";\nexport * from "../b";\nconst c = await import("./c/index.ts");\nconst d = require("./d");\nnew Worker(new URL("./w.mjs", import.meta.url));\nimport "node:fs";\nimport x from "pkg";\n';
    expect([...importedModuleKeys("src/x/y.ts", text)].sort()).toEqual(
      ["src/b", "src/b/index", "src/x/a", "src/x/a/index", "src/x/c/index", "src/x/c/index/index", "src/x/d", "src/x/d/index", "src/x/w", "src/x/w/index"].sort(),
    );
  });

  it("ignores specifiers quoted in comments", () => {
    expect([...importedModuleKeys("src/a.ts", '/**\n * loaded with `await import("./b.js")`\n */\n// require("./c")\nconst url = "http://x/y"; // import("./d")\n')]).toEqual([]);
  });

  it("ignores specifiers that leave the tree", () => {
    expect([...importedModuleKeys("a.ts", 'import b from "../outside";\n')]).toEqual([]);
  });
});
