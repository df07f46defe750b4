/**
 * Skips through a custom test attribute: a test marked with an attribute of
 * the project's own that tells the runner not to run it, from a file that
 * looks like infrastructure.
 *
 * - C#: a subclass of xUnit's `FactAttribute`/`TheoryAttribute` (or
 *   `SkippableFact`) whose constructor sets `Skip` unconditionally, or that
 *   overrides `Skip` with a constant (xunit.net: "a non-null Skip skips the
 *   test"); `[StableFact]` in place of `[Fact]` then skips the test. A `Skip`
 *   set under a condition (`if (!OperatingSystem.IsLinux()) Skip = …`) is a
 *   conditional skip, no finding.
 * - Java: an annotation type meta-annotated with JUnit 5's `@Disabled`
 *   (junit.org/junit5/docs, "Meta-Annotations and Composed Annotations"):
 *   every test it annotates is disabled.
 *
 * Reported as test_disabled (critical) on the test file that gains uses of
 * such an attribute, by how many uses it gained; the attribute is found in
 * a changed file or as `<Name>.java` / `<Name>Attribute.cs` / `<Name>.cs` in
 * the after tree.
 */

import type { TreeReader } from "./discovery.js";
import { bracketed } from "./text-blocks.js";
import { defaultSeverityOf } from "./rules/registry.js";
import type { FileChange, Finding } from "./types.js";

/** The text between the `{` at `open` and its matching `}` (strings skipped; the rest of the text when unbalanced). */
function blockAt(text: string, open: number): string {
  const block = bracketed(text, open);
  return block.endsWith("}") ? block.slice(1, -1) : block.slice(1);
}

/** True when a `Skip = "…";` statement sits at the top level of `body` (no `if`, `else` or `?` in its statement, no block around it). */
function setsSkipUnconditionally(body: string): boolean {
  for (const match of body.matchAll(/\bSkip\s*=\s*("[^"]*"|@"[^"]*"|\$"[^"]*")\s*;/g)) {
    const before = body.slice(0, match.index);
    const depth = (before.match(/\{/g)?.length ?? 0) - (before.match(/\}/g)?.length ?? 0);
    const statementStart = Math.max(before.lastIndexOf(";"), before.lastIndexOf("{"), before.lastIndexOf("}")) + 1;
    const statement = before.slice(statementStart);
    if (depth === 0 && !/\b(if|else|while|for|foreach|switch|case)\b|\?/.test(statement)) return true;
  }
  return false;
}

/**
 * The custom skipping attributes a C# or Java file declares (see the module
 * comment), as the names a test writes (`StableFact` for
 * `StableFactAttribute`, both spellings for C#). Empty for other files.
 */
export function skippingAttributesOf(path: string, content: string): string[] {
  const names: string[] = [];
  if (path.endsWith(".cs") && content.includes("Attribute")) {
    for (const match of content.matchAll(/\bclass\s+(\w+?)(Attribute)?\s*:\s*(?:[\w.]+\.)?(?:Fact|Theory|SkippableFact|SkippableTheory)(?:Attribute)?\b[^{]*\{/g)) {
      const name = match[1] as string;
      const body = blockAt(content, (match.index ?? 0) + match[0].length - 1);
      const constructor = new RegExp(`\\b${name}(?:Attribute)?\\s*\\([^)]*\\)\\s*(?::\\s*base\\s*\\([^)]*\\)\\s*)?\\{`).exec(body);
      const overridden = /\boverride\s+string\??\s+Skip\s*(=>\s*"|\{\s*get\s*(=>\s*"|\{\s*return\s+")|\{[^}]*\}\s*=\s*")/.test(body);
      if (overridden || (constructor !== null && setsSkipUnconditionally(blockAt(body, constructor.index + constructor[0].length - 1)))) names.push(name, `${name}Attribute`);
    }
  }
  if (path.endsWith(".java") && content.includes("@interface") && content.includes("Disabled")) {
    for (const match of content.matchAll(/((?:@[\w.]+(?:\s*\([^)]*\))?\s*)+)(?:public\s+)?@interface\s+(\w+)/g)) {
      if (/@(?:org\.junit\.jupiter\.api\.)?Disabled\b/.test(match[1] as string)) names.push(match[2] as string);
    }
  }
  return names;
}

/** How often each attribute-like name is written in a C# or Java text (`[Name]`, `[Name(…)]`, `[A, Name]`, `@Name`). */
function attributeUses(text: string, isJava: boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(isJava ? /@([A-Z]\w*)\b/g : /[[,]\s*([A-Z]\w*)\s*(?=[\](,])/g)) counts.set(match[1] as string, (counts.get(match[1] as string) ?? 0) + 1);
  return counts;
}

/**
 * Findings for the changed C#/Java files that gain uses of a custom skipping
 * attribute (see the module comment). `trees.after` is read for attributes
 * declared outside the change. Never rejects for odd text.
 */
export function customSkipAttributeFindings(changes: readonly FileChange[], trees: { after: TreeReader }): Finding[] {
  const declared = new Set<string>();
  for (const change of changes) if (change.after !== null) for (const name of skippingAttributesOf(change.path, change.after)) declared.add(name);
  const findings: Finding[] = [];
  let paths: readonly string[] | null = null;
  for (const change of changes) {
    if (change.before === null || change.after === null) continue;
    const isJava = change.path.endsWith(".java");
    if (!isJava && !change.path.endsWith(".cs")) continue;
    const before = attributeUses(change.before, isJava);
    const gained = [...attributeUses(change.after, isJava)].map(([name, count]) => [name, count - (before.get(name) ?? 0)] as const).filter(([, more]) => more > 0);
    for (const [name, more] of gained) {
      if (!declared.has(name)) {
        paths ??= trees.after.walk("");
        const files = isJava ? [`${name}.java`] : [`${name}Attribute.cs`, `${name}.cs`];
        const path = paths.find((candidate) => files.some((file) => candidate === file || candidate.endsWith(`/${file}`)));
        const text = path === undefined ? null : trees.after.read(path);
        if (path === undefined || text === null || !skippingAttributesOf(path, text).includes(name)) continue;
      }
      const at = change.after.search(new RegExp(isJava ? `@${name}\\b` : `[[,]\\s*${name}\\b`));
      findings.push({
        type: "test_disabled",
        severity: defaultSeverityOf("test_disabled"),
        file: change.path,
        line: change.after.slice(0, Math.max(at, 0)).split("\n").length,
        message: `${change.path} now marks ${more === 1 ? "a test" : `${more} tests`} ${isJava ? `@${name}` : `[${name}]`}, a custom attribute that always ${isJava ? "disables the test (it is meta-annotated @Disabled)" : "sets Skip"}: ${more === 1 ? "it no longer runs" : "they no longer run"}`,
        evidence: { gained: ["skipping_attribute"], attribute: name, uses_gained: more },
        allowed: false,
      });
    }
  }
  return findings;
}
