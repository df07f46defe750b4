/**
 * Rejection rows dropped as the feature lands (issue 9, sweep of
 * google/go-cmp 391980c4b2): a table test that checks inputs are rejected
 * (a panic, a thrown error) loses a row when the change makes the code
 * accept that input, and the same input arrives in a table that checks the
 * accepted result. The old expectation is wrong after the product change; the
 * input is still checked, now for its answer. The row is not lost when
 *
 * - every check of its table is a rejection check ({@link isRejectionCheck}),
 * - its elements are known by name (Go keyed struct rows, pytest rows by
 *   their argnames: TestCase.eachRowElements),
 * - each of its elements other than the expected rejection (the fields its
 *   checks compare against: Go's `wantPanic: "..."` read as `tt.wantPanic`,
 *   a pytest argname `exc` read by `pytest.raises(exc)`) appears, as written, in one row
 *   of a table of the after side whose checks are not all rejections, and
 * - the change edits product code (a removed rejection row with no product
 *   change is still a lost test: the code did not start accepting anything).
 *
 * The same holds the other way round and between any two tables (sweep of
 * serilog/serilog 0e316b7cb0: rows a feature flag accepted move to the table
 * of malformed input as the grammar gets stricter): a removed row whose
 * literals all reappear in one row of another table of the after side, whose
 * checks call the same code, is still fed to that code, now for another
 * answer ({@link isMovedToOtherTable}); again only when the change edits
 * product code, since a row moved to the other table while the product is
 * untouched is the expectation changed to what the code gives.
 *
 * A removed row is also followed when a new table of the after side builds
 * that row's case from a template (sweep of tox-dev/filelock 0dfa1b20fb:
 * the `mode=banana` record leaves the table of unreadable records, and a
 * new test feeds `f"marker/2\npid=4242\nhost=somehost\nmode={published}\n"`
 * with `published` = "banana" to the same parser): the words of the row's
 * string that none of its table's kept rows has (what makes it a case of
 * its own: `banana`) are where the template, filled with one of the new
 * table's rows, puts them, in a string of the same shape (the same words
 * and separators around them, other words free: `pid=1` -> `pid=4242`)
 * ({@link isRebuiltFromTemplate}). Again only when the change edits product
 * code.
 */
import { calledNames } from "./likeness.js";
import type { Check } from "./normalise.js";
import type { TestCase } from "../facts.js";

/** A table of the after side: its rows' element texts, and whether it checks rejections only. */
export interface AfterTable {
  rows: readonly (readonly string[])[];
  isRejection: boolean;
  /** The test the table is. */
  test?: TestCase;
  /** Its rows' literals in literalKey form (TestCase.eachRowLiterals). */
  literalRows?: readonly (readonly string[])[];
  /** The names its checks' subjects call ({@link calledNames}) and its body calls (TestCase.calls). */
  calls?: ReadonlySet<string>;
  /** Its checks' subjects (canonical text): where a template its rows fill is written. */
  subjects?: readonly string[];
}

/**
 * A subject that reads the error a call returned instead of raising it, as
 * a member: `$result->error()->get()`, `parse(x).unwrap_err()`,
 * `parse(x).is_err()`, `result.errors`, `res.Err()`. A bare `err` is left
 * out: Go's `if err != nil { t.Fatal(err) }` checks that there is none.
 */
const ERROR_ACCESSOR = /(?:\.|->|::)(?:error|errors|err|unwrap_err|expect_err|is_err|failure|Error|Err|Errors|IsFailure|IsError)\b(?!\s*\(\s*\)\s*(?:\.|->)?\s*(?:is_none|isEmpty|is_empty|IsEmpty)\b)/;

/**
 * True when a check asserts that the code rejects its input: a `throws`
 * relation (pytest.raises, assertThrows, toThrow, assert_raises), Go's
 * `recover()` compared with the wanted panic, or a positive check of an
 * error the call returned ({@link ERROR_ACCESSOR}: `assert!(parse(x).is_err())`,
 * `assertSame(msg, $result->error()->get())`).
 */
