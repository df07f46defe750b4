/**
 * Code a change deprecates, as the languages whose runners exclude tests by
 * tag mark it: a Java `@Deprecated` annotation or `@deprecated` Javadoc tag,
 * a PHP `@deprecated` docblock tag or `#[\Deprecated]` attribute (PHP 8.4),
 * a Ruby YARD `# @deprecated` comment. Tests set aside with a component the
 * same change deprecates (a phpunit `<exclude><group>legacy</group>`, a
 * surefire `excludedGroups`, an rspec `--tag ~legacy`) are retired with it,
 * not failing tests hidden: their tamper note is medium, not critical
 * (sweep of thephpleague/flysystem a847979c19, "Deprecation sftp v2 in
 * favour of v3"). Never throws.
 */

import type { TreeReader } from "../discovery.js";

/** Languages whose deprecation markers are read. */
export type DeprecatingLanguage = "java" | "php" | "ruby";

/** A declaration a marker deprecates: its class, interface, module, method or function name. */
const DECLARATION: Record<DeprecatingLanguage, RegExp> = {
  java: /^(?:\s*(?:@\w+(?:\([^)]*\))?|public|protected|private|static|final|abstract|sealed|default|synchronized)\s+)*(?:class|interface|enum|record|[\w<>[\],.? ]+?)\s+(\w+)\s*[({<]/,
  php: /^(?:\s*(?:#\[[^\]]*\]|final|abstract|readonly|public|protected|private|static)\s+)*(?:class|interface|trait|enum|function)\s+(\w+)/,
  ruby: /^\s*(?:class|module|def)\s+(?:self\.)?([\w:]+)/,
};

/** A deprecation marker of each language. */
const MARKER: Record<DeprecatingLanguage, RegExp> = {
  java: /@Deprecated\b|@deprecated\b/,
  php: /@deprecated\b|#\[\s*\\?Deprecated\b/,
  ruby: /^\s*#\s*@deprecated\b/,
};

/** The names a source text declares right after a deprecation marker (the marker's own comment or attribute lines in between). */
export function deprecatedDeclarations(source: string, language: DeprecatingLanguage): Set<string> {
  const names = new Set<string>();
  const lines = source.split("\n");
  lines.forEach((line, index) => {
    if (!MARKER[language].test(line)) return;
    for (let next = index + 1; next < Math.min(lines.length, index + 12); next++) {
      const text = lines[next] as string;
      if (/^\s*(?:\*|\/\*\*?|\*\/|\/\/|#(?!\[)|@\w+(?:\([^)]*\))?\s*$|#\[[^\]]*\]\s*$)/.test(text) || text.trim() === "") continue;
      const name = DECLARATION[language].exec(text)?.[1];
      if (name) names.add(name.slice(name.lastIndexOf(":") + 1));
      return;
    }
  });
  return names;
}

/**
 * The names `candidates` holds that the change newly deprecates: for each
 * candidate name, the files of `paths` named for it (`SftpAdapter.php`,
 * `sftp_adapter.rb`) declare it after a marker in the after tree and not in
 * the before tree. Reads only those files.
 */
export function newlyDeprecated(trees: { before: TreeReader; after: TreeReader }, paths: readonly string[], candidates: ReadonlySet<string>, language: DeprecatingLanguage): Set<string> {
  const found = new Set<string>();
  const fileNameOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
  const snake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  for (const path of paths) {
    const stem = fileNameOf(path);
    const names = [...candidates].filter((name) => name === stem || snake(name) === stem);
    if (names.length === 0) continue;
    const after = trees.after.read(path);
    if (after === null) continue;
    const now = deprecatedDeclarations(after, language);
    const before = trees.before.read(path);
    const was = before === null ? new Set<string>() : deprecatedDeclarations(before, language);
    for (const name of names) if (now.has(name) && !was.has(name)) found.add(name);
  }
  return found;
}
