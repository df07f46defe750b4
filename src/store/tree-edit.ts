/**
 * Editing a stored tree in place of rebuilding it: set or remove a few
 * paths and rewrite only the trees along those paths (every other subtree
 * keeps its oid). This is what lets a checkpoint after an edit of one file
 * cost a handful of object reads and writes, whatever the repository size.
 */
import { RalphError } from "../errors.js";
import { encodeTree, ObjectDatabase, parseTree, type TreeEntry } from "./odb.js";

/** A new entry for a path (a file, symlink or gitlink), or null to remove the path. */
export type TreeEdit = { mode: string; oid: string } | null;

const TREE_MODE = "40000";

function readEntries(odb: ObjectDatabase, oid: string | null): TreeEntry[] {
  if (oid === null) return [];
  const obj = odb.read(oid);
  if (obj.type !== "tree") throw new RalphError("E_CORRUPT", `object ${oid} is a ${obj.type}, expected a tree`, { data: { oid } });
  return parseTree(obj.content);
}

/**
 * Applies `edits` (path -> entry, or null to delete) to the tree `baseTree`
 * (null: the empty tree) and writes the changed trees. A file written where
 * a folder was replaces the folder; a folder needed where a file was
 * replaces the file; folders left empty disappear, as git has no empty trees.
 * @returns the new root tree oid
 * @throws RalphError E_CORRUPT when a base object is missing or not a tree.
 */
export function editTree(odb: ObjectDatabase, baseTree: string | null, edits: ReadonlyMap<string, TreeEdit>): string {
  interface Node {
    /** Edits for entries directly in this folder. */
    here: Map<string, TreeEdit>;
    /** Edits below child folders. */
    below: Map<string, Node>;
  }
  const root: Node = { here: new Map(), below: new Map() };
  for (const [path, edit] of edits) {
    const parts = path.split("/");
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i] as string;
      let next = node.below.get(name);
      if (!next) node.below.set(name, (next = { here: new Map(), below: new Map() }));
      node = next;
    }
    node.here.set(parts[parts.length - 1] as string, edit);
  }
  const apply = (treeOid: string | null, node: Node): string | null => {
    const entries = new Map(readEntries(odb, treeOid).map((e) => [e.name, e]));
    for (const [name, edit] of node.here) {
      if (edit === null) {
        const existing = entries.get(name);
        if (existing && existing.mode !== TREE_MODE) entries.delete(name);
      } else entries.set(name, { mode: edit.mode, name, oid: edit.oid });
    }
    for (const [name, child] of node.below) {
      const existing = entries.get(name);
      const base = existing && existing.mode === TREE_MODE ? existing.oid : null;
      const updated = apply(base, child);
      if (updated === null) {
        if (existing && existing.mode === TREE_MODE) entries.delete(name);
      } else entries.set(name, { mode: TREE_MODE, name, oid: updated });
    }
    if (entries.size === 0) return null;
    const content = encodeTree([...entries.values()]);
    return odb.write("tree", content);
  };
  return apply(baseTree, root) ?? odb.write("tree", Buffer.alloc(0));
}
