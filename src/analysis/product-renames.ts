/**
 * Product functions the change renames, so that a test check that follows
 * the rename is the same check (issue 9, class subject-renamed; sweep of
 * apache/commons-codec 868af384 "Internal refactoring": `static byte[]
 * toIntegerBytes(BigInteger)` of Base64 became `toUnsignedBytes` of
 * BaseNCodec, its caller's line `encodeBase64(toIntegerBytes(bigInteger),
 * false)` now calls the new name, and the renamed test class's
 * `assertNotNull(Base64.toIntegerBytes(decimal))` reads
 * `assertNotNull(BaseNCodec.toUnsignedBytes(decimal))`: 17 checks read as
 * made nowhere).
 *
 * A rename is a function of a changed product file that no changed product
 * file defines after the change, and one that none defined before, whose
 * short names the change's own non-test lines swap (title-renames.ts
 * RenameWitness: a line replaced by the same line with the old name for
 * the new). A check made after the change with the new name (qualified by
 * the new container when the old one was written) conserves the check
 * made with the old one. A name no line of the change swaps is no rename:
 * a removed function and an added one stay what they are.
 */

import type { Check } from "./checks/normalise.js";
import type { CodeFacts } from "./facts.js";
import { bare, type RenameWitness } from "./title-renames.js";

/** One renamed function: its name paths before and after (`Base64.toIntegerBytes` -> `BaseNCodec.toUnsignedBytes`). */
export interface ProductRename {
  from: string;
  to: string;
}

/** Last segment of a name path (`Base64.toIntegerBytes` -> `toIntegerBytes`). */
const shortName = (name: string): string => name.slice(name.lastIndexOf(".") + 1);

/** Most removed × added candidates weighed: a change that removes and adds hundreds of functions is no rename. */
const MAX_CANDIDATES = 400;

/**
 * The renames of a change (see the module doc), from the code facts of its
 * product files on both sides and the witness of its non-test lines. Empty
 * without a witness. Never throws.
 */
export function productRenames(files: readonly { before: CodeFacts | null; after: CodeFacts | null }[], witness: RenameWitness | undefined): ProductRename[] {
  if (!witness) return [];
  const before = new Map<string, string>();
  const after = new Map<string, string>();
  for (const file of files) {
    for (const fn of file.before?.functions ?? []) before.set(shortName(fn.name), fn.name);
    for (const fn of file.after?.functions ?? []) after.set(shortName(fn.name), fn.name);
  }
  const removed = [...before].filter(([name]) => !after.has(name));
  const added = [...after].filter(([name]) => !before.has(name));
  if (removed.length === 0 || added.length === 0 || removed.length * added.length > MAX_CANDIDATES) return [];
  const renames: ProductRename[] = [];
  for (const [oldName, oldPath] of removed) {
    const matches = added.filter(([newName]) => bare(oldName) !== bare(newName) && witness({ from: bare(oldName), to: bare(newName) }));
    const only = matches.length === 1 ? matches[0] : undefined;
    if (only) renames.push({ from: oldPath, to: only[1] });
  }
  return renames;
}

/** The short names the renamed functions had (`Base64.toIntegerBytes` -> `toIntegerBytes`): no longer removed code for the tests. */
export function renamedFrom(renames: readonly ProductRename[] | undefined): Set<string> {
  return new Set((renames ?? []).map((rename) => shortName(rename.from)));
}

/** A name path as a pattern of whole identifiers (`Base64.toIntegerBytes` -> `\bBase64\.toIntegerBytes\b`). */
const namePattern = (name: string): RegExp => new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`, "g");

/**
 * `check` with the renamed functions it calls written with their new names
 * (the qualified old name first, `Base64.toIntegerBytes` ->
 * `BaseNCodec.toUnsignedBytes`, then the bare one), or null when it calls
 * none of them.
 */
export function renamedCheck(check: Check, renames: readonly ProductRename[]): Check | null {
  let subject = check.subject;
  let expected = check.expected;
  for (const rename of renames) {
    const oldShort = shortName(rename.from);
    const newShort = shortName(rename.to);
    for (const [from, to] of [
      [rename.from, rename.to],
      [oldShort, newShort],
    ] as const) {
      subject = subject.replace(namePattern(from), to);
      if (expected !== undefined) expected = expected.replace(namePattern(from), to);
    }
  }
  if (subject === check.subject && expected === check.expected) return null;
  const renamed: Check = { ...check, subject };
  if (expected !== undefined) renamed.expected = expected;
  return renamed;
}
