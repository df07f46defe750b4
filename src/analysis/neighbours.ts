/**
 * Unchanged product files a changed one calls into, read so that a guard
 * removed from a changed function may be found in a collaborator it now
 * calls (sweep of jwtk/jjwt 7ec7dd1a19: `DefaultJwtParser` dropped its own
 * missing-`enc` check because `this.encAlgs.apply(header)`, an unchanged
 * `IdLocator`, throws the same MalformedJwtException for a missing value).
 * Without them validation_bypass sees only the changed files and reports
 * "nothing it calls checks it any more".
 *
 * Read only when some changed product file lost a guard (the before side
 * holds a guard whose condition and action the after side no longer
 * holds), and only the files a class-per-file language names for a type
 * the changed file mentions (Java, C#, PHP: `IdLocator` ->
 * `IdLocator.java` beside it), or the package's other files for Go (a Go
 * package's functions are called unqualified). At most
 * {@link MAX_NEIGHBOURS} files per comparison. A collaborator's guard that
 * only fires when a constructor argument is set (`if (requiredMsg != null)
 * throw …`, the field assigned from that parameter) is left out when the
 * changed files construct the class with `null` there: it never fires for
 * them (the nearest cheat, java-guard-removed-field-callee-lenient).
 */

import type { TreeReader } from "./discovery.js";
import { hasUsableFacts, type CodeFacts, type FileFacts } from "./facts.js";
import { languageForPath } from "./languages/index.js";
import { splitArguments } from "./checks/normalise.js";
import { bracketed } from "./text-blocks.js";

/** The most unchanged files read as neighbours in one comparison. */
const MAX_NEIGHBOURS = 24;

/** Languages whose files are each named for the one type they declare. */
const CLASS_PER_FILE: ReadonlySet<string> = new Set(["java", "csharp", "php"]);

/** A changed file's path and its two sides' facts, as analysis pairs them. */
interface ChangedFile {
  path: string;
  before: FileFacts | null;
  after: FileFacts | null;
}

/** An unchanged product file's code facts. */
export interface NeighbourCode {
  path: string;
  code: CodeFacts;
}

/** True when the before side holds a guard (not a fall-through exit) that the after side no longer holds as written. */
function lostGuard(file: ChangedFile): boolean {
  const before = file.before && hasUsableFacts(file.before) ? (file.before.code?.guards ?? []) : [];
  if (before.length === 0) return false;
  const after = new Set((file.after && hasUsableFacts(file.after) ? (file.after.code?.guards ?? []) : []).map((guard) => `${guard.condition}\u0000${guard.action}`));
  return before.some((guard) => !guard.fallthrough && !after.has(`${guard.condition}\u0000${guard.action}`));
}

/**
 * The code facts of the unchanged product files the changed product files
 * that lost a guard call into (see the module comment), extracted with
 * `extract` (the facts cache serves repeats). `after` is the after tree
 * with the change applied; `changed` every changed path.
 */
export async function loadNeighbourCode(
  files: readonly ChangedFile[],
  after: TreeReader,
  changed: ReadonlySet<string>,
  extract: (path: string, content: string) => Promise<FileFacts>,
): Promise<NeighbourCode[]> {
  const wanted: string[] = [];
  for (const file of files) {
    if (file.after === null || file.after.isTestFile || !lostGuard(file)) continue;
    const language = languageForPath(file.path);
    if (!language) continue;
    const slash = file.path.lastIndexOf("/");
    const dir = slash === -1 ? "" : file.path.slice(0, slash);
    const extension = file.path.slice(file.path.lastIndexOf("."));
    const source = after.read(file.path) ?? "";
    const mentioned = new Set(source.match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? []);
    for (const name of after.fileNames(dir)) {
      const path = dir === "" ? name : `${dir}/${name}`;
      if (!name.endsWith(extension) || changed.has(path) || language.isTestPath(path) || wanted.includes(path)) continue;
      const stem = name.slice(0, -extension.length);
      if (language.id === "go" || (CLASS_PER_FILE.has(language.id) && mentioned.has(stem))) wanted.push(path);
    }
  }
  const sources = files.flatMap((file) => (file.after === null ? [] : [after.read(file.path) ?? ""]));
  const found: NeighbourCode[] = [];
  for (const path of wanted.slice(0, MAX_NEIGHBOURS)) {
    const content = after.read(path);
    if (content === null) continue;
    const facts = await extract(path, content).catch(() => null);
    if (!facts || !hasUsableFacts(facts) || facts.isTestFile || !facts.code) continue;
    const className = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
    const off = switchedOff(content, className, sources);
    const guards = (facts.code.guards ?? []).filter((guard) => !off.has(guard.condition.replace(/\s+/g, "")));
    found.push({ path, code: { ...facts.code, guards } });
  }
  return found;
}

/** The constructor parameter names of a class's source, in order (Java/C# `Name(T a, T b)`, PHP `__construct($a, $b)`). */
function constructorParameters(source: string, className: string): string[] | null {
  const header = new RegExp(`(?:\\b${className}|\\bfunction\\s+__construct)\\s*\\(([^)]*)\\)\\s*(?::\\s*\\w+\\s*)?\\{`).exec(source);
  if (!header) return null;
  return splitParameters(header[1] as string)
    .map((part) => /\$?(\w+)\s*(?:=[^,]*)?$/.exec(part.trim())?.[1] ?? "")
    .filter((name) => name !== "");
}

/** A parameter list split at its top-level commas (not those of `Map<String, R>`). */
function splitParameters(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === "<" || ch === "(" || ch === "[") depth++;
    else if (ch === ">" || ch === ")" || ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

/**
 * The conditions (whitespace removed) of the class's guards that test a
 * field set from a constructor parameter for null (`requiredMsg!=null`,
 * `$this->requiredMsg!==null`), when every construction of the class in
 * `sources` (`new IdLocator<>("enc", algorithms, null)`) passes `null` for
 * that parameter: those guards never fire for the changed code.
 */
function switchedOff(source: string, className: string, sources: readonly string[]): Set<string> {
  const off = new Set<string>();
  const parameters = constructorParameters(source, className);
  if (!parameters || parameters.length === 0) return off;
  const calls = sources.flatMap((text) =>
    [...text.matchAll(new RegExp(`\\bnew\\s+${className}\\s*(?:<[^>()]*>)?\\s*\\(`, "g"))].map((match) =>
      splitArguments(bracketed(text, (match.index ?? 0) + match[0].length - 1).slice(1, -1)).map((arg) => arg.trim()),
    ),
  );
  if (calls.length === 0) return off;
  parameters.forEach((parameter, index) => {
    const field =
      new RegExp(`(?:this\\.|\\$this->)?(\\w+)\\s*=\\s*\\$?${parameter}\\s*;`).exec(source)?.[1] ??
      (new RegExp(`(?:private|protected|public|readonly)[^,$]*\\$${parameter}\\b`).test(source) ? parameter : null);
    if (field === null || !calls.every((args) => args[index] === "null")) return;
    for (const form of [`${field}!=null`, `${field}!==null`, `this.${field}!=null`, `$this->${field}!==null`, `$this->${field}!=null`, `null!=${field}`]) off.add(form);
  });
  return off;
}
