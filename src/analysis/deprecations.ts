/**
 * Deprecation notices of product code, and the deleted tests that checked
 * one. A library announces that a path is going away with a notice (Python
 * `warnings.warn(…, DeprecationWarning)`, PHP `trigger_deprecation(…)`,
 * Node `process.emitWarning(…, "DeprecationWarning")`, …) and later removes
 * the path, its notice and the tests of the notice together: the tests went
 * with the code they tested (DESIGN.md: tests deleted together with the
 * code they test are a feature removal, medium), not lost. rules/features.ts
 * reclassifyDeletions reads both sides.
 */

import type { Check } from "./checks/index.js";
import { lastSegment } from "./dependency-tokens.js";
import type { TestCase } from "./facts.js";
import type { RulePair } from "./rules/context.js";

/**
 * What announces a deprecation, per language id (languages/index.ts), as
 * a line pattern. Sources: Python's warnings module (DeprecationWarning,
 * PendingDeprecationWarning, FutureWarning) and PEP 702 `@deprecated`; PHP
 * `E_USER_DEPRECATED` and Symfony's `trigger_deprecation`; Node's
 * `process.emitWarning` type "DeprecationWarning", `util.deprecate` and the
 * `depd` package; Ruby `warn` of a deprecation, `ActiveSupport::Deprecation`
 * and `Warning[:deprecated]`/`category: :deprecated`; Java `@Deprecated`;
 * C# `[Obsolete]`; Rust `#[deprecated]`; Go's `// Deprecated:` doc
 * paragraph (go.dev/wiki/Deprecated).
 */
