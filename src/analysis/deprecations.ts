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
  go: /^\s*\/\/\s*Deprecated:/,
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
  const pattern = NOTICE[language];
  if (!pattern || !pattern.test(content)) return [];
  const comment = COMMENT_LINE[language];
  const lines = content.split("\n");
  const notices: string[] = [];
  lines.forEach((line, index) => {
    if (!pattern.test(line)) return;
    if (comment?.test(line)) return;
    if (/^\s*(?:except|import|from)\b|filterwarnings|simplefilter|catch_warnings/.test(line)) return;
    // An annotation deprecates the declaration after it: the notice is both, so that one kept undeprecated is no retirement.
    const declaration = ANNOTATED.has(language) ? declarationAfter(lines, index) : undefined;
    notices.push(declaration === undefined ? line.trim() : `${line.trim()} ${declaration.trim()}`);
  });
  return notices;
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
