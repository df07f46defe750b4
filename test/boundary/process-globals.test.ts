/**
 * The process boundary: nothing under src/ reads `process.env`, `process.argv`,
 * `process.cwd()` or the standard streams (`process.stdin`, `.stdout`,
 * `.stderr`) except the entry points that bind the real process to
 * `runCli` (src/cli/main.ts, and a warm process's src/daemon/*entry*.ts).
 * One process may serve many runs, each with its own environment, cwd and
 * streams (src/runtime-env.ts), so a read below the boundary would leak one
 * run's facts into another. Comments and strings that only name these
 * (the special-casing rule's docs) do not count: the files are parsed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "@babel/parser";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/cli.js";

const SRC = join(PROJECT_ROOT, "src");
const GLOBALS = new Set(["env", "cwd", "argv", "stdin", "stdout", "stderr"]);

/** True for the entry files allowed to read the real process. */
function isEntry(path: string): boolean {
  return path === "src/cli/main.ts" || /^src\/daemon\/[^/]*entry[^/]*\.ts$/.test(path);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

type AstNode = { type: string; loc?: { start: { line: number } } | null; [key: string]: unknown };

const isProcess = (node: unknown): boolean => {
  const n = node as AstNode | null;
  if (!n) return false;
  if (n.type === "Identifier" && n.name === "process") return true;
  // globalThis.process
  return n.type === "MemberExpression" && (n.object as AstNode).type === "Identifier" && (n.object as AstNode).name === "globalThis" && isNamed(n, "process");
};

function isNamed(member: AstNode, names: string | Set<string>): boolean {
  const property = member.property as AstNode;
  const name = !member.computed && property.type === "Identifier" ? (property.name as string) : property.type === "StringLiteral" ? (property.value as string) : null;
  return name !== null && (typeof names === "string" ? name === names : names.has(name));
}

/** `line: code` of every read of a process global in `text` (TypeScript or JavaScript source). */
export function processGlobalReads(text: string, fileName: string): string[] {
  const ast = parse(text, { sourceType: "module", plugins: ["typescript"], sourceFilename: fileName });
  const found: string[] = [];
  const lines = text.split("\n");
  const report = (node: AstNode): void => {
    const line = node.loc?.start.line ?? 0;
    found.push(`${line}: ${(lines[line - 1] ?? "").trim()}`);
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!node || typeof node !== "object" || typeof (node as AstNode).type !== "string") return;
    const n = node as AstNode;
    if ((n.type === "MemberExpression" || n.type === "OptionalMemberExpression") && isProcess(n.object) && isNamed(n, GLOBALS)) report(n);
    // const { env } = process;
    if (n.type === "VariableDeclarator" && isProcess(n.init) && (n.id as AstNode).type === "ObjectPattern") report(n);
    for (const [key, value] of Object.entries(n)) {
      if (key === "loc" || key === "start" || key === "end" || key === "leadingComments" || key === "trailingComments" || key === "innerComments") continue;
      if (value && typeof value === "object") visit(value);
    }
  };
  visit(ast.program);
  return found;
}

describe("the process boundary", () => {
  it("finds the reads it looks for, and not their names in comments or strings", () => {
    const code = [
      "/** checks `process.env.VITEST` */",
      'const a = "process.env.HOME";',
      "const b = process.env.HOME;",
      "const c = process.cwd();",
      'const d = process["stderr"];',
      "const { env } = process;",
      "const e = globalThis.process.stdout;",
      "const f = process.pid;",
    ].join("\n");
    expect(processGlobalReads(code, "x.ts")).toEqual([
      "3: const b = process.env.HOME;",
      "4: const c = process.cwd();",
      '5: const d = process["stderr"];',
      "6: const { env } = process;",
      "7: const e = globalThis.process.stdout;",
    ]);
  });

  it("nothing under src/ reads process.env, process.cwd(), process.argv or the standard streams outside the entry points", () => {
    const offenders: string[] = [];
    let entries = 0;
    for (const file of sourceFiles(SRC)) {
      const path = relative(PROJECT_ROOT, file).split("\\").join("/");
      if (isEntry(path)) {
        entries++;
        continue;
      }
      for (const read of processGlobalReads(readFileSync(file, "utf8"), path)) offenders.push(`${path}:${read}`);
    }
    expect(entries, "src/cli/main.ts binds the real process").toBeGreaterThanOrEqual(1);
    expect(offenders, "take env, cwd, argv and streams from the caller (CommandContext, HookIo, RuntimeEnv: src/runtime-env.ts)").toEqual([]);
  });
});