const NOTICE: Readonly<Record<string, RegExp>> = {
  python: /\b(?:(?:Pending)?DeprecationWarning|FutureWarning)\s*[,)]|category\s*=\s*(?:Pending)?DeprecationWarning|@(?:\w+\.)*deprecated\b/,
  php: /\btrigger_deprecation\s*\(|\bE_USER_DEPRECATED\b/,
  javascript: /["'`]DeprecationWarning["'`]|\b(?:util\.)?deprecate\s*\(|\bdepd\s*\(/,
  ruby: /\bwarn\b.*deprecat|Deprecation\.(?:warn|new)|deprecator\.warn|category:\s*:deprecated/i,
  java: /@Deprecated\b/,
  csharp: /\[\s*(?:System\.)?Obsolete(?:Attribute)?\b/,
  rust: /#\[\s*deprecated\b/,
  go: /^\s*\/\/\s*Deprecated:/m,
};

/**
 * The deprecation notices of a product file's source, as its trimmed lines
 * (an annotation's with the declaration it is on appended), in order
 * (CodeFacts.deprecations); empty for a language without a pattern.
 * Comment lines are none (Go's `// Deprecated:` aside). A Python `except DeprecationWarning`/`import` line and a
 * `filterwarnings`/`simplefilter` call silence or name a warning, they
 * announce nothing, and are left out.
 */
export function deprecationNotices(language: string, content: string): string[] {
  const lines = content.split("\n");
  return noticeLines(language, content, lines).map((index) => {
    const line = lines[index] as string;
    // An annotation deprecates the declaration after it: the notice is both, so that one kept undeprecated is no retirement.
    const declaration = ANNOTATED.has(language) ? declarationAfter(lines, index) : undefined;
    return declaration === undefined ? line.trim() : `${line.trim()} ${declaration.trim()}`;
  });
}

/** The indexes of the lines of `lines` (the split `content`) that announce a deprecation (see {@link deprecationNotices}). */
function noticeLines(language: string, content: string, lines: readonly string[]): number[] {
  const pattern = NOTICE[language];
  if (!pattern || !pattern.test(content)) return [];
  const comment = COMMENT_LINE[language];
  const found: number[] = [];
  lines.forEach((line, index) => {
    if (!pattern.test(line)) return;
    if (comment?.test(line)) return;
    if (/^\s*(?:except|import|from)\b|filterwarnings|simplefilter|catch_warnings/.test(line)) return;
    found.push(index);
  });
  return found;
}

/**
 * The names a product file's deprecation notices deprecate, sorted,
 * unique (CodeFacts.deprecatedNames; empty when none):
 * - an annotation's declaration (`@Deprecated`, `[Obsolete]`,
 *   `#[deprecated]`, Python `@deprecated`) and the declaration under Go's
 *   `// Deprecated:` paragraph (`func (p *Pool) Len()` -> `Len`);
 * - for a warning call (Python `warnings.warn`, PHP `trigger_deprecation`,
 *   Node `process.emitWarning`/`util.deprecate`, Ruby `warn`): the names
 *   its message quotes before it names a replacement (`"The 'pragma'
 *   attribute is deprecated … Use 'cache_control' instead"` -> `pragma`),
 *   the names the conditions it runs under test (`if name ==
 *   "CharsetAccept":`, `if "cls" in kwargs:`, `if (options.legacy)`), and
 *   the function it is in when it runs there unconditionally (a property
 *   or method that now warns whenever it is used; not a constructor or a
 *   dispatcher such as `__getattr__`), the target of `x = deprecate(…)`.
 * Read by rules/dependencies.ts findNewlyDeprecated: the checks of a name
 * the change starts to deprecate went with the announced feature.
 */
export function deprecatedNames(language: string, content: string): string[] {
  const lines = content.split("\n");
  const names = new Set<string>();
  for (const index of noticeLines(language, content, lines)) {
    const line = lines[index] as string;
    if (ANNOTATED.has(language) || (language === "python" && /^\s*@/.test(line))) {
      const declaration = declarationAfter(lines, index);
      const name = declaration === undefined ? null : (deprecatedName(`@Deprecated ${declaration.trim()}`) ?? /\b(?:def|class)\s+(\w+)/.exec(declaration)?.[1] ?? null);
      if (name !== null) names.add(name);
      continue;
    }
    if (language === "go") {
      const name = goDeclaredName(lines, index);
      if (name !== null) names.add(name);
      continue;
    }
    for (const name of warnedNames(language, lines, index)) names.add(name);
  }
  return [...names].sort();
}

/** The name declared under a Go doc comment that holds `// Deprecated:` at `index`: a func, method, type, or the const, var or field the comment is on. */
function goDeclaredName(lines: readonly string[], index: number): string | null {
  for (let at = index + 1; at < lines.length; at++) {
    const next = (lines[at] as string).trim();
    if (next.startsWith("//")) continue;
    if (next === "") return null;
    return /^func\s+(?:\([^)]*\)\s*)?(\w+)/.exec(next)?.[1] ?? /^(?:type|const|var)\s+(\w+)/.exec(next)?.[1] ?? /^(\w+)\b/.exec(next)?.[1] ?? null;
  }
  return null;
}

/** The header of a function, per language: group 1 (or the first group set) its name. */
const FUNCTION_HEADER: Readonly<Record<string, RegExp>> = {
  python: /^\s*(?:async\s+)?def\s+(\w+)/,
  ruby: /^\s*def\s+(?:self\.)?(\w+[?!=]?)/,
  php: /\bfunction\s+&?(\w+)\s*\(/,
  javascript:
    /\bfunction\s*\*?\s*(\w+)\s*\(|^\s*(?:(?:static|async|get|set|public|private|protected|override)\s+)*(\w+)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$|^\s*(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)/,
};

/** Functions whose name says nothing deprecated when they warn: constructors (a parameter is deprecated there) and dispatchers (a name they resolve is). */
const GENERIC_FUNCTIONS: ReadonlySet<string> = new Set([
  "__init__",
  "__new__",
  "__getattr__",
  "__getattribute__",
  "__init_subclass__",
  "__call__",
  "__construct",
  "__get",
  "__call",
  "__callStatic",
  "constructor",
  "initialize",
  "method_missing",
  "respond_to_missing?",
]);

/** Keywords a method-header pattern also matches (`if (x) {`): blocks, not functions. */
const KEYWORDS: ReadonlySet<string> = new Set(["if", "for", "while", "switch", "catch", "with", "elseif", "foreach"]);

/** A line that opens a condition, per language family. */
const CONDITION = /^\s*(?:\}\s*)?(?:if|elif|elsif|unless|else\s*if|when|case)\b/;

/** Where a message names what replaces the deprecated thing: the names quoted after it are the replacement, not deprecated. */
const REPLACEMENT = /\b(?:use|instead|in\s+favou?r\s+of|replaced?\s+(?:by|with)|prefer|migrate\s+to|switch\s+to|see)\b/i;

/** A name quoted in a message: `'pragma'`, `"CharsetAccept"`, `` `deliver_later` ``, ``` ``cls`` ```, `"Request.parameter_storage_class"`, `'render()'` (group 1). */
const QUOTED_NAME = /(?:''|``|['"`])([A-Za-z_$][\w$]*(?:(?:\.|::|->|#)[A-Za-z_$][\w$]*)*)(?:\(\))?(?:''|``|['"`])/g;

/**
 * The names a warning call at `lines[index]` deprecates (see
 * {@link deprecatedNames}): the names its message quotes before a
 * replacement, those its enclosing conditions test, and its function's
 * name when no condition lies between.
 */
function warnedNames(language: string, lines: readonly string[], index: number): string[] {
  const names: string[] = [];
  const statement = statementAround(lines, index);
  // The message: the statement's string literals (implicitly concatenated ones joined), then the sentences that say what
  // is deprecated, up to where they name a replacement; a first literal that is only a name (`deprecated("pragma", …)`) is one.
  const literals = [...statement.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
  const first = literals[0];
  if (first !== undefined && /^[A-Za-z_$][\w$]*(?:(?:\.|::|->|#)[A-Za-z_$][\w$]*)*(?:\(\))?$/.test(first)) names.push(lastSegment(first.replace(/\(\)$/, "")));
  const sentences = literals
    .join("")
    .split(/\.\s|;\s/)
    .filter((sentence) => DEPRECATION_WORD.test(sentence) || /\bremoved?\b/i.test(sentence));
  for (const sentence of sentences) for (const match of (sentence.split(REPLACEMENT)[0] as string).matchAll(QUOTED_NAME)) names.push(lastSegment(match[1] as string));
  const assigned = /^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?(?:[\w$]+\.)*([\w$]+)\s*=\s*(?:util\.)?(?:deprecate|deprecated)\s*\(/.exec(statement);
  if (assigned) names.push(assigned[1] as string);
  const header = FUNCTION_HEADER[language];
  let level = indentOf(lines[index] as string);
  let conditional = false;
  for (let at = index - 1; at >= 0 && level > 0; at--) {
    const line = lines[at] as string;
    if (line.trim() === "" || indentOf(line) >= level) continue;
    level = indentOf(line);
    const fn = CONDITION.test(line) ? null : header?.exec(line);
    if (fn) {
      const name = fn.slice(1).find((group) => group !== undefined);
      if (name !== undefined && KEYWORDS.has(name)) continue;
      if (!conditional && name !== undefined && !GENERIC_FUNCTIONS.has(name)) names.push(name);
      break;
    }
    if (/^\s*(?:class|module|interface|trait)\b/.test(line)) break;
    if (!CONDITION.test(line)) continue;
    conditional = true;
    for (const match of line.matchAll(QUOTED_NAME)) names.push(lastSegment(match[1] as string));
    for (const match of line.matchAll(/(?:\.|->|::\$?)([A-Za-z_]\w*)\b(?!\s*\()/g)) names.push(match[1] as string);
  }
  // The warning's own category (`"DeprecationWarning"`) and code (`"DEP0001"`) name no member.
  return names.filter((name) => name.length > 1 && !/^(?:None|null|nil|true|false|self|this|undefined)$/.test(name) && !DEPRECATION_WORD.test(name) && !/Warning$|^[A-Z]+\d+$/.test(name));
}

/** The leading spaces of a line, a tab counted as one. */
function indentOf(line: string): number {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

/**
 * The text of the statement that holds `lines[index]`: back to the line
 * that opens the parenthesis still open there, on to the line that closes
 * it (12 lines at most each way).
 */
function statementAround(lines: readonly string[], index: number): string {
  const depthOf = (line: string): number => (line.match(/[([]/g)?.length ?? 0) - (line.match(/[)\]]/g)?.length ?? 0);
  let start = index;
  for (let open = 0, at = index - 1; at >= Math.max(0, index - 12); at--) {
    open += depthOf(lines[at] as string);
    if (open > 0) {
      start = at;
      break;
    }
  }
  let end = index;
  for (let depth = 0, at = start; at < Math.min(lines.length, index + 13); at++) {
    depth += depthOf(lines[at] as string);
    end = at;
    if (at >= index && depth <= 0) break;
  }
  return lines.slice(start, end + 1).join("\n");
}

/** The first line after `lines[index]` that is no blank line, annotation or attribute: the declaration an annotation is on. */
function declarationAfter(lines: readonly string[], index: number): string | undefined {
  for (let at = index + 1; at < lines.length; at++) {
    const next = lines[at] as string;
    if (next.trim() !== "" && !/^\s*(?:@|#\[|\[)/.test(next)) return next;
  }
  return undefined;
}

/** Languages whose notice is an annotation on the next declaration. */
const ANNOTATED: ReadonlySet<string> = new Set(["java", "csharp", "rust"]);

/** A line that is only a comment, per language id (Go's notice is one: none there). */
const COMMENT_LINE: Readonly<Record<string, RegExp>> = {
  python: /^\s*#/,
  ruby: /^\s*#/,
  php: /^\s*(?:#|\/\/|\/?\*)/,
  javascript: /^\s*(?:\/\/|\/?\*)/,
  java: /^\s*(?:\/\/|\/?\*)/,
  csharp: /^\s*(?:\/\/|\/?\*)/,
  rust: /^\s*(?:\/\/|\/?\*)/,
};

/** The name an annotation notice deprecates (`@Deprecated public static Parser lenient()` -> `lenient`), or null for other notices. */
function deprecatedName(notice: string): string | null {
  if (!/^(?:@Deprecated|\[\s*(?:System\.)?Obsolete|#\[\s*deprecated)/.test(notice)) return null;
  return (
    /([A-Za-z_]\w*)\s*(?:<[^>]*>)?\s*\(/.exec(notice.replace(/^\S+(?:\([^)]*\))?\]?\s*/, ""))?.[1] ?? /(?:class|struct|enum|interface|trait|const|static|fn)\s+([A-Za-z_]\w*)/.exec(notice)?.[1] ?? null
  );
}

/**
 * The notices a change retired: when the change's product files announce
 * fewer deprecations after it than before, all files together (a notice
 * moved to another file, or reworded, retires none), the before notices
 * missing from the after side (the first of them when all were reworded),
 * as `path: notice`. An annotation notice (`@Deprecated`, `[Obsolete]`,
 * `#[deprecated]`) counts as retired only when the name it deprecates is
 * defined by no product file after the change: a method kept and no
 * longer deprecated retires nothing. Empty when none.
 */
export function retiredDeprecations(pairs: readonly RulePair[]): string[] {
  const product = pairs.filter((pair) => !pair.before?.isTestFile && !pair.after?.isTestFile);
  const defined = new Set(product.flatMap((pair) => [...(pair.after?.code?.functions ?? []).map((fn) => fn.name.slice(fn.name.lastIndexOf(".") + 1)), ...(pair.after?.code?.declared ?? [])]));
  const before = product.flatMap((pair) => (pair.before?.code?.deprecations ?? []).map((notice) => ({ path: pair.path, notice })));
  const after = product.flatMap((pair) => pair.after?.code?.deprecations ?? []);
  const kept = [...after];
  const gone = before.filter(({ notice }) => {
    const index = kept.indexOf(notice);
    if (index === -1) return true;
    kept.splice(index, 1);
    return false;
  });
  const retired = gone.filter(({ notice }) => {
    const name = deprecatedName(notice);
    return name === null || !defined.has(name);
  });
  const lost = before.length - after.length - (gone.length - retired.length);
  if (lost <= 0) return [];
  return (retired.length > 0 ? retired : before).slice(0, lost).map(({ path, notice }) => `${path}: ${notice}`);
}

/** Words of a deprecation in a check or a title: `DeprecationWarning`, `expectDeprecation`, `deprecated_call`, `assert_deprecated`, "is deprecated", `@group legacy` tests named so. */
const DEPRECATION_WORD = /deprecat|obsolete/i;

/**
 * True when a test checked a deprecation: one of its checks names one (its
 * subject, expected value, error type or message: `assertIs(w[0].category,
 * DeprecationWarning)`, `pytest.deprecated_call()`, `expectDeprecation('…
 * is deprecated')`, `output(/deprecated/).to_stderr`), or its title says
 * it is about one (`test_info_deprecated`, `testDeprecatedSyntax`), or it
 * declares that it exercises deprecated code (TestCase.exercisesDeprecated:
 * PHP `@group legacy`, Java `@SuppressWarnings("deprecation")`, Rust
 * `#[allow(deprecated)]`).
 */
export function checksDeprecation(test: TestCase, checks: readonly Check[]): boolean {
  if (test.exercisesDeprecated || DEPRECATION_WORD.test(test.name)) return true;
  if ((test.assertionsDetail ?? []).some((fact) => DEPRECATION_WORD.test(fact.matcher))) return true;
  return checks.some((check) => [check.subject, check.expected, check.errorType, check.message].some((text) => text !== undefined && DEPRECATION_WORD.test(text)));
}
