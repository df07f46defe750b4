/**
 * REV resolution (DESIGN.md "The command line"):
 * - `WORKTREE`: the live work tree;
 * - `@baseline`, `@best`, `@head`: the loop's refs; `@head~N`: N first
 *   parents back from the loop's head (also `@baseline~N`, `@best~N`);
 * - `@N`: iteration N of the loop (`refs/ralph/<loop>/iterations/NNNN`);
 * - a git revision: a full or abbreviated (>= 4 hex) oid, or a ref name
 *   resolved in git's order (gitrevisions(7) "<refname>": `$GIT_DIR/<name>`,
 *   `refs/<name>`, `refs/tags/<name>`, `refs/heads/<name>`,
 *   `refs/remotes/<name>`, `refs/remotes/<name>/HEAD`), followed by any
 *   number of `~N`, `^N`, `~` and `^` suffixes. Annotated tags are peeled.
 *
 * Other gitrevisions forms (`@{…}`, `:/text`, `^{…}`, ranges) are rejected
 * with an error naming the supported forms.
 */
import { RalphError } from "../errors.js";
import type { CheckpointStore, LoopRef, ResolvedRev } from "./checkpoint-store.js";
import { iterationRef } from "./checkpoint-store.js";
import type { LoopId } from "./loop-id.js";
import { parseCommit } from "./odb.js";

const SUPPORTED = "use WORKTREE, @head, @head~N, @baseline, @best, @N (iteration), an oid, or a ref name with optional ~N/^N suffixes";

function unknown(rev: string, why: string): RalphError {
  return new RalphError("E_UNKNOWN_REV", `unknown revision ${JSON.stringify(rev)}: ${why}`, { data: { rev } });
}

function peelToCommit(store: CheckpointStore, oid: string, rev: string): string {
  for (let depth = 0; depth < 10; depth++) {
    const obj = store.odb.tryRead(oid);
    if (!obj) throw unknown(rev, `object ${oid} is missing`);
    if (obj.type === "commit") return oid;
    if (obj.type !== "tag") throw unknown(rev, `it names a ${obj.type}, not a commit`);
    const m = /^object ([0-9a-f]{40})$/m.exec(obj.content.toString("utf8"));
    if (!m) throw unknown(rev, `tag ${oid} is malformed`);
    oid = m[1] as string;
  }
  throw unknown(rev, "tag chain too deep");
}

function resolveBase(store: CheckpointStore, base: string, rev: string): string {
  if (/^[0-9a-f]{40}$/i.test(base)) {
    const oid = base.toLowerCase();
    if (!store.odb.has(oid)) throw unknown(rev, "no such object in this repository");
    return oid;
  }
  const candidates = /^[A-Z_]+$/.test(base) || base.startsWith("refs/") ? [base] : [];
  candidates.push(`refs/${base}`, `refs/tags/${base}`, `refs/heads/${base}`, `refs/remotes/${base}`, `refs/remotes/${base}/HEAD`);
  for (const candidate of candidates) {
    const oid = store.readRef(candidate);
    if (oid) return oid;
  }
  if (/^[0-9a-f]{4,39}$/i.test(base)) {
    const matches = store.odb.expandPrefix(base.toLowerCase());
    if (matches.length === 1) return matches[0] as string;
    if (matches.length > 1) throw unknown(rev, `the abbreviation ${base} is ambiguous (${matches.length} objects); use more digits`);
  }
  if (base === "HEAD") throw unknown(rev, "HEAD has no commits yet; commit first, or compare against a checkpoint (e.g. --from @baseline)");
  throw unknown(rev, `no ref or object matches it; ${SUPPORTED}`);
}

function applySuffixes(store: CheckpointStore, oid: string, suffixes: string, rev: string): string {
  const re = /([~^])(\d*)/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(suffixes)) !== null) {
    if (m.index !== consumed) break;
    consumed = re.lastIndex;
    const n = m[2] === "" ? 1 : Number(m[2]);
    oid = peelToCommit(store, oid, rev);
    if (m[1] === "~") {
      for (let i = 0; i < n; i++) {
        const parent = parseCommit(store.odb.read(oid).content).parents[0];
        if (!parent) throw unknown(rev, `the history is shorter than ${m[0]}`);
        oid = parent;
      }
    } else if (n > 0) {
      const parent = parseCommit(store.odb.read(oid).content).parents[n - 1];
      if (!parent) throw unknown(rev, `the commit has no parent number ${n}`);
      oid = parent;
    }
  }
  if (consumed !== suffixes.length) throw unknown(rev, SUPPORTED);
  return oid;
}

/**
 * Resolves a REV for `loop`.
 * @param allowWorktree whether `WORKTREE` is accepted here (only as a diff's "to" side).
 * @throws RalphError E_UNKNOWN_REV, E_USAGE (WORKTREE where not allowed).
 */
export function resolveRev(store: CheckpointStore, rev: string, loop: LoopId, allowWorktree = false): ResolvedRev {
  const trimmed = rev.trim();
  if (trimmed === "WORKTREE") {
    if (!allowWorktree) throw new RalphError("E_USAGE", "WORKTREE can only be the 'to' side of a comparison", { data: { rev } });
    return { kind: "worktree", label: "WORKTREE" };
  }
  if (trimmed === "" || /@\{|:|\.\.|\^\{|\s/.test(trimmed) || (/^@(?![A-Za-z0-9])/.test(trimmed) && !/^@(\d+|head|baseline|best)([~^]\d*)*$/.test(trimmed))) {
    throw unknown(rev, SUPPORTED);
  }
  let oid: string;
  const loopRev = /^@(head|baseline|best|\d+)((?:[~^]\d*)*)$/.exec(trimmed);
  if (loopRev) {
    const name = loopRev[1] as string;
    const which: LoopRef = /^\d+$/.test(name) ? iterationRef(Number(name)) : (name as LoopRef);
    const base = store.readLoopRef(loop, which);
    if (!base) {
      const hint = /^\d+$/.test(name) ? `loop ${loop} has no iteration ${name}` : `loop ${loop} has no ${name} ref`;
      throw unknown(rev, `${hint}; see 'ralph log --loop ${loop}'`);
    }
    oid = applySuffixes(store, base, loopRev[2] as string, rev);
  } else {
    const m = /^(.*?)((?:[~^]\d*)*)$/.exec(trimmed) as RegExpExecArray;
    oid = applySuffixes(store, resolveBase(store, m[1] as string, rev), m[2] as string, rev);
  }
  const commit = peelToCommit(store, oid, rev);
  const treeOid = parseCommit(store.odb.read(commit).content).tree;
  return { kind: "commit", oid: commit, treeOid, label: trimmed };
}
