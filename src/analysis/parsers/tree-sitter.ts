/**
 * web-tree-sitter behind a lazy door, plus the small generic pieces every
 * tree-sitter language module shares: pinned grammar loading, query files,
 * normalised body hashes, literal lists, and assembling test drafts into
 * {@link FileFacts}.
 *
 * Nothing here runs at import time. web-tree-sitter (its runtime wasm) is
 * imported the first time a file of a tree-sitter language is extracted, and
 * each grammar the first time one of its files is; a hook call that changes
 * only TypeScript files never pays for any of it (DESIGN.md budgets).
 *
 * Grammars are pinned (STYLE.md §7): `grammars/manifest.json` records each
 * wasm file's source package, version, ABI and sha256; the bytes are checked
 * against it before loading, and a mismatch fails with a RalphError that
 * names the fix instead of an obscure failure inside `setLanguage`.
 *
 * V8 compiles wasm in two tiers: Liftoff at once, then TurboFan on background
 * threads. A short-lived process waits at exit for those background
 * compilations (120-170 ms for a grammar). `--liftoff-only` skips TurboFan:
 * see {@link isLiftoffOnly} for the measurement behind the choice.
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { Language, Node, Parser, Query, Tree, TreeCursor } from "web-tree-sitter";
import { RalphError } from "../../errors.js";
import { isCollectionLiteral, isHandedOn, mutationOf } from "./filled-in-place.js";
import { assertionHelpersOf, functionRanges, helperCallFacts, inheritHelperChecks, localClosureHelpers, NAMED_FUNCTION_TYPES, testScopeFunctions } from "./tree-sitter-helpers.js";
import {
  calledNamesIn,
  callsOutsideChecks,
  unconditionalRunsOf,
  callStartsOutsideChecks,
  checkNamesOf,
  declaredNames,
  enumMemberNames,
  fileConstants,
  isTautologyThroughLocals,
  productLiterals,
  testBindings,
  versionFlagsOf,
  writtenPlaces,
  type ScopeBindings,
} from "./tree-sitter-subjects.js";
import { isConstantTautology } from "../checks/constants.js";
import { withModuleFlags } from "./module-flags.js";
import { relationOfMatcher } from "../checks/relations.js";
import { currentRun, debug } from "../../log.js";
import {
  allOwnCalls,
  branchConditionsWithin,
  callsIn,
  conditionWithin,
  enclosingFunction,
  FUNCTION_TYPES,
  isConditionalWithin,
  isSame,
  switchArmConditions,
  type SkipProviderKind,
} from "./skip-reach.js";
import { canonicalText, decodeUnicodeEscapes, negatedCondition, splitArguments, splitCall } from "../checks/normalise.js";
import {
  directCallTexts,
  hashText,
  type AssertionFact,
  type ClassFact,
  type CodeFacts,
  type FileFacts,
  type HelperTestFact,
  type ImportFact,
  type ImportedHelperCall,
  type MarkFact,
  type NonTestFunctionFact,
  type RunEscapeFact,
  type SkipProviderFact,
  type TestCase,
  type TestDefinerFact,
  type TestFlag,
  type TestFlags,
  noFlags,
  TEST_FLAG_ORDER,
} from "../facts.js";

export type { Node } from "web-tree-sitter";

/**
 * True when wasm is to be compiled by Liftoff only (V8's baseline compiler, no
 * background TurboFan tier-up). Measured with `node scripts/grammars.mjs
 * --bench` (fresh processes, medians; `node -e 0` was 80 ms on a quiet run):
 * loading one grammar and parsing one small file, then exiting, took
 * 183-369 ms with tier-up and 117-180 ms Liftoff-only (python 200 -> 125,
 * ruby 369 -> 126, csharp 253 -> 180): with tier-up the process waits at
 * exit for TurboFan jobs it never benefits from. A real `ralph check` on a
 * Ruby change fell from ~590 ms to ~310 ms. Liftoff code parses 1.3-2.3x
 * slower once warm (python 4.6 -> 2.7 MB/s), which costs a few ms on the
 * 1-20 files of a hook call but matters for whole-repository runs, so
 * `RALPH_WASM_TIERUP=1` keeps V8's default (scripts/count-agreement.mjs
 * sets it). The flag is set at run time with v8.setFlagsFromString before
 * the first wasm compile, because the CLI's shebang cannot pass node flags.
 * The flag is process-wide and cannot be unset, so the run that loads the
 * runtime first decides (src/log.ts `currentRun`, src/runtime-env.ts
 * `wasmTierUp`); outside any run, Liftoff only.
 */
export function isLiftoffOnly(): boolean {
  return currentRun()?.wasmTierUp !== true;
}

/** One grammar's pin in grammars/manifest.json. */
export interface GrammarPin {
  package: string;
  version: string;
  /** Path of the wasm file relative to the grammars directory. */
  file: string;
  /** The grammar's name inside the source package. */
  grammar: string;
  /** Tree-sitter language ABI the grammar was generated for. */
  abi: number;
  sha256: string;
}

/** A loaded grammar: the language, its query files (compiled), and one parser. */
export interface LoadedGrammar {
  id: string;
  language: Language;
  parser: Parser;
  queries: ReadonlyMap<string, Query>;
}

type WebTreeSitter = typeof import("web-tree-sitter");

let runtime: Promise<WebTreeSitter> | undefined;
const grammars = new Map<string, Promise<LoadedGrammar>>();

/**
 * The directory holding grammars/manifest.json: the first `grammars/` found
 * walking up from this module (src/analysis/parsers in development, dist/ or
 * dist/chunks in the build, which copies grammars into dist/grammars).
 */
export function findGrammarsDir(startDir: string = dirname(fileURLToPath(import.meta.url))): string | null {
  let dir = startDir;
  for (;;) {
    const candidate = join(dir, "grammars");
    if (existsSync(join(candidate, "manifest.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const FIX_HINT = "run `npm run build` (or `node scripts/grammars.mjs`) to copy and verify the pinned grammars";

/**
 * Checks a grammar's bytes against its pin.
 * @throws RalphError E_CORRUPT naming the fix when the sha256 differs.
 */
export function verifyGrammarBytes(id: string, pin: GrammarPin, bytes: Uint8Array): void {
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== pin.sha256) {
    throw new RalphError(
      "E_CORRUPT",
      `grammar ${pin.file} does not match grammars/manifest.json (sha256 ${actual.slice(0, 12)}…, pinned ${pin.sha256.slice(0, 12)}… from ${pin.package}@${pin.version}); ${FIX_HINT}`,
      { data: { language: id, file: pin.file, sha256: actual, pinned: pin.sha256 } },
    );
  }
}

/**
 * Checks that the runtime can load a grammar of this ABI and that the loaded
 * grammar reports the pinned ABI.
 * @throws RalphError E_CORRUPT naming the fix otherwise.
 */
export function verifyGrammarAbi(id: string, pin: GrammarPin, abi: number, range: { min: number; max: number }): void {
  if (abi !== pin.abi || abi < range.min || abi > range.max) {
    throw new RalphError("E_CORRUPT", `grammar ${pin.file} has ABI ${abi}, pinned ${pin.abi}; this web-tree-sitter loads ABI ${range.min}-${range.max}; ${FIX_HINT}`, {
      data: { language: id, file: pin.file, abi, pinned: pin.abi, ...range },
    });
  }
}

/**
 * Imports web-tree-sitter once per process and initialises its runtime
 * wasm. A failed attempt (the package or its wasm missing from a broken
 * install) is not kept: the next call tries again, so a long-lived daemon
 * recovers once `npm ci` has mended the install.
 */
function loadRuntime(): Promise<WebTreeSitter> {
  if (runtime) return runtime;
  const loading = (async () => {
    if (isLiftoffOnly()) setFlagsFromString("--liftoff-only");
    const mod = await import("web-tree-sitter");
    // The runtime wasm sits beside web-tree-sitter's own entry; bundling moves the JS, not the wasm.
    const wasmPath = createRequire(import.meta.url).resolve("web-tree-sitter/tree-sitter.wasm");
    await mod.Parser.init({ locateFile: () => wasmPath });
    return mod;
  })();
  runtime = loading;
  loading.catch(() => {
    if (runtime === loading) runtime = undefined;
  });
  return loading;
}

function readManifest(grammarsDir: string): Record<string, GrammarPin> {
  try {
    return JSON.parse(readFileSync(join(grammarsDir, "manifest.json"), "utf8")) as Record<string, GrammarPin>;
  } catch (error) {
    throw new RalphError("E_CORRUPT", `cannot read ${join(grammarsDir, "manifest.json")}; ${FIX_HINT}`, { cause: error });
  }
}

/**
 * Loads (once per process) the pinned grammar of a language and compiles its
 * query files `grammars/<id>/<name>.scm`.
 * @throws RalphError E_CORRUPT naming the fix when the grammar is missing, differs from its pin, or has the wrong ABI.
 */
export function loadGrammar(id: string, queryNames: readonly string[], grammarsDir?: string): Promise<LoadedGrammar> {
  const key = `${grammarsDir ?? ""}\u0000${id}`;
  let loaded = grammars.get(key);
  if (!loaded) {
    loaded = loadGrammarUncached(id, queryNames, grammarsDir);
    grammars.set(key, loaded);
    loaded.catch(() => grammars.delete(key));
  }
  return loaded;
}

async function loadGrammarUncached(id: string, queryNames: readonly string[], grammarsDir?: string): Promise<LoadedGrammar> {
  const startedAt = performance.now();
  const dir = grammarsDir ?? findGrammarsDir();
  if (dir === null) throw new RalphError("E_CORRUPT", `no grammars/manifest.json found for ${id}; ${FIX_HINT}`, { data: { language: id } });
  const pin = readManifest(dir)[id];
  if (!pin) throw new RalphError("E_CORRUPT", `grammars/manifest.json has no grammar for ${id}; ${FIX_HINT}`, { data: { language: id } });
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(join(dir, pin.file));
  } catch (error) {
    throw new RalphError("E_CORRUPT", `grammar ${pin.file} is missing; ${FIX_HINT}`, { data: { language: id, file: pin.file }, cause: error });
  }
  verifyGrammarBytes(id, pin, bytes);
  const ts = await loadRuntime();
  const language = await ts.Language.load(bytes);
  verifyGrammarAbi(id, pin, language.abiVersion, { min: ts.MIN_COMPATIBLE_VERSION, max: ts.LANGUAGE_VERSION });
  const parser = new ts.Parser();
  parser.setLanguage(language);
  const queries = new Map<string, Query>();
  for (const name of queryNames) {
    const file = join(dir, id, `${name}.scm`);
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch (error) {
      throw new RalphError("E_CORRUPT", `query file grammars/${id}/${name}.scm is missing; ${FIX_HINT}`, { data: { language: id }, cause: error });
    }
    queries.set(name, new ts.Query(language, source));
  }
  debug(() => `tree-sitter: loaded ${id} grammar in ${(performance.now() - startedAt).toFixed(1)} ms`);
  return { id, language, parser, queries };
}

/** The outcome of {@link parseWithTreeSitter}: a tree (call `delete()` when done), or a one-line error. */
export type TreeSitterParseResult = { ok: true; tree: Tree; recoveredErrorCount: number } | { ok: false; error: string };

/**
 * Parses text with a loaded grammar. Tree-sitter always yields a tree; syntax
 * errors become ERROR/MISSING nodes, counted in `recoveredErrorCount`. A file
 * whose top level is mostly error is reported as unparsable.
 */
export function parseWithTreeSitter(grammar: LoadedGrammar, content: string): TreeSitterParseResult {
  let tree: Tree | null;
  try {
    tree = grammar.parser.parse(content);
  } catch (error) {
    grammar.parser.reset();
    return { ok: false, error: error instanceof Error ? (error.message.split("\n")[0] ?? "parse failed") : String(error) };
  }
  if (!tree) return { ok: false, error: "parse failed" };
  const root = tree.rootNode;
  if (!root.hasError) return { ok: true, tree, recoveredErrorCount: 0 };
  let errors = 0;
  let errorChars = 0;
  let firstError: Node | null = null;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.isError || node.isMissing) {
      errors++;
      errorChars += node.text.replace(/\s+/g, "").length;
      if (!firstError || node.startIndex < firstError.startIndex) firstError = node;
      continue;
    }
    if (node.hasError) for (const child of node.children) if (child) stack.push(child);
  }
  // Mostly ERROR (or one ERROR node at the top): the grammar understood too little to trust
  // "no tests here"; a mid-edit mistake in an otherwise valid file keeps its facts.
  const meaningfulChars = content.replace(/\s+/g, "").length;
  const isWhollyBroken = meaningfulChars > 0 && ((root.namedChildCount === 1 && root.namedChild(0)?.isError === true) || errorChars * 2 > meaningfulChars);
  if (isWhollyBroken) {
    tree.delete();
    const at = firstError ? ` (${firstError.startPosition.row + 1}:${firstError.startPosition.column + 1})` : "";
    return { ok: false, error: `syntax error${at}` };
  }
  return { ok: true, tree, recoveredErrorCount: errors };
}

/** One query match as a map from capture name to the first node captured under it. */
export type Captures = Map<string, Node>;

/** Runs a compiled query file on a node; each match as capture name -> node (first capture per name). */
export function queryCaptures(grammar: LoadedGrammar, queryName: string, node: Node): Captures[] {
  const query = grammar.queries.get(queryName);
  if (!query) throw new RalphError("E_INTERNAL", `query ${queryName} of ${grammar.id} was not loaded`);
  return query.matches(node).map((match) => {
    const captures: Captures = new Map();
    for (const capture of match.captures) if (!captures.has(capture.name)) captures.set(capture.name, capture.node);
    return captures;
  });
}

/** Node types that are comments in the supported grammars. */
const COMMENT_TYPES: ReadonlySet<string> = new Set(["comment", "line_comment", "block_comment", "doc_comment"]);

/** True when a node is a comment. */
export function isComment(node: Node): boolean {
  return COMMENT_TYPES.has(node.type);
}

/** Nodes whose text is one token although the grammar splits it (string pieces, PHP's `$` + name). */
const ATOMIC_TYPES: ReadonlySet<string> = new Set(["string", "interpreted_string_literal", "raw_string_literal", "string_literal", "encapsed_string", "verbatim_string_literal", "variable_name"]);

/**
 * The node's tokens with comments and layout dropped, joined by single
 * spaces: a moved, re-indented or re-commented body normalises to the same
 * text. Python's indentation tokens carry no text, so they vanish too.
 */
export function normalizedText(node: Node): string {
  const tokens: string[] = [];
  walkSubtree(
    node,
    (cursor, type) => {
      if (COMMENT_TYPES.has(type)) return "skip";
      if (ATOMIC_TYPES.has(type)) {
        tokens.push(cursor.nodeText);
        return "skip";
      }
      return "descend";
    },
    (cursor) => {
      const text = cursor.nodeText;
      if (text.length > 0) tokens.push(text);
    },
  );
  return tokens.join(" ");
}

/**
 * Visits a subtree with one cursor and no Node objects (each Node crosses
 * the wasm boundary several times, which dominated extraction time).
 * `enter` decides per node whether to descend; `leaf` sees nodes without
 * children that were entered with "descend". Shared with the product-code
 * facts (tree-sitter-code.ts).
 */
export function walkSubtree(node: Node, enter: (cursor: TreeCursor, type: string) => "skip" | "descend", leaf: (cursor: TreeCursor) => void = () => {}): void {
  const cursor = node.walk();
  let depth = 0;
  try {
    for (;;) {
      if (enter(cursor, cursor.nodeType) === "descend") {
        if (cursor.gotoFirstChild()) {
          depth++;
          continue;
        }
        leaf(cursor);
      }
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) return;
        depth--;
      }
      if (depth === 0) return; // a sibling of the subtree's root is outside it
    }
  } finally {
    cursor.delete();
  }
}

