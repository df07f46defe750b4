/**
 * A test retitled with a word the change renames everywhere: the product
 * stops saying `Buffer` and says `Uint8Array` (in its code, its comments and
 * its documentation), and the tests follow, `"Buffer response"` ->
 * `"Uint8Array response"`, their bodies rewritten for the new type
 * (sindresorhus/got 309e36d104). Neither the title passes (too few words
 * shared) nor the checks (rewritten) pair such a test, so it read as
 * deleted.
 *
 * A title pair is read as one substitution: the two titles' word tokens
 * (identifiers whole in a descriptive title, `promise.buffer` one token;
 * an identifier title split at `_` and case humps, `TestParseBuffer` ->
 * test, parse, buffer) keep a common prefix and suffix of at least one
 * token, and 1-3 tokens in the middle are replaced by 1-3 others. The
 * substitution is witnessed by the change when either
 *
 *   - a line of a file the change edits that is not a test file (product
 *     code, comments, documentation) was replaced by the same line with the
 *     old words for the new, all of them or one (compared lower-case,
 *     letters and digits only: "returned as a `Buffer`." -> "returned as a
 *     `Uint8Array`."), or
 *   - another title of the change shows the same substitution (two tests
 *     renamed alike).
 *
 * A witnessed pair is then judged as an edited test on its checks
 * (compare.ts pass 10): what the new body no longer checks is still an
 * assertion_removal. A rename no line of the change makes stays a deletion.
 */

/** One replacement between two titles: the old and the new middle tokens, lower-case, joined without separators (`buffer` -> `uint8array`). */
export interface TitleSubstitution {
  from: string;
  to: string;
}

/** Most tokens a substituted middle may have on either side. */
const MAX_MIDDLE = 3;

/** Word tokens of a test title or name as written (see the module comment). */
export function titleTokens(name: string): string[] {
  if (/\s/.test(name.trim())) return name.match(/[\p{L}\p{N}_$]+(?:\.[\p{L}\p{N}_$]+)*/gu) ?? [];
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== "");
}

/** Lower-case letters and digits of a text, the form lines and substitutions are compared in. */
export function bare(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * The one substitution that turns title `a` into title `b` (see the module
 * comment), or null: the same title, a whole title replaced, words only
 * added or removed, or a middle longer than 3 tokens.
 */
export function titleSubstitution(a: string, b: string): TitleSubstitution | null {
  const left = titleTokens(a).map((token) => token.toLowerCase());
  const right = titleTokens(b).map((token) => token.toLowerCase());
  let prefix = 0;
  while (prefix < left.length && prefix < right.length && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (suffix < left.length - prefix && suffix < right.length - prefix && left[left.length - 1 - suffix] === right[right.length - 1 - suffix]) suffix++;
  const from = left.slice(prefix, left.length - suffix);
  const to = right.slice(prefix, right.length - suffix);
  if (prefix + suffix === 0 || from.length === 0 || to.length === 0 || from.length > MAX_MIDDLE || to.length > MAX_MIDDLE) return null;
  const substitution = { from: bare(from.join("")), to: bare(to.join("")) };
  return substitution.from === "" || substitution.to === "" || substitution.from === substitution.to ? null : substitution;
}

/** A file of the change as the witness reads it: its text on each side (null = absent). */
export interface WitnessFile {
  before: string | null;
  after: string | null;
}

/**
 * Whether a line the change replaced shows a substitution (see the module
 * comment): built once from the change's files that are not test files,
 * asked per candidate title pair. Lines shorter than 2 letters and digits
 * take no part.
 */
export type RenameWitness = (substitution: TitleSubstitution) => boolean;

/** Builds the {@link RenameWitness} of a change's non-test files; their lines are read on the first question. */
export function renameWitness(files: readonly WitnessFile[]): RenameWitness {
  let lines: { removed: string[]; added: Set<string> } | null = null;
  const answers = new Map<string, boolean>();
  return (substitution) => {
    const key = `${substitution.from}\u0000${substitution.to}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      lines ??= replacedLines(files);
      const { removed, added } = lines;
      answer = removed.some((line) => replacements(line, substitution).some((replaced) => added.has(replaced)));
      answers.set(key, answer);
    }
    return answer;
  };
}

/** A line with every occurrence of the substitution's old words replaced, then with each one alone ("responsetype buffer … as a buffer" -> "… as a uint8array"). */
function replacements(line: string, { from, to }: TitleSubstitution): string[] {
  if (!line.includes(from)) return [];
  const found = [line.replaceAll(from, to)];
  for (let at = line.indexOf(from); at !== -1; at = line.indexOf(from, at + from.length)) found.push(line.slice(0, at) + to + line.slice(at + from.length));
  return found;
}

/** The lines the files lose and gain, in {@link bare} form. */
function replacedLines(files: readonly WitnessFile[]): { removed: string[]; added: Set<string> } {
  const removed: string[] = [];
  const added = new Set<string>();
  for (const file of files) {
    const before = lineSet(file.before);
    const after = lineSet(file.after);
    for (const line of after) if (!before.has(line)) added.add(line);
    for (const line of before) if (!after.has(line)) removed.push(line);
  }
  return { removed, added };
}

/** The distinct lines of a text in {@link bare} form, those of 2+ characters. */
function lineSet(text: string | null): Set<string> {
  const lines = new Set<string>();
  for (const line of text?.split(/\r?\n/) ?? []) {
    const form = bare(line);
    if (form.length >= 2) lines.add(form);
  }
  return lines;
}
