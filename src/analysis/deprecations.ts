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
import type { FileFacts, TestCase } from "./facts.js";

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
  python: /\b(?:Pending)?DeprecationWarning\b|\bFutureWarning\b|@(?:\w+\.)*deprecated\b/,
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
 * (CodeFacts.deprecations), in order; empty for a language without a
 * pattern. A Python `except DeprecationWarning`/`import` line and a
 * `filterwarnings`/`simplefilter` call silence or name a warning, they
 * announce nothing, and are left out.
 */
export function deprecationNotices(language: string, content: string): string[] {
  const pattern = NOTICE[language];
  if (!pattern || !pattern.test(content)) return [];
  const notices: string[] = [];
  for (const line of content.split("\n")) {
    if (!pattern.test(line)) continue;
    if (/^\s*(?:except|import|from)\b|filterwarnings|simplefilter|catch_warnings/.test(line)) continue;
    notices.push(line.trim());
  }
  return notices;
}

/** The product files of a change, as before/after facts. */
interface FactsPair {
  path: string;
  before: FileFacts | null;
  after: FileFacts | null;
}

/**
 * The notices a change retired: for each product file that announces
 * fewer deprecations after the change than before (a reworded notice
 * retires none), the before notices missing from its after side (the
 * first `lost` of them when all were reworded too). Empty when none.
 */
export function retiredDeprecations(pairs: readonly FactsPair[]): string[] {
  const retired: string[] = [];
  for (const pair of pairs) {
    if (pair.before?.isTestFile || pair.after?.isTestFile) continue;
    const before = pair.before?.code?.deprecations ?? [];
    const after = pair.after?.code?.deprecations ?? [];
    const lost = before.length - after.length;
    if (lost <= 0) continue;
    const kept = [...after];
    const gone = before.filter((notice) => {
      const index = kept.indexOf(notice);
      if (index === -1) return true;
      kept.splice(index, 1);
      return false;
    });
    retired.push(...(gone.length > 0 ? gone : before).slice(0, lost).map((notice) => `${pair.path}: ${notice}`));
  }
  return retired;
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
