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
}

/**
 * True when a check asserts that the code rejects its input: a `throws`
 * relation (pytest.raises, assertThrows, toThrow, assert_raises), or Go's
 * `recover()` compared with the wanted panic.
 */
export function isRejectionCheck(check: Check): boolean {
  return check.relation === "throws" || /^recover\(\s*\)$/.test(check.subject);
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
