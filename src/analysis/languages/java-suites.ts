/**
 * JUnit suite lists (issue 9): `@Suite.SuiteClasses({A.class, B.class})`
 * (JUnit 4) and `@SelectClasses({A.class, B.class})` (JUnit 5 platform
 * suites) name the test classes a suite runs. A build that runs the suite
 * (Maven surefire `<include>AllTests</include>`, a Gradle filter) runs
 * exactly those: a class dropped from the list stops running while its
 * file stays. Read from the text: the annotations are plain class literals.
 */

import type { SuiteListFact } from "../facts.js";
import { bracketed } from "../text-blocks.js";

const SUITE_ANNOTATION = /@(?:Suite\s*\.\s*)?(SuiteClasses|SelectClasses)\s*\(\s*(?:value\s*=\s*)?\{?([^)]*?)\}?\s*\)/g;

/** The suite lists of a Java file, in source order: the annotated class's name and the simple names of the classes listed. */
export function javaSuiteLists(content: string): SuiteListFact[] {
  if (!content.includes("SuiteClasses") && !content.includes("SelectClasses")) return [];
  const suites: SuiteListFact[] = [];
  for (const match of content.matchAll(SUITE_ANNOTATION)) {
    const classes = [...(match[2] as string).matchAll(/([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\.\s*class\b/g)].map((entry) => (entry[1] as string).split(".").pop()?.trim() as string);
    const rest = content.slice((match.index ?? 0) + match[0].length);
    const suite = /\bclass\s+([A-Za-z_$][\w$]*)/.exec(rest)?.[1] ?? "";
    const line = content.slice(0, match.index ?? 0).split("\n").length;
    suites.push({ suite, line, annotation: match[1] as string, classes });
  }
  return suites;
}

/**
 * JUnit 5 extensions a file applies to its test classes, by simple name:
 * `@ExtendWith(X.class)`, `@ExtendWith({X.class, Y.class})` and
 * `@RegisterExtension static X x = …` (junit.org/junit5/docs, "Registering
 * Extensions"). Sorted, unique; empty when none.
 */
export function javaExtensionsApplied(content: string): string[] {
  if (!content.includes("ExtendWith") && !content.includes("RegisterExtension")) return [];
  const names = new Set<string>();
  for (const match of content.matchAll(/@ExtendWith\s*\(\s*(?:value\s*=\s*)?\{?([^)]*?)\}?\s*\)/g)) {
    for (const entry of (match[1] as string).matchAll(/([A-Za-z_$][\w$.]*)\s*\.\s*class\b/g)) names.add((entry[1] as string).split(".").pop() as string);
  }
  for (const match of content.matchAll(/@RegisterExtension\b[^;=]*?\b([A-Z][\w$]*)(?:<[^>]*>)?\s+[a-z_$][\w$]*\s*=/g)) names.add(match[1] as string);
  return [...names].sort();
}

/**
 * Reads of which test an extension is deciding on (ExtensionContext): its
 * display name, unique id or tags, or the name of its method or class. The
 * method or class read for an annotation on it (`@RequiresDocker` looked up
 * through `getTestMethod()`) is no such read.
 */
const TEST_IDENTITY = /\b(getDisplayName|getUniqueId|getTags)\s*\(|\bget(Required)?Test(Method|Class)\s*\(\s*\)[^;]*?\bget(Simple)?Name\s*\(/s;

/**
 * The JUnit 5 ExecutionConditions a file declares (a class implementing
 * `ExecutionCondition` whose body can answer
 * `ConditionEvaluationResult.disabled(…)`), with whether the answer depends
 * on the test's identity (its method, display name, class, id or tags, read
 * from the ExtensionContext): such a condition picks tests to skip by name,
 * where one reading only the environment (a system property, an env
 * variable, a service's reachability) is a conditional skip.
 */
export function javaExecutionConditions(content: string): { name: string; line: number; byIdentity: boolean }[] {
  if (!content.includes("ExecutionCondition") || !content.includes("disabled")) return [];
  const found: { name: string; line: number; byIdentity: boolean }[] = [];
  for (const match of content.matchAll(/\bclass\s+([A-Za-z_$][\w$]*)[^{;]*\bimplements\b[^{;]*\bExecutionCondition\b[^{;]*\{/g)) {
    const body = bracketed(content, (match.index ?? 0) + match[0].length - 1);
    if (!/\bdisabled\s*\(/.test(body)) continue;
    found.push({ name: match[1] as string, line: content.slice(0, match.index ?? 0).split("\n").length, byIdentity: TEST_IDENTITY.test(body) });
  }
  return found;
}
