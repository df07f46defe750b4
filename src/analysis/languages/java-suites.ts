/**
 * JUnit suite lists (issue 9): `@Suite.SuiteClasses({A.class, B.class})`
 * (JUnit 4) and `@SelectClasses({A.class, B.class})` (JUnit 5 platform
 * suites) name the test classes a suite runs. A build that runs the suite
 * (Maven surefire `<include>AllTests</include>`, a Gradle filter) runs
 * exactly those: a class dropped from the list stops running while its
 * file stays. Read from the text: the annotations are plain class literals.
 */

import type { SuiteListFact } from "../facts.js";

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
