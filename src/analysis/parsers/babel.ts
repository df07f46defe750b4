/**
 * @babel/parser behind a lazy door: the parser module (about 2 MB of
 * JavaScript) is imported the first time a file is parsed, never at start-up,
 * because every hook call is a fresh node process (DESIGN.md budgets).
 *
 * Plugins follow the file's extension. `.ts/.mts/.cts` get `typescript`
 * without `jsx`, since JSX would break `<T>x` type assertions; `.tsx` gets
 * both; JavaScript gets `jsx` (Flow stays off unless the first parse fails).
 * `errorRecovery` is always on, so a file with a recoverable mistake still
 * yields an AST; a file that cannot be parsed under any plugin set returns
 * the first attempt's message, never throws.
 */

import type { ParserOptions, ParserPlugin } from "@babel/parser";
import type { File } from "@babel/types";
import { createRequire } from "node:module";
import { debug } from "../../log.js";
import { type CachedModule, loadWithCodeCache } from "./code-cache.js";

/** Which syntax family a path is parsed as. */
export type BabelDialect = "ts" | "tsx" | "js";

/** The outcome of {@link parseWithBabel}: an AST, or the parser's one-line error. */
export type BabelParseResult = { ok: true; ast: File; recoveredErrorCount: number } | { ok: false; error: string };

type BabelParserModule = typeof import("@babel/parser");

let parserModule: CachedModule<BabelParserModule> | undefined;

/**
 * Loads @babel/parser once per process, through the V8 code cache
 * (./code-cache.ts) when the package's self-contained CommonJS build is
 * where it should be, else by a plain import.
 */
async function loadBabelParser(): Promise<BabelParserModule> {
  if (parserModule) return parserModule.exports;
  let file: string | null;
  try {
    file = createRequire(import.meta.url).resolve("@babel/parser");
  } catch {
    file = null;
  }
  if (file !== null && file.endsWith(".js")) {
    parserModule = loadWithCodeCache<BabelParserModule>(file, "babel-parser");
  } else {
    const mod = (await import("@babel/parser")) as BabelParserModule & { default?: BabelParserModule };
    // A CommonJS package: the named export exists when Node's CJS lexer finds it; `default` always does.
    const exports = typeof mod.parse === "function" ? mod : (mod.default as BabelParserModule);
    parserModule = { exports, fromCache: false, save: () => {} };
  }
  return parserModule.exports;
}

/** Writes the parser's code cache when this process made one worth keeping (it parsed, and found no usable cache). Never throws. */
export function saveParserCodeCache(): void {
  parserModule?.save();
}

/** Plugins every dialect gets: stage-3/finished proposals that real code already uses. */
const COMMON_PLUGINS: ParserPlugin[] = [
  "decoratorAutoAccessors",
  "explicitResourceManagement",
  "importAttributes",
  "deprecatedImportAssert",
  "exportDefaultFrom",
  "sourcePhaseImports",
  "deferredImportEvaluation",
];

/** The dialect of a path by extension, or null when Babel is not the parser for it. */
export function dialectOf(path: string): BabelDialect | null {
  const match = /\.([cm]?[jt]sx?)$/i.exec(path);
  if (!match) return null;
  const ext = (match[1] as string).toLowerCase();
  if (ext === "tsx") return "tsx";
  if (ext === "ts" || ext === "mts" || ext === "cts") return "ts";
  if (ext === "js" || ext === "jsx" || ext === "mjs" || ext === "cjs") return "js";
  return null; // .ctsx and friends do not exist
}

/**
 * The plugin sets to try for a dialect, in order. The first is what the
 * file almost always needs; the second covers the other decorator proposal
 * (TypeScript) or Flow-typed JavaScript.
 */
export function pluginAttemptsFor(dialect: BabelDialect, isDeclarationFile: boolean): ParserPlugin[][] {
  const typescript: ParserPlugin = ["typescript", { dts: isDeclarationFile }];
  switch (dialect) {
    case "ts":
      return [
        [typescript, "decorators-legacy", ...COMMON_PLUGINS],
        [typescript, ["decorators", { allowCallParenthesized: true }], ...COMMON_PLUGINS],
      ];
    case "tsx":
      return [
        [typescript, "jsx", "decorators-legacy", ...COMMON_PLUGINS],
        [typescript, "jsx", ["decorators", { allowCallParenthesized: true }], ...COMMON_PLUGINS],
      ];
    case "js":
      return [
        ["jsx", ["decorators", { allowCallParenthesized: true }], ...COMMON_PLUGINS],
        ["jsx", ["flow", { all: false }], "decorators-legacy", ...COMMON_PLUGINS],
      ];
  }
}

/** Parser options shared by every attempt; `plugins` and `sourceType` are filled per file. */
function optionsFor(path: string, plugins: ParserPlugin[]): ParserOptions {
  const isModuleOnly = /\.m[jt]s$/i.test(path);
  return {
    sourceType: isModuleOnly ? "module" : "unambiguous",
    errorRecovery: true,
    allowAwaitOutsideFunction: true,
    allowReturnOutsideFunction: true,
    allowImportExportEverywhere: true,
    allowUndeclaredExports: true,
    allowSuperOutsideMethod: true,
    allowNewTargetOutsideFunction: true,
    attachComment: false, // only `ast.comments` is read; attaching them to nodes costs time
    plugins,
  };
}

/** First line of an error message, or its string form. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? text;
}

/**
 * Parses a JS/TS file. Returns the AST and how many syntax errors Babel
 * recovered from, or `{ ok: false, error }` when every plugin set failed
 * (the error is the first attempt's, e.g. "Unexpected token (3:4)").
 * Never throws for bad input; throws only if @babel/parser cannot be loaded.
 */
export async function parseWithBabel(path: string, content: string): Promise<BabelParseResult> {
  const dialect = dialectOf(path);
  if (dialect === null) return { ok: false, error: `not a JavaScript or TypeScript file: ${path}` };
  const babel = await loadBabelParser();
  const isDeclarationFile = /\.d\.[cm]?ts$/i.test(path);
  let firstError: string | undefined;
  for (const plugins of pluginAttemptsFor(dialect, isDeclarationFile)) {
    try {
      const ast = babel.parse(content, optionsFor(path, plugins));
      return { ok: true, ast, recoveredErrorCount: ast.errors?.length ?? 0 };
    } catch (error) {
      firstError ??= oneLine(error);
      debug(() => `babel: ${path}: ${oneLine(error)}`);
    }
  }
  return { ok: false, error: firstError ?? "unknown parse error" };
}