export function isRejectionCheck(check: Check): boolean {
  if (check.relation === "throws" || /^recover\(\s*\)$/.test(check.subject)) return true;
  // `assert result.error is None`, `assertNull($r->error())`, `equal(r.errors, [])`: there is no error.
  const saysNone =
    check.relation === "falsy" ||
    check.relation === "nullish" ||
    (check.relation === "length" && check.expected === "0") ||
    /^(?:null|nil|None|false|False|undefined|\[\]|\{\}|0)$/.test(check.expected ?? "");
  return !check.isNegated && !saysNone && ERROR_ACCESSOR.test(check.subject);
}

/**
 * The code whose rejection a rejection check ({@link isRejectionCheck})
 * asserts, canonical: a `throws` check's subject (`tomllib.loads(s)`), or
 * the subject up to the error accessor it reads (`parse(x).is_err()` ->
 * `parse(x)`, `$r->error()->get()` -> `$r`). Null for any other check, and
 * for Go's `recover()`, which names no call.
 */
export function rejectedCode(check: Check): string | null {
  if (!isRejectionCheck(check) || /^recover\(\s*\)$/.test(check.subject)) return null;
  if (check.relation === "throws") return check.subject === "" ? null : check.subject;
  const accessor = ERROR_ACCESSOR.exec(check.subject);
  return accessor && accessor.index > 0 ? check.subject.slice(0, accessor.index) : null;
}

/** True when the test has checks and every one of them is a rejection check. */
export function isRejectionTest(checks: readonly Check[]): boolean {
  return checks.length > 0 && checks.every(isRejectionCheck);
}

/** The key of a keyed row element (`wantPanic: "x"` -> `wantPanic`), or null for a positional one. */
function elementKey(element: string): string | null {
  return /^([A-Za-z_]\w*)\s*:(?!=)/.exec(element)?.[1] ?? null;
}

/**
 * The elements of a rejection row that are its inputs: all but the keyed
 * fields that the test's checks read as their expectation (`tt.wantPanic` in
 * the expected value drops `wantPanic: ...`; `pytest.raises(exc)` drops `exc: ...`). Returns null when no element is
 * left or when the row has positional elements (which of them is the
 * expectation cannot be told, so the row is not judged followed).
 */
export function rowInputs(elements: readonly string[], checks: readonly Check[]): string[] | null {
  const expectations = checks.map((check) => [check.expected, check.errorType, check.message].filter((text) => text !== undefined).join(" "));
  const inputs: string[] = [];
  for (const element of elements) {
    const key = elementKey(element);
    if (key === null) return null;
    const isExpected = expectations.some((text) => new RegExp(`(?:^|\\W)${key}\\b`).test(text));
    if (!isExpected) inputs.push(element);
  }
  return inputs.length > 0 ? inputs : null;
}

/** True when one row of an accepting (not rejection-only) table holds every input element. */
export function isAcceptedAfter(inputs: readonly string[], tables: readonly AfterTable[]): boolean {
  return tables.some((table) => !table.isRejection && table.rows.some((row) => inputs.every((input) => row.includes(input))));
}

/**
 * True when a removed row (its literals, literalKey form) of a table whose
 * checks are `checks` moved to a row of another after table (not
 * `successor`, the table's own after version) whose checks or body call a
 * name the table's checks or body (`calls`: TestCase.calls) call
 * (`parser.Parse(template)` and `new TemplateParser().Parse(template)`;
 * `slug(text)` inside `pytest.raises`): every literal of the row is in
 * that row (as a multiset). A row without literals moves nowhere.
 */
export function isMovedToOtherTable(row: readonly string[], checks: readonly Check[], tables: readonly AfterTable[], successor: TestCase, calls: readonly string[] = []): boolean {
  if (row.length === 0) return false;
  const called = new Set([...checks.flatMap((check) => [...calledNames(check.subject)]), ...calls]);
  if (called.size === 0) return false;
  return tables.some(
    (table) =>
      table.test !== successor &&
      [...(table.calls ?? [])].some((name) => called.has(name)) &&
      (table.literalRows ?? []).some((cells) => {
        const left = new Map<string, number>();
        for (const cell of cells) left.set(cell, (left.get(cell) ?? 0) + 1);
        return row.every((literal) => {
          const count = left.get(literal) ?? 0;
          left.set(literal, count - 1);
          return count > 0;
        });
      }),
  );
}

