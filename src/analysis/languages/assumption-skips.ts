/**
 * Run-time skips of the JVM and .NET test frameworks, found by call name
 * (issue 9, "assumptions that are always false"):
 *
 * - JUnit 4/5: `assumeTrue(c)`, `assumeFalse(c)`, `assumeThat(...)`,
 *   `assumeNotNull(...)`, `assumeNoException(...)` (on `Assume`,
 *   `Assumptions` or statically imported), `Assumptions.abort()`, and
 *   `throw new AssumptionViolatedException(...)` / `TestAbortedException`
 *   / TestNG `SkipException`.
 * - NUnit/MSTest/xUnit: `Assert.Ignore()`, `Assert.Inconclusive()`,
 *   `Assume.That(c)`, xUnit v3 `Assert.Skip()`, `Assert.SkipWhen(c)`,
 *   `Assert.SkipUnless(c)`, Xunit.SkippableFact `Skip.If(c)` / `Skip.IfNot(c)`,
 *   and `throw new IgnoreException` / `InconclusiveException` / `SkipException`.
 *
 * An assumption skips only when its condition fails, so it is a
 * conditional skip, unless the condition is a literal that always fails
 * (`assumeTrue(false)`, `assumeFalse(true)`, `Assume.That(false)`,
 * `Skip.If(true)`): then it is a skip. A call that always skips (`abort()`,
 * `Assert.Ignore()`, a thrown skip exception) is a skip.
 */

import type { Node } from "../parsers/tree-sitter.js";
import type { SkipDraft } from "../parsers/tree-sitter.js";

/** How a skipping call treats its first argument. */
type Condition =
  /** Skips when the argument is false (`assumeTrue`, `Assume.That`, `Skip.IfNot`, `SkipUnless`). */
  | "skips-when-false"
  /** Skips when the argument is true (`assumeFalse`, `Skip.If`, `SkipWhen`). */
  | "skips-when-true"
  /** Skips depending on the arguments in ways no literal settles (`assumeThat`, `assumeNotNull`). */
  | "opaque"
  /** Always skips. */
  | "always";

/** A table of skipping calls: method name -> receivers allowed ("" = none, a static import) and how it reads its condition. */
export type SkipCallTable = ReadonlyMap<string, { receivers: readonly string[]; condition: Condition }>;

/** JUnit 4/5 and TestNG. */
export const JAVA_SKIP_CALLS: SkipCallTable = new Map([
  ["assumeTrue", { receivers: ["", "Assume", "Assumptions"], condition: "skips-when-false" }],
  ["assumeFalse", { receivers: ["", "Assume", "Assumptions"], condition: "skips-when-true" }],
  ["assumeThat", { receivers: ["", "Assume", "Assumptions"], condition: "opaque" }],
  ["assumeNotNull", { receivers: ["", "Assume"], condition: "opaque" }],
  ["assumeNoException", { receivers: ["", "Assume"], condition: "opaque" }],
  ["abort", { receivers: ["Assumptions"], condition: "always" }],
]);

/** NUnit, MSTest, xUnit v3 and Xunit.SkippableFact. */
export const CSHARP_SKIP_CALLS: SkipCallTable = new Map([
  ["Ignore", { receivers: ["Assert"], condition: "always" }],
  ["Inconclusive", { receivers: ["Assert"], condition: "always" }],
  ["Skip", { receivers: ["Assert"], condition: "always" }],
  ["SkipWhen", { receivers: ["Assert"], condition: "skips-when-true" }],
  ["SkipUnless", { receivers: ["Assert"], condition: "skips-when-false" }],
  ["That", { receivers: ["Assume"], condition: "skips-when-false" }],
  ["If", { receivers: ["Skip"], condition: "skips-when-true" }],
  ["IfNot", { receivers: ["Skip"], condition: "skips-when-false" }],
]);

/** Exceptions whose throw skips the test. */
const SKIP_EXCEPTIONS = /^(?:[\w.]+\.)?(AssumptionViolatedException|TestAbortedException|SkipException|IgnoreException|InconclusiveException|SkipTestException)$/;

/** The literal value of a boolean argument (`true`/`false`, C#'s too), or null. */
function booleanLiteral(node: Node | null | undefined): boolean | null {
  const text = node?.text.trim();
  return text === "true" ? true : text === "false" ? false : null;
}

/** The first string literal's content among the arguments, for a reason. */
function reasonIn(args: Node | null): string | undefined {
  const match = /"((?:[^"\\]|\\.)*)"/.exec(args?.text ?? "");
  return match ? (match[1] as string) : undefined;
}

/**
 * Skips made by calls of `table` and by thrown skip exceptions in `root`,
 * as SkipDrafts with their node (parsers/skip-reach.ts decides which tests
 * they reach). `callType` is the grammar's call node (`method_invocation`,
 * `invocation_expression`); `throwTypes` its throw nodes.
 */
export function assumptionSkips(root: Node, table: SkipCallTable, callType: string, throwTypes: readonly string[]): SkipDraft[] {
  const skips: SkipDraft[] = [];
  for (const call of root.descendantsOfType(callType)) {
    if (!call) continue;
    const callee = call.type === "method_invocation" ? call.childForFieldName("name") : call.childForFieldName("function");
    const text = call.type === "method_invocation" ? [call.childForFieldName("object")?.text, callee?.text].filter(Boolean).join(".") : (callee?.text ?? "");
    const parts = text.replace(/\s+/g, "").split(".");
    const name = parts.pop() ?? "";
    const receiver = parts.pop() ?? "";
    const entry = table.get(name);
    if (!entry || !entry.receivers.includes(receiver)) continue;
    const args = call.childForFieldName("arguments");
    const first = args?.namedChildren.find((child) => child !== null && child.type !== "comment");
    const value = booleanLiteral(first?.type === "argument" ? first.namedChild(0) : first);
    let isConditional: boolean;
    if (entry.condition === "always") isConditional = false;
    else if (entry.condition === "skips-when-false" && value === false) isConditional = false;
    else if (entry.condition === "skips-when-true" && value === true) isConditional = false;
    else if ((entry.condition === "skips-when-false" && value === true) || (entry.condition === "skips-when-true" && value === false)) continue;
    else isConditional = true;
    const skip: SkipDraft = { startIndex: call.startIndex, flag: "skipped", via: `${text.replace(/\s+/g, "")}(${first && !isConditional ? first.text : ""})`, node: call, isConditional };
    const reason = reasonIn(args);
    if (reason !== undefined) skip.reason = reason;
    skips.push(skip);
  }
  for (const statement of root.descendantsOfType(throwTypes as string[])) {
    if (!statement) continue;
    const created = statement.descendantsOfType("object_creation_expression")[0];
    const type = created?.childForFieldName("type")?.text ?? "";
    if (!created || !SKIP_EXCEPTIONS.test(type)) continue;
    const skip: SkipDraft = { startIndex: statement.startIndex, flag: "skipped", via: `throw new ${type}`, node: statement };
    const reason = reasonIn(created.childForFieldName("arguments"));
    if (reason !== undefined) skip.reason = reason;
    skips.push(skip);
  }
  return skips;
}
