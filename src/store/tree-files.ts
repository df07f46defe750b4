/**
 * Read access to one tree's files by path, for the analysis layer (test
 * discovery reads runner configs folder by folder, and walks a folder when
 * a config changed). Each tree object is read at most once per reader, so
 * looking up the folders above many files costs one read per folder.
 */
import { isTreeMode, parseTree, type ObjectDatabase, type TreeEntry } from "./odb.js";
import { walkTree } from "./tree-diff.js";

/** The files of one tree (the shape analysis/discovery.ts calls a TreeReader). Paths are '/'-separated and repo-relative. */
export interface TreeFiles {
  /** The UTF-8 text of the file at `path`; null when there is none, or it is a folder, a symlink, a submodule or binary (a NUL in its first 8000 bytes). */
  read(path: string): string | null;
  /** Names of the regular files directly in `dir` ("" is the root). */
  fileNames(dir: string): readonly string[];
  /** Paths of every regular file below `dir` ("" is the whole tree), sorted. */
  walk(dir: string): readonly string[];
}

const isRegularFile = (entry: TreeEntry): boolean => !isTreeMode(entry.mode) && entry.mode !== "160000" && entry.mode !== "120000";

/**
 * A {@link TreeFiles} over the tree `treeOid` of `odb`.
 * @throws RalphError E_CORRUPT (from the odb) when a tree or blob it needs is missing or malformed.
 */
export function treeFiles(odb: ObjectDatabase, treeOid: string): TreeFiles {
  const folders = new Map<string, Map<string, TreeEntry> | null>();
  const readFolder = (oid: string): Map<string, TreeEntry> | null => {
    const object = odb.read(oid);
    return object.type === "tree" ? new Map(parseTree(object.content).map((entry) => [entry.name, entry])) : null;
  };
  const entriesOf = (dir: string): Map<string, TreeEntry> | null => {
    if (folders.has(dir)) return folders.get(dir) ?? null;
    let entries: Map<string, TreeEntry> | null;
    if (dir === "") entries = readFolder(treeOid);
    else {
      const slash = dir.lastIndexOf("/");
      const entry = entriesOf(slash === -1 ? "" : dir.slice(0, slash))?.get(dir.slice(slash + 1));
      entries = entry && isTreeMode(entry.mode) ? readFolder(entry.oid) : null;
    }
    folders.set(dir, entries);
    return entries;
  };
  const split = (path: string): [string, string] => {
    const slash = path.lastIndexOf("/");
    return slash === -1 ? ["", path] : [path.slice(0, slash), path.slice(slash + 1)];
  };
  return {
    read(path) {
      const [dir, name] = split(path);
      const entry = entriesOf(dir)?.get(name);
      if (!entry || !isRegularFile(entry)) return null;
      const content = odb.read(entry.oid).content;
      return content.subarray(0, 8000).includes(0) ? null : content.toString("utf8");
    },
    fileNames(dir) {
      return [...(entriesOf(dir)?.values() ?? [])].filter(isRegularFile).map((entry) => entry.name);
    },
    walk(dir) {
      let oid: string | null = treeOid;
      if (dir !== "") {
        const [parent, name] = split(dir);
        const entry = entriesOf(parent)?.get(name);
        oid = entry && isTreeMode(entry.mode) ? entry.oid : null;
      }
      if (oid === null) return [];
      const paths: string[] = [];
      for (const [path, entry] of walkTree(odb, oid, dir)) if (isRegularFile(entry)) paths.push(path);
      return paths.sort();
    },
  };
}
