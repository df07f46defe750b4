/**
 * The per-path half of the checkpoint fast path (CheckpointStore.checkpointPaths):
 * what the named paths look like now, as tree edits against the loop's head
 * checkpoint, with git's rules for which paths a snapshot holds (ignored new
 * files stay out unless git tracks them; nothing inside a nested repository).
 */
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { isErrno } from "../errors.js";
import { readGitIndex } from "./git-index.js";
import { globalLayers, isIgnoreCase, isIgnored, makeLayer, readPatternFile, type IgnoreLayer } from "./ignore-rules.js";
import type { ObjectDatabase } from "./odb.js";
import { parseTree } from "./odb.js";
import type { Repository } from "./repo.js";
import { assertSafePath } from "./restore.js";
import { STATE_DIR, unreadableFile } from "./snapshot.js";
import { trailerValues, type Trailer } from "./trailers.js";
import type { TreeEdit } from "./tree-edit.js";

/** What the fast path will change, or what it noted. */
export interface PathEdits {
  edits: Map<string, TreeEdit>;
  /** Files over the size cap: the head's own list, minus re-read paths, plus new ones. */
  skipped: { path: string; sizeBytes: number }[];
  /** Unusual permissions: the head's own list, minus re-read paths, plus new ones. */
  unusualModes: { path: string; perm: string }[];
  /** Files read and hashed. */
  hashed: number;
}

/** Normalises a tool-supplied path to a work-tree-relative '/' path, or null when it is not a path a snapshot may hold. */
export function workTreePath(repo: Repository, raw: string): string | null {
  const slashed = raw.replace(/\\/g, "/");
  let rel = isAbsolute(slashed) ? relative(repo.workTree, slashed) : slashed.replace(/^(\.\/)+/, "");
  if (isAbsolute(slashed) && (rel.startsWith("../") || rel === "..")) {
    // The agent may name the file through a symlinked path to the work tree (the work tree path is real).
    try {
      rel = relative(repo.workTree, join(realpathSync(dirname(slashed)), basename(slashed)));
    } catch {
      /* its folder does not exist: leave it outside */
    }
  }
  if (rel === "" || rel.startsWith("../") || rel === ".." || isAbsolute(rel)) return null;
  try {
    assertSafePath(rel);
  } catch {
    return null;
  }
  if (rel === STATE_DIR || rel.startsWith(`${STATE_DIR}/`)) return null;
  return rel;
}

function treeHasFile(odb: ObjectDatabase, treeOid: string, path: string): boolean {
  let oid = treeOid;
  const parts = path.split("/");
  for (let i = 0; i < parts.length; i++) {
    const entry = parseTree(odb.read(oid).content).find((e) => e.name === parts[i]);
    if (!entry) return false;
    if (i === parts.length - 1) return entry.mode !== "40000";
    if (entry.mode !== "40000") return false;
    oid = entry.oid;
  }
  return false;
}

/** Would a full snapshot hold this (absent from the head) path? Not when git ignores it and does not track it, nor inside a nested repository. */
function belongsInSnapshot(repo: Repository, path: string): boolean {
  const parts = path.split("/");
  const globals = globalLayers(repo.commonDir, repo.config, repo.env.git).layers;
  const perFolder: IgnoreLayer[] = [];
  for (let i = 0; i < parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    if (i > 0 && existsSync(join(repo.workTree, folder, ".git"))) return false; // inside a nested repository
    const text = readPatternFile(join(repo.workTree, folder, ".gitignore"));
    if (text !== null && text.trim() !== "") perFolder.unshift(makeLayer(folder, text, isIgnoreCase(repo.config)));
    const current = parts.slice(0, i + 1).join("/");
    if (isIgnored([...perFolder, ...globals], current, i < parts.length - 1)) {
      // Ignored: only a path git tracks anyway belongs.
      return readGitIndex(join(repo.gitDir, "index")).entries.some((e) => e.path === path);
    }
  }
  return true;
}

function parseQuotedPathTrailer(value: string, pattern: RegExp): { path: string; rest: string } | null {
  const m = pattern.exec(value);
  if (!m) return null;
  try {
    return { path: JSON.parse(m[2] as string) as string, rest: m[1] ?? m[3] ?? "" };
  } catch {
    return null;
  }
}

/**
 * Reads the named paths and turns them into edits of the head checkpoint's
 * tree. Returns null when the fast path cannot represent the change (a path
 * is now a folder, or is not a work tree path: outside it, in `.git` or in
 * ralph's state folder): the caller takes a full snapshot instead.
 * @throws RalphError E_UNREADABLE when a named file cannot be read.
 */
export function planPathEdits(repo: Repository, odb: ObjectDatabase, head: { treeOid: string; trailers: Trailer[] }, rawPaths: readonly string[], sizeCapBytes: number): PathEdits | null {
  const edits = new Map<string, TreeEdit>();
  const skipped: PathEdits["skipped"] = [];
  const unusualModes: PathEdits["unusualModes"] = [];
  let hashed = 0;
  const umask = process.umask();
  for (const raw of rawPaths) {
    const path = workTreePath(repo, raw);
    if (path === null) return null; // not a path the fast path can place: let a full scan decide
    let st;
    try {
      st = lstatSync(join(repo.workTree, path), { throwIfNoEntry: false });
    } catch (error) {
      if (!isErrno(error, "ENOTDIR")) throw error;
    }
    if (!st) {
      edits.set(path, null);
      continue;
    }
    if (st.isDirectory()) return null;
    if (!st.isFile() && !st.isSymbolicLink()) continue;
    if (!treeHasFile(odb, head.treeOid, path) && !belongsInSnapshot(repo, path)) continue;
    if (st.size > sizeCapBytes) {
      skipped.push({ path, sizeBytes: st.size });
      edits.set(path, null);
      continue;
    }
    let content: Buffer;
    try {
      content = st.isSymbolicLink() ? readlinkSync(join(repo.workTree, path), { encoding: "buffer" }) : readFileSync(join(repo.workTree, path));
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) {
        edits.set(path, null);
        continue;
      }
      if (isErrno(error, "EACCES", "EPERM")) throw unreadableFile(path, error);
      throw error;
    }
    const mode = st.isSymbolicLink() ? "120000" : st.mode & 0o100 ? "100755" : "100644";
    edits.set(path, { mode, oid: odb.write("blob", content) });
    hashed++;
    const perm = st.mode & 0o777;
    if (mode !== "120000" && perm !== ((mode === "100755" ? 0o777 : 0o666) & ~umask)) unusualModes.push({ path, perm: perm.toString(8).padStart(4, "0") });
  }
  // What the head noted about paths not re-read still holds.
  for (const value of trailerValues(head.trailers, "Ralph-Skipped")) {
    const t = parseQuotedPathTrailer(value, /^()(".*") (\d+) bytes/);
    if (t && !edits.has(t.path)) skipped.push({ path: t.path, sizeBytes: Number(/ (\d+) bytes/.exec(value)?.[1] ?? 0) });
  }
  for (const value of trailerValues(head.trailers, "Ralph-Mode")) {
    const t = parseQuotedPathTrailer(value, /^([0-7]{3,4}) (".*")()$/);
    if (t && !edits.has(t.path)) unusualModes.push({ path: t.path, perm: t.rest });
  }
  return { edits, skipped, unusualModes, hashed };
}
