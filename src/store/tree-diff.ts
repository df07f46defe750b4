/**
 * Tree-to-tree diff that never descends into subtrees whose oids are equal,
 * so its cost follows the change, not the repository.
 */
import { RalphError } from "../errors.js";
import { ObjectDatabase, parseTree, type TreeEntry } from "./odb.js";

/** A git mode as text: "100644", "100755", "120000", "160000" (trees are not reported). */
export type FileMode = string;

/**
 * One changed path. status: A added, D deleted, M content changed,
 * T type or mode changed (e.g. a file became a symlink, or the exec bit).
 * A path that is a file on one side and a folder on the other is reported
 * as D of the file plus A of each file in the folder (or the reverse).
 */
export interface TreeChange {
  path: string;
  status: "A" | "D" | "M" | "T";
  oldMode: FileMode | null;
  newMode: FileMode | null;
  oldOid: string | null;
  newOid: string | null;
}

const TREE_MODE = "40000";

/**
 * The entries of the tree at folder `path` ('' = root). A missing object is
 * E_CORRUPT naming the folder, so the message says where the damage is.
 */
function readTreeEntries(odb: ObjectDatabase, oid: string, path: string): TreeEntry[] {
  const obj = odb.tryRead(oid);
  const where = path === "" ? "the root folder" : `folder ${JSON.stringify(path)}`;
  if (obj === null) {
    throw new RalphError("E_CORRUPT", `the tree of ${where} (object ${oid}) is missing from the repository; run 'git fsck' and restore it from a clone, or delete the checkpoint ref that names it`, {
      data: { oid, path },
    });
  }
  if (obj.type !== "tree") throw new RalphError("E_CORRUPT", `object ${oid} for ${where} is a ${obj.type}, expected a tree; run 'git fsck'`, { data: { oid, path } });
  return parseTree(obj.content);
}

/** Every file below a tree, as [path, entry] pairs, depth first. */
export function* walkTree(odb: ObjectDatabase, treeOid: string, prefix = ""): Generator<[string, TreeEntry]> {
  for (const e of readTreeEntries(odb, treeOid, prefix)) {
    const path = prefix === "" ? e.name : `${prefix}/${e.name}`;
    if (e.mode === TREE_MODE) yield* walkTree(odb, e.oid, path);
    else yield [path, e];
  }
}

/** Flattens a tree into path -> {mode, oid}. */
export function flattenTree(odb: ObjectDatabase, treeOid: string): Map<string, { mode: string; oid: string }> {
  const out = new Map<string, { mode: string; oid: string }>();
  for (const [path, e] of walkTree(odb, treeOid)) out.set(path, { mode: e.mode, oid: e.oid });
  return out;
}

/**
 * Diffs two trees (either may be null: the empty tree). Results are sorted by path.
 * @throws RalphError E_CORRUPT when an object is missing or not a tree.
 */
export function diffTrees(odb: ObjectDatabase, oldTree: string | null, newTree: string | null): TreeChange[] {
  const out: TreeChange[] = [];
  const emit = (prefix: string, e: TreeEntry, side: "A" | "D"): void => {
    const path = prefix === "" ? e.name : `${prefix}/${e.name}`;
    if (e.mode === TREE_MODE) {
      for (const [p, f] of walkTree(odb, e.oid, path)) {
        out.push(
          side === "A" ? { path: p, status: "A", oldMode: null, newMode: f.mode, oldOid: null, newOid: f.oid } : { path: p, status: "D", oldMode: f.mode, newMode: null, oldOid: f.oid, newOid: null },
        );
      }
    } else {
      out.push(side === "A" ? { path, status: "A", oldMode: null, newMode: e.mode, oldOid: null, newOid: e.oid } : { path, status: "D", oldMode: e.mode, newMode: null, oldOid: e.oid, newOid: null });
    }
  };
  const recurse = (a: string | null, b: string | null, prefix: string): void => {
    if (a === b) return;
    const left = new Map((a ? readTreeEntries(odb, a, prefix) : []).map((e) => [e.name, e]));
    const right = new Map((b ? readTreeEntries(odb, b, prefix) : []).map((e) => [e.name, e]));
    for (const [name, l] of left) {
      const r = right.get(name);
      const path = prefix === "" ? name : `${prefix}/${name}`;
      if (!r) {
        emit(prefix, l, "D");
        continue;
      }
      const lTree = l.mode === TREE_MODE;
      const rTree = r.mode === TREE_MODE;
      if (lTree && rTree) recurse(l.oid, r.oid, path);
      else if (lTree !== rTree) {
        emit(prefix, l, "D");
        emit(prefix, r, "A");
      } else if (l.oid !== r.oid || l.mode !== r.mode) {
        const typeChanged = l.mode !== r.mode && (l.mode === "120000" || r.mode === "120000" || l.mode === "160000" || r.mode === "160000");
        out.push({
          path,
          status: typeChanged || (l.mode !== r.mode && l.oid === r.oid) ? "T" : "M",
          oldMode: l.mode,
          newMode: r.mode,
          oldOid: l.oid,
          newOid: r.oid,
        });
      }
    }
    for (const [name, r] of right) if (!left.has(name)) emit(prefix, r, "A");
  };
  recurse(oldTree, newTree, "");
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.status === "D" ? -1 : 1));
}