/** sha1 of {@link normalizedText}: the body hash of TestCase and NonTestFunctionFact. */
export function hashNode(node: Node | null): string {
  return hashText(node ? normalizedText(node) : "");
}

/** Short (12 hex) hash of a parametrised row's normalised source, as TestCase.eachRowHashes wants. */
export function hashRow(node: Node): string {
  return hashText(normalizedText(node)).slice(0, 12);
}

/** Named children of a node, without comments. */
export function namedChildren(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null && !isComment(child));
}

/** The text of a string literal node without its quotes/prefixes, or null when it is not a plain literal. */
export function stringValue(node: Node | null | undefined): string | null {
  if (!node) return null;
  const text = node.text;
  const match = /^[a-zA-Z]*("""|'''|"|'|`)([\s\S]*)\1$/.exec(text);
  if (match) return match[2] as string;
  return null;
}

/** Source of a node with runs of whitespace collapsed: the `expected`/`actual` text of an AssertionFact. */
export function compactText(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  return normalizedText(node);
}

/** Node types that are literal values in the supported grammars (numbers, strings, booleans, nil). */
const LITERAL_TYPES: ReadonlySet<string> = new Set([
  "integer",
  "float",
  "string",
  "true",
  "false",
  "none",
  "nil",
  "null",
  "int_literal",
  "float_literal",
  "interpreted_string_literal",
  "raw_string_literal",
  "rune_literal",
  "imaginary_literal",
  "integer_literal",
  "string_literal",
  "char_literal",
  "boolean_literal",
  "character_literal",
  "decimal_integer_literal",
  "decimal_floating_point_literal",
  "hex_integer_literal",
  "null_literal",
  "real_literal",
  "verbatim_string_literal",
  "raw_string_literal",
  "simple_symbol",
  "encapsed_string",
  "boolean",
]);

/** True when the node is a literal value (number, string, boolean, null). */
export function isLiteral(node: Node): boolean {
  if (LITERAL_TYPES.has(node.type)) return true;
  if (node.type === "unary_operator" || node.type === "unary_expression") {
    const operand = node.namedChild(0);
    return operand !== null && /^-/.test(node.text) && isLiteral(operand);
  }
  return false;
}

/** A literal's normalised text: strings JSON-quoted whatever their quote style, other literals as written without spaces. */
export function normalizeLiteral(node: Node): string {
  const value = stringValue(node);
  return value !== null ? JSON.stringify(value) : node.text.replace(/\s+/g, "");
}

/** Statement lists whose earlier statements may bind a name an assertion reads (Python, Ruby, and other grammars' blocks). */
const BLOCK_TYPES: ReadonlySet<string> = new Set(["block", "body_statement", "do_block", "block_body", "compound_statement", "statement_block"]);

/**
 * A reader of a test's calls of imported functions (TestCase.importedHelperCalls):
 * each call in the test's node whose callee is a bare name `imports` binds
 * (`from tests.lib import check_process` -> `check_process(...)`) and that
 * is no helper of the file (`own`), as the module, the name it exports,
 * the call's normalised text under that name (with plain locals written as
 * what they were bound to, as for a local helper's call) and its line. A
 * call nested in another such call is its argument, not a second call.
 */
function importedHelperCallsOf(imports: readonly ImportFact[], own: ReadonlySet<string>): (node: Node) => ImportedHelperCall[] {
  const bound = new Map<string, { source: string; name: string }>();
  for (const fact of imports)
    for (const name of fact.names) if (name.imported !== null && name.imported !== "*" && !own.has(name.local)) bound.set(name.local, { source: fact.source, name: name.imported });
  return (node) => {
    if (bound.size === 0) return [];
    const found: ImportedHelperCall[] = [];
    walkSubtree(node, (cursor, type) => {
      if (type !== "call") return "descend";
      const call = cursor.currentNode;
      const callee = call.childForFieldName("function");
      const target = callee?.type === "identifier" ? bound.get(callee.text) : undefined;
      if (!callee || !target) return "descend";
      const named = (text: string): string => (callee.text === target.name ? text : text.replace(callee.text, target.name));
      const written = normalizedText(call);
      const value = withBoundArguments(call, written);
      const entry: ImportedHelperCall = { source: target.source, name: target.name, actual: named(written), line: call.startPosition.row + 1 };
      if (value !== written) entry.actualValue = named(value);
      found.push(entry);
      return "skip";
    });
    return found;
  };
}

/**
 * A call's text (`check_same(5, data)`) with each argument that is a plain
 * local bound before `node` (boundLocalValue) written as its value, in
 * canonical text: `check_same(5,parse("5"))`. The text as given when no
 * argument is such a local.
 */
function withBoundArguments(node: Node, call: string): string {
  const parts = splitCall(canonicalText(call));
  if (!parts) return call;
  let changed = false;
  const args = splitArguments(parts[1]).map((arg) => {
    if (!/^\$?[A-Za-z_]\w*$/.test(arg)) return arg;
    const value = boundLocalValue(node, arg);
    if (value === undefined || value === arg || /^new\b/.test(value)) return arg;
    changed = true;
    return canonicalText(value);
  });
  return changed ? `${parts[0]}(${args.join(",")})` : call;
}

/**
 * The expression a local name read by an assertion at `node` was bound to
 * by one of the (at most 8) statements before it in the same block, or
 * before the statement holding that block (an `if` arm, a loop body) in
 * the blocks around it up to the enclosing function:
 * `x = f(1)` -> `f(1)` (Python, Ruby, PHP `$x = f(1);`); a destructuring
 * `a, b = f(1)` (Python pattern lists and tuples, Ruby multiple assignment)
 * -> `f(1)[0]` for `a`, or the matching element when the right side is a
 * literal tuple; a declaration (C#, Java, Rust: {@link declaredValue}). Normalised like
 * {@link compactText}; undefined when no such binding is found or the name
 * is bound again or filled in place ({@link mutationOf}) in between. The subject of a check is then the call
 * under test (AssertionFact.actualValue), however the test or a helper
 * named its local.
 */
export function boundLocalValue(node: Node, name: string): string | undefined {
  let statement: Node | null = node;
  while (statement?.parent && !BLOCK_TYPES.has(statement.parent.type)) statement = statement.parent;
  // The assertion's block first, then the blocks holding it (an assertion in an `if` arm reads the local bound above the `if`), up to its function.
  while (statement) {
    const value = valueBoundBefore(statement, name);
    if (value !== null) return value;
    let outer: Node | null = statement.parent;
    while (outer?.parent && !BLOCK_TYPES.has(outer.parent.type)) {
      if (FUNCTION_TYPES.has(outer.type)) return undefined;
      outer = outer.parent;
    }
    if (!outer?.parent || FUNCTION_TYPES.has(outer.type)) return undefined;
    statement = outer;
  }
  return undefined;
}

/** What one of the (at most 8) statements before `statement` in its block binds `name` to (see {@link boundLocalValue}): the value, undefined when bound to something unread, null when none binds it. */
function valueBoundBefore(statement: Node, name: string): string | undefined | null {
  let previous = statement.previousNamedSibling;
  const mutation = mutationOf(name);
  // A collection handed to other code after it was bound may have been filled by it (a callee, a patched function).
  let handedOn = false;
  const bound = (value: string | undefined): string | undefined => (handedOn && value !== undefined && isCollectionLiteral(value) ? undefined : value);
  for (let steps = 0; previous && steps < 8; steps++, previous = previous.previousNamedSibling) {
    const declared = declaredValue(previous, name);
    if (declared !== null) return bound(declared);
    // A local filled in after it was bound (`$levels[] = …`, `levels.append(…)`, `sleeps.append` handed on) no longer holds what it was bound to.
    if (mutation.test(previous.text)) return undefined;
    if (isHandedOn(name, previous.text)) handedOn = true;
    const first = previous.namedChild(0);
    const assignment = previous.type === "assignment" ? previous : previous.type === "expression_statement" && (first?.type === "assignment" || first?.type === "assignment_expression") ? first : null;
    if (!assignment) continue;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (!left || !right) continue;
    if (left.type === "identifier" || left.type === "variable_name") {
      if (left.text === name) return bound(compactText(right));
      continue;
    }
    if (!/^(pattern_list|tuple_pattern|list_pattern|left_assignment_list|destructured_left_assignment)$/.test(left.type)) continue;
    const names = namedChildren(left);
    const index = names.findIndex((part) => part.type === "identifier" && part.text === name);
    if (index === -1) continue;
    if (names.some((part) => part.type !== "identifier")) return undefined;
    const values = /^(expression_list|tuple|right_assignment_list|array|list)$/.test(right.type) ? namedChildren(right) : [];
    if (values.length === names.length) return compactText(values[index]);
    return `${compactText(right)}[${index}]`;
  }
  return null;
}

/**
 * `fact` with AssertionFact.actualValue set when its subject is a bare local
 * (`parsed`, PHP `$parsed`) that one of the statements before the assertion
 * at `node` bound ({@link boundLocalValue}): `var parsed = Parse(m);
 * Assert.Equal(want, parsed)` checks `Parse(m)`; not to a constructed
 * object (`new Results(1)`), an arranged value. AssertionFact.expectedValue
 * likewise for a bare local expected value. Returns `fact` itself.
 */
export function withBoundActual<Fact extends { actual?: string; actualValue?: string; expected?: string; expectedValue?: string }>(fact: Fact, node: Node): Fact {
  if (fact.expected !== undefined && fact.expectedValue === undefined && /^\$?[A-Za-z_]\w*$/.test(fact.expected)) {
    const expected = boundLocalValue(node, fact.expected);
    if (expected !== undefined && expected !== fact.expected) fact.expectedValue = expected;
  }
  if (fact.actual === undefined || fact.actualValue !== undefined || !/^\$?[A-Za-z_]\w*$/.test(fact.actual)) return fact;
  const value = boundLocalValue(node, fact.actual);
  // A local bound to a constructed object (`var r = new Results(1);`) is an arranged value, compared by its name on both sides of a check.
  if (value !== undefined && value !== fact.actual && !/^new\b/.test(value)) fact.actualValue = value;
  return fact;
}

/** Statement kinds that wrap the expression they evaluate (its value is the code a thunk runs). */
const EXPRESSION_STATEMENTS: ReadonlySet<string> = new Set(["expression_statement", "return_statement"]);

/**
 * The code an error check runs, as its subject: the body of a lambda or
 * block given to it, or the last statement of the block it guards, in
 * {@link compactText} form: Java `() -> parse("")` and C# `() => Parse("")`
 * -> `parse("")`; a block body (`() -> { setUp(); parse(""); }`, Ruby's
 * `expect { parse("") }`, minitest's `assert_raises(E) { parse("") }`,
 * Python's `with pytest.raises(E): parse("")`) -> its last statement's
 * expression, the value of an assignment (`x = parse("")` -> `parse("")`).
 * Undefined when `node` runs nothing readable.
 */
export function thunkSubject(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (/^(?:lambda_expression|lambda|arrow_function)$/.test(node.type)) {
    const body = node.childForFieldName("body") ?? namedChildren(node).at(-1);
    return body && body !== node ? thunkSubject(body) : undefined;
  }
  const isBlock = /^(?:block|do_block|block_body|body_statement|compound_statement|statement_block|braced_block)$/.test(node.type);
  if (isBlock) {
    const statements = namedChildren(node).filter((child) => !isComment(child) && child.type !== "block_parameters");
    return thunkSubject(statements.at(-1));
  }
  if (EXPRESSION_STATEMENTS.has(node.type)) return thunkSubject(node.namedChild(0));
  if (node.type === "assignment" || node.type === "assignment_expression") return thunkSubject(node.childForFieldName("right"));
  if (node.type === "local_declaration_statement" || node.type === "local_variable_declaration") return thunkSubject(declaratorsOf(node)[0]?.value);
  return compactText(node);
}

/**
 * The declarators of a C# local_declaration_statement (> variable_declaration
 * > variable_declarator, its value in an equals_value_clause) or a Java
 * local_variable_declaration (> variable_declarator with name/value fields):
 * each declared name and the node of its value (undefined when declared
 * with none).
 */
function declaratorsOf(statement: Node): { name: string | undefined; value: Node | undefined }[] {
  const declaration = statement.type === "local_declaration_statement" ? (namedChildren(statement).find((child) => child.type === "variable_declaration") ?? statement) : statement;
  return namedChildren(declaration)
    .filter((child) => child.type === "variable_declarator")
    .map((declarator) => ({
      name: (declarator.childForFieldName("name") ?? declarator.namedChild(0))?.text,
      value:
        declarator.childForFieldName("value") ??
        namedChildren(declarator)
          .find((child) => child.type === "equals_value_clause")
          ?.namedChild(0) ??
        undefined,
    }));
}

/**
 * The value a declaration statement binds to `name`, for the languages that
 * declare locals with a statement of their own: C# `var x = f(1);` /
 * `int a = 1, x = f(1);` (local_declaration_statement > variable_declarator
 * > equals_value_clause), Java `Foo x = f(1);` (local_variable_declaration
 * > variable_declarator name/value), Rust `let x = f(1);` / `let mut x: T
 * = f(1);` / `let (a, x) = f(1);` (let_declaration pattern/value: the
 * tuple's element when the value is a literal tuple, else `f(1)[1]`).
 * Undefined when the statement declares `name` with no value or in a shape
 * not read here (the name is then bound to something unknown); null when
 * it declares no `name`.
 */
function declaredValue(statement: Node, name: string): string | undefined | null {
  if (statement.type === "local_declaration_statement" || statement.type === "local_variable_declaration") {
    const declarator = declaratorsOf(statement).find((candidate) => candidate.name === name);
    return declarator ? (declarator.value ? compactText(declarator.value) : undefined) : null;
  }
  if (statement.type === "let_declaration") {
    const pattern = statement.childForFieldName("pattern");
    const value = statement.childForFieldName("value");
    if (!pattern) return null;
    if (pattern.type === "identifier") return pattern.text === name ? (value ? compactText(value) : undefined) : null;
    if (pattern.type !== "tuple_pattern") return null;
    const names = namedChildren(pattern);
    const index = names.findIndex((part) => part.type === "identifier" && part.text === name);
    if (index === -1) return null;
    if (!value || names.some((part) => part.type !== "identifier")) return undefined;
    const values = value.type === "tuple_expression" ? namedChildren(value) : [];
    return values.length === names.length ? compactText(values[index]) : `${compactText(value)}[${index}]`;
  }
  return null;
}

/**
 * The literal rows of a table an RSpec/minitest-spec example is defined
 * over: `[[1, 2], [3, 4]].each do |a, b| it "…" do … end end` -> one row per
 * element of the array, as {@link literalsOf} reads it (the example runs
 * once per row). Undefined when no enclosing `each` iterates a literal array.
 */
export function enclosingEachRows(node: Node): string[][] | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== "do_block" && current.type !== "block") continue;
    const call = current.parent;
    if (call?.type !== "call" || call.childForFieldName("method")?.text !== "each") continue;
    const receiver = call.childForFieldName("receiver");
    if (receiver?.type === "array")
      return namedChildren(receiver)
        .filter((element) => !COMMENT_TYPES.has(element.type))
        .map(literalsOf);
  }
  return undefined;
}

/**
 * The literal rows of a table a Rust test loops over around its
 * assertions: `for (input, want) in [("a", 1), ("b", 2)] { assert_eq!(…) }`,
 * also `&[…]`, `….iter()` and a local `let cases = […];` iterated by
 * name -> one row per element, as {@link literalsOf} reads it. Undefined
 * when no loop of the body holding an assertion macro iterates a literal
 * array.
 */
export function loopTableRows(body: Node): string[][] | undefined {
  for (const loop of body.descendantsOfType("for_expression")) {
    if (!loop) continue;
    const loopBody = loop.childForFieldName("body");
    if (
      !loopBody ||
      !loopBody.descendantsOfType("macro_invocation").some((macro) => macro !== null && /^(?:\w+::)*(?:assert\w*|debug_assert\w*|prop_assert\w*)$/.test(macro.childForFieldName("macro")?.text ?? ""))
    )
      continue;
    let value = loop.childForFieldName("value");
    while (value && (value.type === "reference_expression" || (value.type === "call_expression" && /\.(?:iter|into_iter)$/.test(value.childForFieldName("function")?.text ?? "")))) {
      value = value.type === "reference_expression" ? value.childForFieldName("value") : (value.childForFieldName("function")?.childForFieldName("value") ?? null);
    }
    if (value?.type === "identifier") value = localArray(body, value.text, loop.startIndex);
    while (value?.type === "reference_expression") value = value.childForFieldName("value");
    if (value?.type === "array_expression")
      return namedChildren(value)
        .filter((element) => !COMMENT_TYPES.has(element.type))
        .map(literalsOf);
  }
  return undefined;
}

/** The array a `let name = […];` before `before` (a start index) in `body` binds, or null. */
function localArray(body: Node, name: string, before: number): Node | null {
  let found: Node | null = null;
  for (const declaration of body.descendantsOfType("let_declaration")) {
    if (!declaration || declaration.startIndex >= before || declaration.childForFieldName("pattern")?.text !== name) continue;
    found = declaration.childForFieldName("value");
  }
  return found;
}

/** Literal values in a subtree, normalised by {@link normalizeLiteral}, in source order: what a parametrised row must keep. */
export function literalsOf(node: Node): string[] {
  const literals: string[] = [];
  walkSubtree(
    node,
    (cursor, type) => {
      if (COMMENT_TYPES.has(type)) return "skip";
      const isNegative = (type === "unary_operator" || type === "unary_expression") && /^-\s*[\d.]/.test(cursor.nodeText);
      if (!LITERAL_TYPES.has(type) && !isNegative) return "descend";
      const text = cursor.nodeText;
      const match = /^[a-zA-Z]*("""|'''|"|'|`)([\s\S]*)\1$/.exec(text);
      literals.push(match ? JSON.stringify(match[1] === '"' || match[1] === "`" ? decodeUnicodeEscapes(match[2] as string) : match[2]) : text.replace(/\s+/g, ""));
      return "skip";
    },
    () => {},
  );
  return literals;
}

// ---------------------------------------------------------------------------
// Assembling facts

/** A test case found by a language module, before assertions are assigned to it. */
export interface TestDraft {
  name: string;
  suitePath: string[];
  /** 1-based line of the declaration. */
  line: number;
  /** The declaration's whole extent: assertions inside it (and not inside a nested test) belong to it. */
  node: Node;
  /** What the body hash is computed from (the function body, without name and decorators). */
  bodyHash: string;
  marks: Partial<Record<TestFlag, { via: string; reason?: string; condition?: string }>>;
  eachRows?: number | null;
  eachRowHashes?: string[];
  /** Literal values per parametrised row, so a merge of tests into rows can be recognised. */
  eachRowLiterals?: string[][];
  /** Element texts per table row (see TestCase.eachRowElements). */
  eachRowElements?: string[][];
  /** Literal values of the body (see TestCase.literals). */
  literals?: string[];
  /** Literal values of the file's functions the body calls (see TestCase.helperLiterals). */
  helperLiterals?: string[];
  /** Calls the body makes outside its assertions (see TestCase.callCount). */
  callCount?: number;
  /** For a test without a real check: what its calls depend on (see TestCase.callNames). */
  callNames?: string[][];
  /** The test declares it exercises deprecated code (TestCase.exercisesDeprecated). */
  exercisesDeprecated?: true;
  /** What the body runs whatever happens (TestCase.directCalls). */
  directCalls?: string[];
  /** The test has no title of its own (TestCase.untitled). */
  untitled?: boolean;
  /** The product code it declares it covers (TestCase.covers). */
  covers?: string[];
  /** The body's statement list: assertions after a `return` at its top level can never run. */
  body?: Node | null;
}

/** An assertion found by a language module, with its position for assignment to a test. */
export interface AssertionDraft extends AssertionFact {
  startIndex: number;
}

/** A runtime skip (`pytest.skip()`, `t.Skip()`, `markTestSkipped()`) found in a body. */
export interface SkipDraft {
  startIndex: number;
  flag: TestFlag;
  via: string;
  reason?: string;
  /** The skip call: with it, a skip under an `if` is conditional and a skip in a helper, fixture or setup reaches the tests that go through it (skip-reach.ts). */
  node?: Node;
  /** The call itself skips only sometimes: `assumeTrue(cond)`, `Skip.If(cond)`, `pytest.importorskip(...)`. */
  isConditional?: boolean;
}

/** How a language tells the functions holding skips apart (skip-reach.ts); absent: every named function is a helper. */
export interface SkipReach {
  /** The kind of a function that holds a skip outside any test; null when it reaches no test. */
  classify(fn: Node): SkipProviderKind | null;
  /** Node types that hold a skip outside tests (default skip-reach.ts FUNCTION_TYPES). */
  functionTypes?: ReadonlySet<string>;
  /** Ruby: a bare identifier statement is a method call. */
  hasBareCalls?: boolean;
  /** When set, a skip outside every function skips every test of the file (Python's module-level `pytest.skip(allow_module_level=True)`), named so. */
  topLevelLabel?: string;
  /** What each test records in TestCase.calls: the functions it calls by bare name (Go) or its parameter names (Python fixtures). */
  recordsCalls?: "called-names" | "parameters";
}

/** A class found by a language module: its {@link ClassFact} with the test methods still as drafts. */
export interface ClassDraft extends Omit<ClassFact, "methods"> {
  methods: TestDraft[];
}

/** What a tree-sitter language module hands to {@link assembleFacts}. */
export interface ExtractedDrafts {
  tests: TestDraft[];
  assertions: AssertionDraft[];
  skips: SkipDraft[];
  nonTestFunctions: NonTestFunctionFact[];
  frameworks: string[];
  /** Classes, imports and module marks for cross-file resolution (facts.ts ClassScope); method drafts get assertions and runtime skips like tests. */
  classScope?: { classes: ClassDraft[]; imports: ImportFact[]; marks: MarkFact[] };
  /** How skips outside tests reach tests (helpers, fixtures, setups); absent: named functions are helpers. */
  skipReach?: SkipReach;
  /** Skip providers the language found itself (Go's TestMain), beside those of its skips. */
  skipProviders?: SkipProviderFact[];
  /** Harness code that exits the run with success whatever the tests report (facts.ts RunEscapeFact). */
  runEscapes?: RunEscapeFact[];
  /**
   * The name an external test package qualifies the code under test by
   * (Go's `cast` in `package cast_test` importing `.../cast`): dropped from
   * the texts of the file's assertions and helper calls, so `cast.F(x)`
   * reads as the `F(x)` the package's own tests called.
   */
  selfQualifier?: string;
  /** Struct types the file declares (FileFacts.rowStructs). */
  rowStructs?: Record<string, string[]>;
  /** Functions that declare a test running what they are given (facts.ts TestDefinerFact). */
  testDefiners?: TestDefinerFact[];
  /** Calls that may define a test through such a function, each with the draft of that test (facts.ts HelperTestFact); its assertions and skips are found like a test's. */
  helperTests?: { call: Omit<HelperTestFact, "test">; draft: TestDraft }[];
  /** The files the file loads, as written (facts.ts FileFacts.loads). */
  loads?: string[];
  /**
   * Assertions whose own check is the condition of an `if` holding them (Go's
   * `if got != want { t.Errorf(...) }`): the assertion's start index -> that
   * `if`'s start index. The `if` is the check, not a branch it runs in
   * (AssertionFact.conditions start above it).
   */
  checkGuards?: ReadonlyMap<number, number>;
  /**
   * The module-level imports of names from other modules (Python `from m
   * import f`): a test's bare call of one that is no helper of the file
   * may be a helper another module defines (TestCase.importedHelperCalls,
   * resolved by analysis/imported-helpers.ts).
   */
  helperImports?: readonly ImportFact[];
}

/** `text` with the qualifier `name.` of a package's own names dropped (ExtractedDrafts.selfQualifier); members (`x.name.F`) and strings are left alone. */
function unqualified(text: string, name: string): string {
  return text.replace(new RegExp(`"(?:[^"\\\\]|\\\\.)*"|(?<![\\w$]|\\.\\s*)${name}\\s*\\.\\s*(?=[A-Za-z_])`, "g"), (match) => (match.startsWith('"') ? match : ""));
}

/** The assertion with {@link unqualified} applied to the texts it compares. */
function withoutSelfQualifier<T extends AssertionFact>(fact: T, name: string | undefined): T {
  if (name === undefined) return fact;
  const out = { ...fact };
  for (const key of ["actual", "actualValue", "expected"] as const) {
    const text = out[key];
    if (text !== undefined) out[key] = unqualified(text, name);
  }
  return out;
}

/** Statement types that return from a function, across the supported grammars. */
const RETURN_TYPES: ReadonlySet<string> = new Set(["return_statement", "return", "return_expression"]);

/**
 * Where the first unconditional `return` among a body's top-level statements
 * ends (Rust wraps it in an expression statement), or null when there is none.
 */
export function topLevelReturnEnd(body: Node): number | null {
  for (const statement of namedChildren(body)) {
    const inner = statement.type === "expression_statement" ? statement.namedChild(0) : statement;
    if (inner && RETURN_TYPES.has(inner.type)) return statement.endIndex;
  }
  return null;
}

/** PHPUnit's expectations of an exception for the rest of the test: `$this->expectException(…)` and its message/code kin. */
const EXPECTS_EXCEPTION = /^expectException\w*$/;

/** True when a statement is a PHPUnit `$this->expectException…(…)`/`self::expectException…(…)` call (only the method's name is read). */
function isExpectException(statement: Node): boolean {
  const call = statement.type === "expression_statement" ? statement.namedChild(0) : null;
  return (call?.type === "member_call_expression" || call?.type === "scoped_call_expression") && EXPECTS_EXCEPTION.test(call.childForFieldName("name")?.text ?? "");
}

/**
 * Where the last top-level statement of a test that expects an exception
 * for its whole body starts (PHPUnit `$this->expectException(E::class)`,
 * JUnit 4 `@Test(expected = E.class)` in its modifiers), or null for any
 * other test. Such a test passes only when something throws, so the
 * assertion of its last statement can never decide it: the exception came
 * before or inside that statement, or the test fails anyway. Assertions
 * from there on are read as unreachable (AssertionFact.unreachable).
 */
function expectedThrowLastStatement(draft: TestDraft): number | null {
  const body = draft.body;
  if (!body) return null;
  const statements = namedChildren(body).filter((statement) => !/comment/.test(statement.type));
  const modifiers = draft.node.type === "method_declaration" ? namedChildren(draft.node).find((child) => child.type === "modifiers") : undefined;
  const expects = statements.some(isExpectException) || /@Test\s*\(\s*(?:[^)]*,\s*)?expected\s*=/.test(modifiers?.text ?? "");
  if (!expects) return null;
  const last = statements.filter((statement) => !isExpectException(statement)).at(-1);
  return last ? last.startIndex : null;
}

/** A draft with its byte range read once (Node.endIndex is a call into wasm). */
interface Ranged {
  draft: TestDraft;
  start: number;
  end: number;
}

/**
 * The innermost drafts containing a position: usually one, several when
 * tests share a declaration (a test method inherited by several classes).
 */
function innermostDrafts(ranged: readonly Ranged[], index: number): TestDraft[] {
  let best: Ranged[] = [];
  for (const entry of ranged) {
    if (entry.start > index || index >= entry.end) continue;
    const current = best[0];
    if (!current || entry.start > current.start) best = [entry];
    else if (entry.start === current.start && entry.end === current.end) best.push(entry);
  }
  return best.map((entry) => entry.draft);
}

/**
 * Records what one assertion of a test depends on (TestCase.checkNames,
 * parsers/tree-sitter-subjects.ts) in `checkNames`, the test's bindings read
 * once into `bindings`; returns the fact, marked a tautology when it
 * compares locals bound to the same literal text.
 */
function dependencyFacts(
  owner: TestDraft,
  startIndex: number,
  fact: AssertionFact,
  bindings: Map<TestDraft, ScopeBindings>,
  checkNames: Map<TestDraft, string[][]>,
  constants: () => ReadonlyMap<string, string>,
): AssertionFact {
  let scope = bindings.get(owner);
  if (!scope) {
    scope = testBindings(owner.node);
    bindings.set(owner, scope);
  }
  const names = checkNames.get(owner) ?? [];
  names.push(checkNamesOf(owner.node, startIndex, scope));
  checkNames.set(owner, names);
  if (fact.tautology) return fact;
  if (isTautologyThroughLocals(fact.actual, fact.expected, scope)) return { ...fact, tautology: true, strength: 0 };
  // A check of the test's own constants (`assert_eq!(AB, 0b0011)` with `const AB: u32 = A | B;`) reads nothing of the product.
  if (fact.negated !== true && relationOfMatcher(fact.matcher) === "equal" && fact.actual !== undefined && fact.expected !== undefined) {
    const local = scope;
    const resolve = (name: string): string | undefined => {
      const values = local.values.get(name);
      if (values !== undefined) return values.length === 1 && values[0] !== "" ? values[0] : undefined;
      return constants().get(name);
    };
    if (isConstantTautology(canonicalText(fact.actual), canonicalText(fact.expected), resolve)) return { ...fact, tautology: true, strength: 0 };
  }
  return fact;
}

/** Loops over a collection, across the grammars, with how each names the collection it goes through. */
const COLLECTION_LOOPS: Readonly<Record<string, (loop: Node) => Node | null>> = {
  foreach_statement: (loop) => namedChildren(loop).find((child) => !child.type.endsWith("comment")) ?? null, // PHP
  enhanced_for_statement: (loop) => loop.childForFieldName("value"), // Java
  for_each_statement: (loop) => loop.childForFieldName("right"), // C#
  for_statement: (loop) => loop.childForFieldName("right"), // Python (other grammars' for_statement has no `right`)
  for_expression: (loop) => loop.childForFieldName("value"), // Rust
};

/** Java's and C#'s factories of a fixed list (`List.of("a", "b")`, `Arrays.asList(…)`, `Set.of(…)`): their arguments are its elements. */
const LIST_FACTORIES = /^(?:List|Set|Arrays|ImmutableList|ImmutableSet|Stream)\.(?:of|asList|copyOf)$/;

/** A value with the references and parentheses around it taken off (`&[1, 2]`, `(xs)` -> the collection). */
function withoutWrappers(node: Node): Node | null {
  let value: Node | null = node;
  while (value && (value.type === "reference_expression" || value.type === "parenthesized_expression")) value = value.childForFieldName("value") ?? value.namedChild(0);
  return value;
}

/**
 * The elements of a literal collection, across the grammars, or null when
 * the node is none or holds a spread (`...$xs`, `*xs`): PHP `array(…)`/`[…]`,
 * Python lists, tuples and sets, Java array initializers and `List.of(…)`,
 * C# array and collection initializers and `[…]`, Rust arrays (`&[…]`).
 */
function literalElements(node: Node): Node[] | null {
  const value = withoutWrappers(node);
  if (!value) return null;
  let holder: Node | null = null;
  if (/^(?:array_creation_expression|implicit_array_creation_expression|object_creation_expression)$/.test(value.type)) {
    // PHP's array(…) holds its elements itself; Java's and C#'s creations hold an initializer.
    holder = namedChildren(value).some((child) => child.type === "array_element_initializer")
      ? value
      : (value.childForFieldName("value") ?? value.childForFieldName("initializer") ?? namedChildren(value).find((child) => /^(?:array_initializer|initializer_expression)$/.test(child.type)) ?? null);
  } else if (/^(?:array_initializer|initializer_expression|collection_expression|list|tuple|set|array_expression)$/.test(value.type)) {
    holder = value;
  } else if (value.type === "method_invocation") {
    const callee = `${value.childForFieldName("object")?.text ?? ""}.${value.childForFieldName("name")?.text ?? ""}`;
    if (LIST_FACTORIES.test(callee)) holder = value.childForFieldName("arguments");
  }
  if (holder === null) return null;
  const elements = namedChildren(holder).filter((child) => !child.type.endsWith("comment"));
  if (elements.some((element) => /spread|splat|variadic/.test(element.type) || /^\.\.\./.test(element.text))) return null;
  return elements;
}

/** The node a local `name` of `scope` was last bound to before `before` (a start index): `$xs = array(…)`, `xs = […]`, `String[] xs = {…}`, `var xs = new[] {…}`, `let xs = […]`; null when none. */
function localValueBefore(scope: Node, name: string, before: number): Node | null {
  let found: Node | null = null;
  walkSubtree(scope, (cursor, type) => {
    if (cursor.startIndex >= before) return "skip";
    if (!/^(?:assignment_expression|assignment|variable_declarator|let_declaration)$/.test(type)) return "descend";
    const node = cursor.currentNode;
    const target = node.childForFieldName("left") ?? node.childForFieldName("name") ?? node.childForFieldName("pattern") ?? node.namedChild(0);
    const value =
      node.childForFieldName("right") ??
      node.childForFieldName("value") ??
      namedChildren(node)
        .find((child) => child.type === "equals_value_clause")
        ?.namedChild(0) ??
      null;
    if (target?.text === name && value) found = value;
    return "descend";
  });
  return found;
}

/**
 * How many times an assertion at `start` runs in the loops of `test` over
 * literal collections (AssertionFact.loopRows): the product of their
 * sizes, or undefined when it runs in no loop, or in a loop whose collection
 * is not a literal one, inline or bound to a local of the test before the loop.
 */
function literalLoopRows(root: Node, start: number, test: Node): number | undefined {
  let rows = 1;
  let loops = 0;
  for (let current = root.descendantForIndex(start)?.parent ?? null; current && !(current.startIndex === test.startIndex && current.endIndex === test.endIndex); current = current.parent) {
    // In a function the test declares, the loops around it are not what runs the check.
    if (FUNCTION_TYPES.has(current.type) && current.parent?.startIndex !== test.startIndex) return undefined;
    if (/^(?:while_statement|do_statement|for_in_statement|loop_expression|while_expression)$/.test(current.type)) return undefined;
    const collectionOf = COLLECTION_LOOPS[current.type];
    if (collectionOf === undefined) continue;
    const collection = collectionOf(current);
    // Other grammars' `for (;;)` loop: how often it runs is not read here.
    if (collection === null) return undefined;
    const bound = /^(?:identifier|variable_name)$/.test(collection.type) ? localValueBefore(test, collection.text, current.startIndex) : collection;
    const elements = bound ? literalElements(bound) : null;
    if (elements === null) return undefined;
    rows *= elements.length;
    loops++;
  }
  return loops > 0 ? rows : undefined;
}

/** An integer literal's value (`0`, `-1`, `10_000`), or null. */
function integerOf(node: Node | null | undefined): number | null {
  const text = node?.text.replace(/_/g, "").replace(/\s+/g, "");
  return text !== undefined && /^-?\d+$/.test(text) ? Number(text) : null;
}

/**
 * True when a collection a loop goes through is empty whatever runs: a
 * literal collection with no element (`[]`, `array()`, `List.of()`), a
 * Rust range of integer literals that holds none (`0..0`, `5..2`,
 * `1..=0`), a Python `range(…)` of integer literals that yields none
 * (`range(0)`, `range(3, 3)`).
 */
function isEmptyCollection(node: Node): boolean {
  const value = withoutWrappers(node);
  if (!value) return false;
  if (value.type === "range_expression") {
    const [start, end] = [integerOf(value.namedChild(0)), integerOf(value.namedChild(1))];
    const isInclusive = value.text.includes("..=");
    return start !== null && end !== null && value.namedChildCount === 2 && (isInclusive ? start > end : start >= end);
  }
  if (value.type === "call" && value.childForFieldName("function")?.text === "range") {
    const args = namedChildren(value.childForFieldName("arguments") ?? value).map(integerOf);
    if (args.some((arg) => arg === null) || args.length === 0 || args.length > 2) return false;
    const [start, end] = args.length === 1 ? [0, args[0] as number] : [args[0] as number, args[1] as number];
    return start >= end;
  }
  // PHP's `[]` and `array()` hold nothing at all.
  if (value.type === "array_creation_expression" && value.namedChildren.filter((child) => child !== null && !child.type.endsWith("comment")).length === 0) return true;
  return literalElements(value)?.length === 0;
}

/** True when the code at `start` runs inside a loop of `test` over a collection that is empty whatever runs ({@link isEmptyCollection}): it never runs. */
function isInEmptyLoop(root: Node, start: number, test: Node): boolean {
  for (let current = root.descendantForIndex(start)?.parent ?? null; current && !(current.startIndex === test.startIndex && current.endIndex === test.endIndex); current = current.parent) {
    const collection = COLLECTION_LOOPS[current.type]?.(current) ?? null;
    if (collection !== null && collection.startIndex > start) continue;
    if (collection !== null && start >= collection.endIndex && isEmptyCollection(collection)) return true;
  }
  return false;
}

/** Statements that throw, across the grammars: Java, C#, PHP (an expression there), Python. */
const THROW_TYPES: readonly string[] = ["throw_statement", "throw_expression", "raise_statement"];

/** Constructs inside which a thrown error may be caught or not run at all: a `try` of the test, a class declared in it. */
const CATCHING_OR_DECLARING = /^(?:try_statement|try_with_resources_statement|try_expression|class_declaration|class_definition|anonymous_class|object_creation_expression)$/;

/**
 * The throws of a test's own body that fail it (`if (!preg_match(…)) {
 * throw new \RuntimeException($in.' did not match') }`), as explicit
 * failures: the `fail` a test framework spells (`$this->fail($in.' did not
 * match')`, JUnit `fail(m)`, `self.fail(m)`) raises an error no code of the
 * test catches, and so does this throw. One is a check only under an `if`
 * of the test (a throw on every path fails every run: no check), outside any
 * `try` of the test (a handler may catch it), and in the test's own code,
 * not in a function or class it declares (that code may never run). Its
 * subject is the message the error is made with (the constructor's first
 * argument), as a failure's is its message.
 */
function failingThrows(tests: readonly TestDraft[]): AssertionDraft[] {
  const found: AssertionDraft[] = [];
  const seen = new Set<number>();
  for (const draft of tests) {
    for (const thrown of draft.node.descendantsOfType([...THROW_TYPES])) {
      if (!thrown || seen.has(thrown.startIndex)) continue;
      let isUnderIf = false;
      let isOwnCode = true;
      for (let current = thrown.parent; current && !(current.startIndex === draft.node.startIndex && current.endIndex === draft.node.endIndex); current = current.parent) {
        if (current.type === "if_statement") isUnderIf = true;
        const isTestFunction = current.parent?.startIndex === draft.node.startIndex && current.parent.endIndex === draft.node.endIndex;
        if (CATCHING_OR_DECLARING.test(current.type) || (FUNCTION_TYPES.has(current.type) && !isTestFunction)) isOwnCode = false;
      }
      if (!isUnderIf || !isOwnCode) continue;
      seen.add(thrown.startIndex);
      const error = namedChildren(thrown).find((child) => !child.type.endsWith("comment"));
      const args = error?.childForFieldName("arguments") ?? (error ? namedChildren(error).find((child) => /argument/.test(child.type)) : undefined);
      const first = args ? namedChildren(args).find((child) => !child.type.endsWith("comment")) : undefined;
      const message = first?.type === "argument" && first.namedChildCount === 1 ? first.namedChild(0) : first;
      const fact: AssertionDraft = { line: thrown.startPosition.row + 1, matcher: "fail", strength: 1, tautology: false, startIndex: thrown.startIndex };
      if (message) fact.actual = compactText(message);
      found.push(fact);
    }
  }
  return found;
}

/**
 * Sets AssertionFact.conditions on each assertion that runs in a branch of
 * its test or helper: the conditions between it and the innermost test
 * declaration (`ranged`) or named function holding it (skip-reach.ts
 * branchConditionsWithin), in canonical text.
 */
function withBranchConditions(root: Node, assertions: AssertionDraft[], ranged: readonly Ranged[], checkGuards?: ReadonlyMap<number, number>): void {
  const tests = new Set(ranged.map((entry) => `${entry.start}:${entry.end}`));
  const isContainer = (node: Node): boolean => NAMED_FUNCTION_TYPES.has(node.type) || tests.has(`${node.startIndex}:${node.endIndex}`);
  for (const assertion of assertions) {
    const guardStart = checkGuards?.get(assertion.startIndex);
    let node: Node | null = root.descendantForIndex(guardStart ?? assertion.startIndex);
    // The check's own `if`: its conditions start above it.
    if (guardStart !== undefined) while (node && !(node.isNamed && node.startIndex === guardStart && /^if/.test(node.type))) node = node.parent;
    if (!node) continue;
    const conditions = branchConditionsWithin(node, isContainer, (condition) => canonicalText(condition.text), negatedCondition);
    if (conditions.length > 0) assertion.conditions = conditions;
  }
}

/** Languages whose loops over literal collections are read (AssertionFact.loopRows). */
const LOOP_ROW_LANGUAGES: ReadonlySet<string> = new Set(["php", "java", "csharp", "python", "rust"]);

/** Languages whose checks keep a local as their subject, and whose locals' declared values assembleFacts records (AssertionFact.localValue). */
const DECLARED_LOCALS: ReadonlySet<string> = new Set(["csharp", "java", "php", "rust"]);

/** At most this many calls of a check-free test are read for what they depend on (TestCase.callNames). */
const MAX_CALL_STATEMENTS = 16;

/** At most this many literals are gathered from the helpers one test calls (TestCase.helperLiterals). */
const MAX_HELPER_LITERALS = 200;

/**
 * Per test draft, the literals of the file's other functions it calls, by
 * name, through helpers calling helpers (TestCase.helperLiterals): a test
 * whose arrange code moved into `$this->process($config, $levels)` still
 * feeds the literals that helper writes (`['normalize_headings' => $config]`).
 * Only drafts with literals of their own are looked at.
 */
function helperLiteralsOf(root: Node, drafts: readonly TestDraft[]): Map<TestDraft, string[]> {
  const result = new Map<TestDraft, string[]>();
  const withLiterals = drafts.filter((draft) => draft.literals !== undefined);
  if (withLiterals.length === 0) return result;
  const testStarts = new Set(drafts.map((draft) => draft.node.startIndex));
  const byName = new Map<string, Node[]>();
  for (const range of functionRanges(root)) {
    if (testStarts.has(range.start)) continue;
    const node = root.descendantForIndex(range.start, range.end - 1);
    let fn: Node | null = node;
    while (fn && !(fn.startIndex === range.start && fn.endIndex === range.end)) fn = fn.parent;
    if (fn) (byName.get(range.name) ?? byName.set(range.name, []).get(range.name))?.push(fn);
  }
  if (byName.size === 0) return result;
  const calledCache = new Map<Node, Set<string>>();
  const calledBy = (node: Node): Set<string> => {
    let names = calledCache.get(node);
    if (!names) {
      names = calledNamesIn(node);
      calledCache.set(node, names);
    }
    return names;
  };
  for (const draft of withLiterals) {
    const literals: string[] = [];
    const seen = new Set<string>();
    const queue = [...calledBy(draft.node)];
    while (queue.length > 0 && literals.length < MAX_HELPER_LITERALS) {
      const name = queue.shift() as string;
      if (seen.has(name)) continue;
      seen.add(name);
      for (const fn of byName.get(name) ?? []) {
        literals.push(...literalsOf(fn));
        for (const next of calledBy(fn)) if (!seen.has(next)) queue.push(next);
      }
    }
    if (literals.length > 0) result.set(draft, literals.slice(0, MAX_HELPER_LITERALS));
  }
  return result;
}

/**
 * Records what a test runs besides its checks (TestCase.callCount) and, for
 * one with no real check, which guards only that its calls do not throw,
 * what each call depends on (TestCase.callNames). `starts` are its
 * assertions' offsets, `facts` its assertions; `bindings` caches scopes.
 */
function noteCalls(draft: TestDraft, starts: readonly number[], facts: readonly AssertionFact[], bindings: Map<TestDraft, ScopeBindings>): void {
  draft.callCount = callsOutsideChecks(draft.node, starts);
  if (draft.body) {
    const directCalls = directCallTexts(unconditionalRunsOf(draft.body));
    if (directCalls.length > 0) draft.directCalls = directCalls;
  }
  if (draft.callCount === 0 || !facts.every((fact) => fact.tautology || fact.unreachable === true)) return;
  let scope = bindings.get(draft);
  if (!scope) {
    scope = testBindings(draft.node);
    bindings.set(draft, scope);
  }
  const seen = new Set<string>();
  const callNames: string[][] = [];
  for (const start of callStartsOutsideChecks(draft.node, starts).slice(0, MAX_CALL_STATEMENTS)) {
    const names = checkNamesOf(draft.node, start, scope);
    const key = names.join("\u0000");
    if (names.length === 0 || seen.has(key)) continue;
    seen.add(key);
    callNames.push(names);
  }
  if (callNames.length > 0) draft.callNames = callNames;
}

/**
 * Turns drafts into {@link FileFacts}: each assertion and runtime skip goes to
 * the innermost test containing it; flags come from the draft's marks;
 * `assertions` counts every assertion in the file.
 */
export function assembleFacts(
  language: string,
  isTestPath: boolean,
  drafts: ExtractedDrafts,
  recoveredErrorCount: number,
  /** The parsed file, to find assertion helpers and the tests' calls to them (tree-sitter-helpers.ts); absent = not looked for. */
  root?: Node,
): FileFacts {
  const qualifier = drafts.selfQualifier;
  if (qualifier !== undefined) drafts = { ...drafts, assertions: drafts.assertions.map((assertion) => withoutSelfQualifier(assertion, qualifier)) };
  const details = new Map<TestDraft, AssertionFact[]>();
  const methodDrafts = [...(drafts.classScope?.classes.flatMap((draft) => draft.methods) ?? []), ...(drafts.helperTests ?? []).map((helper) => helper.draft)];
  const ranged: Ranged[] = [...drafts.tests, ...methodDrafts].map((draft) => ({ draft, start: draft.node.startIndex, end: draft.node.endIndex }));
  const rangeOf = new Map(ranged.map((entry) => [entry.draft, entry] as const));
  const returnEnds = new Map<TestDraft, number>();
  for (const draft of [...drafts.tests, ...methodDrafts]) {
    const end = draft.body ? topLevelReturnEnd(draft.body) : null;
    // In a test that expects an exception for its whole body, its last statement's assertion never decides anything.
    const vacuous = draft.body ? expectedThrowLastStatement(draft) : null;
    const earliest = end === null ? vacuous : vacuous === null ? end : Math.min(end, vacuous);
    if (earliest !== null) returnEnds.set(draft, earliest);
  }
  // A test's own throw under an `if` fails it as its framework's `fail()` would: one check of the test.
  const throwing = root ? failingThrows([...drafts.tests, ...methodDrafts]) : [];
  if (throwing.length > 0) drafts = { ...drafts, assertions: [...drafts.assertions, ...throwing].sort((a, b) => a.startIndex - b.startIndex) };
  if (root) withBranchConditions(root, drafts.assertions, ranged, drafts.checkGuards);
  // Helpers that assert outside tests, and the tests' calls to them: each call is one assertion of its test (a helper check).
  // In a file that also holds product code (a Rust src file with its `mod tests`), only the tests' scope holds helpers.
  const allFunctions = root && drafts.assertions.length > 0 ? functionRanges(root) : [];
  const functions = isTestPath
    ? allFunctions
    : testScopeFunctions(
        allFunctions,
        [...drafts.tests, ...methodDrafts].map((draft) => draft.node),
      );
  const direct = functions.length > 0 ? assertionHelpersOf(functions, drafts.assertions, ranged) : [];
  const named = root && direct.length > 0 ? inheritHelperChecks(root, functions, direct, ranged) : direct;
  const namedCalls = root && named.length > 0 ? helperCallFacts(root, named, language === "ruby") : [];
  if (root && namedCalls.length > 0) withBranchConditions(root, namedCalls, ranged);
  // Closures a test binds to a name and calls from its subtests: helpers of that test (`run := func(t, enc bool)`).
  const closures = root && drafts.assertions.length > 0 && ranged.length > 0 ? localClosureHelpers(root, [...drafts.assertions, ...namedCalls], ranged) : { helpers: [], calls: [] };
  if (root && closures.calls.length > 0) withBranchConditions(root, closures.calls, ranged);
  const helpers = closures.helpers.length > 0 ? [...named, ...closures.helpers] : named;
  const helperCalls = [...namedCalls, ...closures.calls];
  const checkNames = new Map<TestDraft, string[][]>();
  const bindings = new Map<TestDraft, ScopeBindings>();
  let constants: ReadonlyMap<string, string> | undefined;
  const constantsOf = (): ReadonlyMap<string, string> => (constants ??= root ? fileConstants(root) : new Map());
  // A call of a helper the file defines is that helper's checks, even when its name reads as a framework assertion
  // (`$this->assertSameData($e, $a)`, a test class's own method): the assertion the query matched there is dropped.
  const helperStarts = new Set(helperCalls.map((call) => call.startIndex));
  const assertions = helperStarts.size === 0 ? drafts.assertions : drafts.assertions.filter((assertion) => !helperStarts.has(assertion.startIndex));
  for (const assertion of [...assertions, ...helperCalls].sort((a, b) => a.startIndex - b.startIndex)) {
    const { startIndex, ...fact } = withoutSelfQualifier(assertion, drafts.selfQualifier);
    // What a checked local was declared with (AssertionFact.localValue), in the grammars whose checks keep the local as their subject.
    if (root && DECLARED_LOCALS.has(language) && fact.actualValue === undefined && fact.actual !== undefined && /^\$?[A-Za-z_]\w*$/.test(fact.actual)) {
      const node = root.descendantForIndex(startIndex);
      const value = node ? boundLocalValue(node, fact.actual) : undefined;
      if (value !== undefined && value !== fact.actual) fact.localValue = value;
    }
    // A member or index of a bound local (`params["a"]`, `config.port`): the local and its value (AssertionFact.actualBase).
    const memberOf = root && fact.actualValue === undefined && fact.actual !== undefined ? /^(\$?[A-Za-z_]\w*)(?=\s*\??\s*[.[])/.exec(fact.actual)?.[1] : undefined;
    if (root && memberOf !== undefined) {
      const node = root.descendantForIndex(startIndex);
      const value = node ? boundLocalValue(node, memberOf) : undefined;
      if (value !== undefined && value !== memberOf && !/^new\b/.test(value)) fact.actualBase = { local: memberOf, value };
    }
    // A helper call passing plain locals (`check_same(5, data)`): the call with each local written as what it was bound to, so
    // the helper's checks read the code under test as a direct check of that local does (AssertionFact.actualValue).
    if (root && fact.matcher.startsWith("helper ") && fact.actualValue === undefined && fact.actual !== undefined) {
      const node = root.descendantForIndex(startIndex);
      const value = node ? withBoundArguments(node, fact.actual) : fact.actual;
      if (value !== fact.actual) fact.actualValue = value;
    }
    const owners = innermostDrafts(ranged, startIndex);
    // How many times a check in loops over literal collections runs (assertions folded into a loop).
    const loopRows = root && owners[0] && LOOP_ROW_LANGUAGES.has(language) ? literalLoopRows(root, startIndex, owners[0].node) : undefined;
    if (loopRows !== undefined) fact.loopRows = loopRows;
    // A check (or helper call) in a loop that never runs (`for i in 0..0`, `for x in range(0)`, `foreach ([] as $x)`) can never fail.
    if (root && owners[0] && isInEmptyLoop(root, startIndex, owners[0].node)) fact.unreachable = true;
    for (const owner of owners) {
      const returnEnd = returnEnds.get(owner);
      const ownFact = dependencyFacts(owner, startIndex, returnEnd !== undefined && startIndex >= returnEnd ? { ...fact, unreachable: true } : fact, bindings, checkNames, constantsOf);
      const list = details.get(owner);
      if (list) list.push(ownFact);
      else details.set(owner, [ownFact]);
    }
  }
  const outside: SkipDraft[] = [];
  for (const skip of drafts.skips) {
    const owners = innermostDrafts(ranged, skip.startIndex);
    if (owners.length === 0) outside.push(skip);
    for (const owner of owners) {
      const isConditional = skip.flag === "skipped" && (skip.isConditional === true || (skip.node !== undefined && isConditionalWithin(skip.node, owner.node)));
      const flag: TestFlag = isConditional ? "conditional" : skip.flag;
      // The skip stops its test and every test nested in it after the skip (subtests, examples of a group).
      const ownerEnd = rangeOf.get(owner)?.end ?? 0;
      const stopped = ranged.filter((entry) => entry.draft === owner || (entry.start > skip.startIndex && entry.end <= ownerEnd)).map((entry) => entry.draft);
      for (const draft of stopped) {
        if (draft.marks[flag]) continue;
        const mark: { via: string; reason?: string; condition?: string } = skip.reason === undefined ? { via: skip.via } : { via: skip.via, reason: skip.reason };
        const condition = isConditional ? skipConditionOf(skip, owner.node) : undefined;
        if (condition !== undefined) mark.condition = condition;
        draft.marks[flag] = mark;
      }
    }
  }
  const providers =
    outside.length > 0
      ? applyIndirectSkips(
          outside,
          ranged.map((entry) => entry.draft),
          drafts.skipReach,
        )
      : [];
  const calls = drafts.skipReach?.recordsCalls ? recordCalls(drafts.skipReach.recordsCalls, ranged) : null;
  // What each test runs besides its checks (TestCase.callCount).
  const starts = new Map<TestDraft, number[]>();
  for (const assertion of [...assertions, ...helperCalls])
    for (const owner of innermostDrafts(ranged, assertion.startIndex)) (starts.get(owner) ?? starts.set(owner, []).get(owner))?.push(assertion.startIndex);
  for (const draft of [...drafts.tests, ...methodDrafts]) noteCalls(draft, starts.get(draft) ?? [], details.get(draft) ?? [], bindings);
  const helperLiterals = root ? helperLiteralsOf(root, [...drafts.tests, ...methodDrafts]) : new Map<TestDraft, string[]>();
  for (const [draft, literals] of helperLiterals) draft.helperLiterals = literals;
  const importedCallsOf = root && drafts.helperImports ? importedHelperCallsOf(drafts.helperImports, new Set(helpers.map((helper) => helper.name))) : null;
  const tests = drafts.tests.map((draft) => {
    const test = toTestCase(draft, details.get(draft) ?? [], checkNames.get(draft));
    const names = calls?.get(draft);
    if (names && names.size > 0) test.calls = [...names].sort();
    const imported = importedCallsOf?.(draft.node) ?? [];
    if (imported.length > 0) test.importedHelperCalls = imported;
    return test;
  });
  const facts: FileFacts = {
    language,
    isTestFile: isTestPath || tests.length > 0,
    tests,
    assertions: drafts.assertions.length,
    frameworks: [...new Set(drafts.frameworks)].sort(),
    recoveredErrorCount,
  };
  if (drafts.nonTestFunctions.length > 0) facts.nonTestFunctions = drafts.nonTestFunctions;
  if (helpers.length > 0) facts.assertionHelpers = helpers;
  const exported = [...(drafts.skipProviders ?? []), ...providers.flatMap(toProviderFact)];
  if (exported.length > 0) facts.skipProviders = exported;
  if (drafts.runEscapes && drafts.runEscapes.length > 0) facts.runEscapes = drafts.runEscapes;
  if (drafts.rowStructs && Object.keys(drafts.rowStructs).length > 0) facts.rowStructs = drafts.rowStructs;
  if (drafts.testDefiners && drafts.testDefiners.length > 0) facts.testDefiners = drafts.testDefiners;
  if (drafts.helperTests && drafts.helperTests.length > 0)
    facts.helperTests = drafts.helperTests.map(({ call, draft }) => ({ ...call, test: toTestCase(draft, details.get(draft) ?? [], checkNames.get(draft)) }));
  if (drafts.loads && drafts.loads.length > 0) facts.loads = drafts.loads;
  if (drafts.classScope) {
    const { classes, imports, marks } = drafts.classScope;
    facts.classScope = {
      classes: classes.map(({ methods, ...fact }) => ({
        ...fact,
        methods: methods.map((draft) => ({ test: toTestCase(draft, details.get(draft) ?? [], checkNames.get(draft)), marks: marksOf(draft) })),
      })),
      imports,
      marks,
    };
  }
  return facts;
}

/** A skip held by a function outside every test, and what kind of function that is. */
interface SkipProvider {
  kind: SkipProviderKind;
  fn: Node;
  flag: TestFlag;
  via: string;
  reason?: string;
  isConditional: boolean;
  /** The conditions the skip runs under from `fn` down (canonical, see {@link pathConditions}): a caller's joined with them may contradict. */
  conditions: string[];
}

/** The conditions `node` runs under within `container` (`if` arms and Go `switch` arms, canonical), outermost first. */
function pathConditions(node: Node, container: Node): string[] {
  const isContainer = (candidate: Node): boolean => isSame(candidate, container);
  return [...branchConditionsWithin(node, isContainer, (condition) => canonicalText(condition.text), negatedCondition), ...switchArmConditions(node, container, canonicalText, negatedCondition)];
}

/**
 * True when conditions joined hold one and its negation (`c=="a"` and
 * `c!="a"`): a path under them never runs. Only conditions that read no
 * call (`os.Getenv("CI")` may answer otherwise at the next hop: the caller
 * may set it in between) and no name local to a hop's function (`mode`,
 * a helper's parameter, is not the caller's `mode`) are compared: `hops`
 * gives those functions, read only when two conditions or more are joined.
 */
function isContradictory(conditions: readonly string[], hops: () => readonly Node[]): boolean {
  // One condition contradicts nothing: the hops' names are read only when two or more are joined.
  if (conditions.length < 2) return false;
  const locals = new Set(hops().flatMap((fn) => [...localNames(fn)]));
  const stable = conditions.filter((condition) => !condition.includes("(") && !(condition.match(/[A-Za-z_$][\w$]*/g) ?? []).some((name, index, names) => locals.has(name) && names[index - 1] !== "."));
  const held = new Set(stable);
  return stable.some((condition) => held.has(negatedCondition(condition)));
}

/** The names a function binds itself (its parameters and the names its body assigns or declares): they mean nothing to its callers. */
function localNames(fn: Node): Set<string> {
  const names = new Set<string>();
  for (const node of fn.descendantsOfType(["identifier"])) {
    if (!node) continue;
    const parent = node.parent;
    if (!parent) continue;
    if (/parameter|short_var_declaration|var_spec|assignment|let_declaration|variable_declarator/.test(parent.type) && parent.namedChild(0)?.id === node.id) names.add(node.text);
    if (parent.type === "expression_list" && /short_var_declaration|assignment/.test(parent.parent?.type ?? "") && parent.parent?.namedChild(0)?.id === parent.id) names.add(node.text);
    if (parent.type === "parameters" || parent.type === "typed_parameter" || parent.type === "default_parameter") names.add(node.text);
  }
  return names;
}

/** The default {@link SkipReach}: a named function is a helper its callers go through. */
function helperOf(fn: Node): SkipProviderKind | null {
  const name = fn.childForFieldName("name")?.text;
  return name ? { kind: "helper", name } : null;
}

/**
 * Marks the tests that skips outside every test reach (skip-reach.ts): those
 * in a setup's scope, those taking a skipping fixture, and those calling a
 * skipping helper (helpers that call skipping helpers skip too).
 */
function applyIndirectSkips(skips: readonly SkipDraft[], tests: readonly TestDraft[], reach: SkipReach | undefined): SkipProvider[] {
  const classify = reach?.classify ?? helperOf;
  const providers: SkipProvider[] = [];
  const seen = new Set<number>();
  for (const skip of skips) {
    if (!skip.node) continue;
    const fn = enclosingFunction(skip.node, reach?.functionTypes);
    if (!fn && reach?.topLevelLabel !== undefined) {
      const root = skip.node.tree.rootNode;
      const isConditional = skip.flag === "skipped" && (skip.isConditional === true || isConditionalWithin(skip.node, root));
      providers.push({
        kind: { kind: "setup", scope: null, label: reach.topLevelLabel },
        fn: root,
        flag: skip.flag,
        via: skip.via,
        isConditional,
        conditions: [],
        ...(skip.reason === undefined ? {} : { reason: skip.reason }),
      });
      continue;
    }
    if (!fn || seen.has(fn.startIndex)) continue;
    const kind = classify(fn);
    if (!kind) continue;
    seen.add(fn.startIndex);
    const isConditional = skip.flag === "skipped" && (skip.isConditional === true || isConditionalWithin(skip.node, fn));
    const provider: SkipProvider = { kind, fn, flag: skip.flag, via: skip.via, isConditional, conditions: pathConditions(skip.node, fn) };
    if (skip.reason !== undefined) provider.reason = skip.reason;
    providers.push(provider);
  }
  if (providers.length === 0) return [];
  const helpers = new Map<string, SkipProvider>();
  for (const provider of providers) if (provider.kind.kind === "helper" && !helpers.has(provider.kind.name)) helpers.set(provider.kind.name, provider);
  // A helper that calls a skipping helper skips too.
  const isBare = reach?.hasBareCalls === true;
  for (let round = 0; round < 3 && helpers.size > 0; round++) {
    let isChanged = false;
    for (const fn of candidateHelpers(tests, providers, reach)) {
      const kind = classify(fn);
      if (kind?.kind !== "helper" || helpers.has(kind.name)) continue;
      for (const [name, call] of callsIn(fn, isBare)) {
        const inner = helpers.get(name);
        if (!inner) continue;
        // A call reaching the skip only under conditions that contradict the skip's own never skips (logrus 108008340c).
        const conditions = [...pathConditions(call, fn), ...inner.conditions];
        if (isContradictory(conditions, () => [fn, inner.fn])) continue;
        helpers.set(kind.name, { ...inner, kind, fn, via: `${name}() (${inner.via})`, isConditional: inner.isConditional || isConditionalWithin(call, fn), conditions });
        isChanged = true;
        break;
      }
    }
    if (!isChanged) break;
  }
  const mark = (draft: TestDraft, provider: SkipProvider, isConditional: boolean, via: string): void => {
    const flag: TestFlag = provider.flag === "skipped" && isConditional ? "conditional" : provider.flag;
    if (draft.marks[flag] || (flag === "conditional" && draft.marks.skipped)) return;
    draft.marks[flag] = provider.reason === undefined ? { via } : { via, reason: provider.reason };
  };
  for (const provider of providers) {
    const kind = provider.kind;
    if (kind.kind === "setup") {
      for (const test of tests) {
        if (kind.scope && (test.node.startIndex < kind.scope.startIndex || test.node.endIndex > kind.scope.endIndex)) continue;
        mark(test, provider, provider.isConditional, `${kind.label} calls ${provider.via}`);
      }
    } else if (kind.kind === "fixture") {
      for (const test of tests) {
        if (parameterNames(test.node).includes(kind.name)) mark(test, provider, provider.isConditional, `fixture ${kind.name} calls ${provider.via}`);
      }
    }
  }
  for (const test of helpers.size === 0 ? [] : tests) {
    for (const [name, call] of callsIn(test.body ?? test.node, isBare)) {
      const helper = helpers.get(name);
      if (!helper || isContradictory([...pathConditions(call, test.node), ...helper.conditions], () => [test.node, helper.fn])) continue;
      mark(test, helper, helper.isConditional || isConditionalWithin(call, test.node), `${name}() calls ${helper.via}`);
    }
  }
  return [...providers.filter((provider) => provider.kind.kind !== "helper"), ...helpers.values()];
}

/** A provider as the facts record it (setups only when they reach the whole file: those may reach other files). */
function toProviderFact(provider: SkipProvider): SkipProviderFact[] {
  const kind = provider.kind;
  const flag: TestFlag = provider.flag === "skipped" && provider.isConditional ? "conditional" : provider.flag;
  const base = { flag, via: provider.via, ...(provider.reason === undefined ? {} : { reason: provider.reason }) };
  if (kind.kind === "setup") return kind.scope === null ? [{ kind: "setup", name: kind.label, ...base }] : [];
  return [{ kind: kind.kind, name: kind.name, ...base }];
}

/** TestCase.calls for each draft: its own-callee names (one pass over the file's calls) or its parameter names. */
function recordCalls(mode: "called-names" | "parameters", ranged: readonly Ranged[]): Map<TestDraft, Set<string>> {
  const calls = new Map<TestDraft, Set<string>>();
  if (mode === "parameters") {
    for (const { draft } of ranged) calls.set(draft, new Set(parameterNames(draft.node).filter((name) => name !== "self" && name !== "cls")));
    return calls;
  }
  const root = ranged[0]?.draft.node.tree.rootNode;
  if (!root) return calls;
  for (const [name, call] of allOwnCalls(root)) {
    for (const owner of innermostDrafts(ranged, call)) {
      const names = calls.get(owner) ?? new Set<string>();
      names.add(name);
      calls.set(owner, names);
    }
  }
  return calls;
}

/** Functions of the file that are not tests and could be helpers calling other helpers: those holding a skip's file's functions. */
function candidateHelpers(tests: readonly TestDraft[], providers: readonly SkipProvider[], reach: SkipReach | undefined): Node[] {
  const root = providers[0]?.fn.tree.rootNode;
  if (!root) return [];
  const types = [...(reach?.functionTypes ?? FUNCTION_TYPES)];
  const testStarts = new Set(tests.map((test) => test.node.startIndex));
  return root.descendantsOfType(types).filter((fn): fn is Node => fn !== null && !testStarts.has(fn.startIndex) && fn.childForFieldName("name") !== null);
}

/** Parameter names of a test's function (pytest fixtures are requested by name). */
function parameterNames(declaration: Node): string[] {
  const parameters = declaration.descendantsOfType("parameters")[0];
  if (!parameters) return [];
  return parameters.namedChildren.flatMap((param) => {
    if (!param) return [];
    const name = param.type === "identifier" ? param : (param.childForFieldName("name") ?? param.namedChild(0));
    return name?.type === "identifier" ? [name.text] : [];
  });
}

/**
 * The condition a conditional skip fires under, as source text: the whole
 * call for a call that decides by itself (`pytest.importorskip("x")`,
 * `assumeTrue(cond)`, `Skip.If(cond)`), else the condition it runs under
 * within `container` (skip-reach.ts conditionWithin); the module flags it
 * reads replaced by their definitions (module-flags.ts).
 */
function skipConditionOf(skip: SkipDraft, container: Node): string | undefined {
  if (!skip.node) return undefined;
  const condition = skip.isConditional ? skip.node.text : conditionWithin(skip.node, container);
  // A module-level flag (`NO_CBOR2`, set where `import cbor2` fails) is read as what it probes (module-flags.ts).
  return condition === undefined ? undefined : withModuleFlags(condition.replace(/\s+/g, " "), container.tree.rootNode);
}

/** A draft's marks as a list, in flag order. */
function marksOf(draft: TestDraft): MarkFact[] {
  return TEST_FLAG_ORDER.flatMap((flag) => {
    const mark = draft.marks[flag];
    if (!mark) return [];
    return [mark.reason === undefined ? { flag, via: mark.via } : { flag, via: mark.via, reason: mark.reason }];
  });
}

function toTestCase(draft: TestDraft, assertions: AssertionFact[], checkNames?: string[][]): TestCase {
  const flags: TestFlags = noFlags();
  const flagVia: Partial<Record<TestFlag, string>> = {};
  let skipReason: string | undefined;
  const marks = draft.marks.skipped ? { ...draft.marks, conditional: undefined } : draft.marks;
  for (const flag of TEST_FLAG_ORDER) {
    const mark = marks[flag];
    if (!mark) continue;
    flags[flag] = true;
    flagVia[flag] = mark.via;
    if (mark.reason !== undefined && skipReason === undefined && flag !== "focused") skipReason = mark.reason;
  }
  const test: TestCase = {
    id: [...draft.suitePath, draft.name].join(" > "),
    name: draft.name,
    suitePath: draft.suitePath,
    line: draft.line,
    flags,
    assertionCount: assertions.length,
    bodyHash: draft.bodyHash,
    assertionsDetail: assertions,
  };
  if (Object.keys(flagVia).length > 0) test.flagVia = flagVia;
  if (skipReason !== undefined) test.skipReason = skipReason;
  const skipCondition = marks.conditional?.condition;
  if (skipCondition !== undefined) test.skipCondition = skipCondition;
  if (draft.eachRows !== undefined) test.eachRows = draft.eachRows;
  if (draft.eachRowHashes !== undefined) test.eachRowHashes = draft.eachRowHashes;
  if (draft.eachRowLiterals !== undefined) test.eachRowLiterals = draft.eachRowLiterals;
  if (draft.eachRowElements !== undefined) test.eachRowElements = draft.eachRowElements;
  if (draft.literals !== undefined) test.literals = draft.literals;
  if (draft.helperLiterals !== undefined) test.helperLiterals = draft.helperLiterals;
  if (draft.callCount !== undefined) test.callCount = draft.callCount;
  if (draft.callNames !== undefined) test.callNames = draft.callNames;
  if (draft.directCalls !== undefined) test.directCalls = draft.directCalls;
  if (draft.exercisesDeprecated) test.exercisesDeprecated = true;
  if (draft.untitled === true) test.untitled = true;
  if (draft.covers !== undefined && draft.covers.length > 0) test.covers = [...new Set(draft.covers)].sort();
  if (checkNames !== undefined) test.checkNames = checkNames;
  return test;
}

/** A language module's extraction step over a parsed tree. */
export type DraftExtractor = (grammar: LoadedGrammar, root: Node, content: string) => ExtractedDrafts;

/** A language module's code-facts step over a parsed tree (see tree-sitter-code.ts); run for non-test paths only. */
export type CodeExtractor = (root: Node, content: string) => CodeFacts;

/**
 * The whole extract() of a tree-sitter language: load the grammar, parse,
 * run the language's draft extractor, assemble facts, and for a file that is
 * not test code the language's code extractor, if it has one. Bad content never
 * throws: an unparsable file gets `parseError`, an extractor failure
 * `notAnalyzed`. A missing or mismatched grammar does throw (see loadGrammar).
 */
export async function extractWithTreeSitter(
  language: string,
  queryNames: readonly string[],
  isTestPath: boolean,
  content: string,
  extractDrafts: DraftExtractor,
  extractCode?: CodeExtractor,
  /** The language keeps tests beside the code (Rust): a non-test path gets code facts even when it declares tests. */
  hasInlineTests = false,
): Promise<FileFacts> {
  const grammar = await loadGrammar(language, queryNames);
  const parsed = parseWithTreeSitter(grammar, content);
  if (!parsed.ok) return { language, isTestFile: isTestPath, tests: [], assertions: 0, frameworks: [], recoveredErrorCount: 0, parseError: parsed.error };
  try {
    const drafts = extractDrafts(grammar, parsed.tree.rootNode, content);
    const facts = assembleFacts(language, isTestPath, drafts, parsed.recoveredErrorCount, parsed.tree.rootNode);
    // The code rules judge product code only: a test file's suppressions and guards are never read. A product
    // file with inline tests (Rust) gets code facts; its syntax table skips the test items.
    if (extractCode && (!facts.isTestFile || (hasInlineTests && !isTestPath))) {
      facts.code = extractCode(parsed.tree.rootNode, content);
      facts.code.declared = declaredNames(parsed.tree.rootNode);
      const literals = productLiterals(parsed.tree.rootNode);
      if (literals.length > 0) facts.code.literals = literals;
      const members = enumMemberNames(parsed.tree.rootNode);
      if (members.length > 0) facts.code.enumMembers = members;
      const writes = writtenPlaces(parsed.tree.rootNode);
      if (writes.length > 0) facts.code.writes = writes;
      const versionFlags = versionFlagsOf(parsed.tree.rootNode);
      if (versionFlags.length > 0) facts.code.versionFlags = versionFlags;
      if (facts.isTestFile) facts.hasInlineTests = true;
    }
    return facts;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    debug(() => `${language} extractor failed: ${error instanceof Error ? error.stack : detail}`);
    return { language, isTestFile: isTestPath, tests: [], assertions: 0, frameworks: [], recoveredErrorCount: 0, notAnalyzed: `extractor failed: ${detail.split("\n")[0]}` };
  } finally {
    parsed.tree.delete();
  }
}