/** The string a double-quoted literal spells (its escapes read as JSON's), or null when it is none. */
function stringValue(literal: string): string | null {
  if (!/^"(?:[^"\\]|\\.)*"$/s.test(literal)) return null;
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

/** The value of a keyed row element (`record: "x"` -> `"x"`), or null for a positional one. */
function elementValue(element: string): string | null {
  return /^[A-Za-z_]\w*\s*:(?!=)\s*([\s\S]*)$/.exec(element)?.[1]?.trim() ?? null;
}

/** A string cut into its words (runs of letters, digits and `_`) and the separators between them, alternating, separators first. */
function wordsOf(text: string): { words: string[]; separators: string[] } {
  const words: string[] = [];
  const separators: string[] = [];
  let rest = text;
  for (;;) {
    const match = /[\p{L}\p{N}_]+/u.exec(rest);
    if (!match) break;
    separators.push(rest.slice(0, match.index));
    words.push(match[0]);
    rest = rest.slice(match.index + match[0].length);
  }
  separators.push(rest);
  return { words, separators };
}

/**
 * True when a removed row (its keyed elements, TestCase.eachRowElements) of
 * a table whose checks are `checks`, beside the table's kept rows, is
 * rebuilt by another after table (not `successor`) whose checks call what
 * the table's checks call: one of that table's subjects holds a template
 * (a Python f-string) whose placeholder names one of its keyed elements,
 * and filled with one of its rows it is a string of the same words and
 * separators as a string element of the removed row, the same word
 * wherever the removed string has a word none of the kept rows has (and
 * there is at least one such word). See the module comment.
 */
export function isRebuiltFromTemplate(removed: readonly string[], kept: readonly (readonly string[])[], checks: readonly Check[], tables: readonly AfterTable[], successor: TestCase): boolean {
  const called = new Set(checks.flatMap((check) => [...calledNames(check.subject)]));
  if (called.size === 0) return false;
  const keptWords = new Set(kept.flatMap((row) => row.flatMap((element) => wordsOf(stringValue(elementValue(element) ?? "") ?? "").words)));
  const strings = removed.map((element) => stringValue(elementValue(element) ?? "")).filter((value): value is string => value !== null);
  return strings.some((value) => {
    const shape = wordsOf(value);
    const novel = shape.words.map((word) => !keptWords.has(word));
    if (!novel.includes(true)) return false;
    return tables.some((table) => {
      if (table.test === successor || ![...(table.calls ?? [])].some((name) => called.has(name))) return false;
      const templates = (table.subjects ?? []).flatMap((subject) => [...subject.matchAll(/\bf("(?:[^"\\]|\\.)*")/g)].map((match) => match[1] as string));
      return templates.some((template) =>
        table.rows.some((row) => {
          let filled = template;
          for (const element of row) {
            const name = /^([A-Za-z_]\w*)\s*:/.exec(element)?.[1];
            const cell = stringValue(elementValue(element) ?? "");
            if (name === undefined || cell === null || !filled.includes(`{${name}}`)) continue;
            filled = filled.split(`{${name}}`).join(JSON.stringify(cell).slice(1, -1));
          }
          const text = filled === template ? null : stringValue(filled);
          if (text === null || /\{[A-Za-z_]\w*\}/.test(text)) return false;
          const rebuilt = wordsOf(text);
          return (
            rebuilt.words.length === shape.words.length &&
            rebuilt.separators.every((separator, index) => separator === shape.separators[index]) &&
            shape.words.every((word, index) => !novel[index] || rebuilt.words[index] === word)
          );
        }),
      );
    });
  });
}

/**
 * Classes of error results a validator returns rather than throws
 * (`InvalidEmail`, `ValidationFailure`, `ErrorResult`): never a throwable
 * (`…Exception`, `…Error`, whose return in place of a throw lets the input
 * through) nor a handler (`ErrorHandler`). languages/php.ts reads such a
 * return as a refusal, rules/validation.ts the reason it wraps as the
 * refusal's class.
 */
export const ERROR_RESULT_CLASS = /^(?!\w*(?:Exception|Error|Handler)$)(?:Invalid[A-Z]\w*|Failed[A-Z]\w*|\w+Failure|Error(?:Result|Response|Outcome))$/;
