// The repositories the rows edit, and putting them back.
//
// A generated repository is measured where it is cached and restored in place
// afterwards: tracked files back to HEAD, files the bench added removed, and
// ralph's and the bench's refs, caches and state deleted. Before each use it
// is checked against the generator's stamp (HEAD, `git status`, no leftovers);
// a repository an interrupted run left dirty is restored first, and one that
// cannot be restored is regenerated. (Restoring takes well under a second;
// copying 30k files would take 3-15 s, regenerating ~25 s.)
//
// A path given on the command line is copied whole to a throwaway folder that
// is deleted afterwards: nothing is ever run in the user's own repository
// except read-only `git rev-parse`.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { runOrThrow, runTimed } from "./proc.mjs";

/** Refs the benchmark (and ralph, on its behalf) writes. */
const BENCH_REF_PREFIXES = ["refs/ralph/", "refs/bench/"];

/**
 * Makes sure the generated repository at `root` is exactly as generated.
 * @returns {"clean" | "restored" | "broken"} broken: regenerate it
 */
export function restoreGeneratedRepo(root, stamp, env) {
  if (isAsGenerated(root, stamp, env)) return "clean";
  try {
    runOrThrow("git", ["reset", "-q", "--hard", stamp.head], { cwd: root, env });
    const keep = new Set(stamp.untracked);
    for (const path of listUntracked(root, env)) if (!keep.has(path)) rmSync(join(root, path), { force: true });
    removeBenchState(root, env);
  } catch {
    return "broken";
  }
  return isAsGenerated(root, stamp, env) ? "restored" : "broken";
}

/**
 * Copies a working tree with its .git to `dest` (replaced), then refreshes the
 * copy's index stat data (new inodes and ctimes), as a live repository's index would be.
 */
export function copyRepo(source, dest, env) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dirname(dest), { recursive: true });
  const cp = spawnSync("cp", ["-a", "--", source, dest], { encoding: "utf8" });
  if (cp.status !== 0) {
    // No POSIX cp (or it failed): Node's copy keeps modes, symlinks and times too.
    rmSync(dest, { recursive: true, force: true });
    cpSync(source, dest, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
  spawnSync("git", ["update-index", "-q", "--refresh"], { cwd: dest, env, encoding: "utf8" });
}

/** Tracked and untracked (not ignored) file counts, tracked bytes, HEAD. */
export function repoFacts(root, env) {
  const tracked = runOrThrow("git", ["ls-files", "-z"], { cwd: root, env }).split("\0").filter(Boolean);
  let trackedBytes = 0;
  for (const path of tracked) {
    try {
      trackedBytes += statSync(join(root, path)).size;
    } catch {
      // tracked but deleted in the work tree: no bytes to count
    }
  }
  const head = runTimed("git", ["rev-parse", "--verify", "-q", "HEAD"], { cwd: root, env });
  return { trackedFiles: tracked.length, untrackedFiles: listUntracked(root, env).length, trackedBytes, head: head.status === 0 ? head.stdout.trim() : null };
}

/** HEAD at the stamp's commit, nothing modified, exactly the generated untracked files, no bench leftovers. */
function isAsGenerated(root, stamp, env) {
  if (!existsSync(join(root, ".git"))) return false;
  const head = runTimed("git", ["rev-parse", "--verify", "-q", "HEAD"], { cwd: root, env });
  if (head.status !== 0 || head.stdout.trim() !== stamp.head) return false;
  const status = runTimed("git", ["status", "--porcelain=v1", "-z", "--untracked-files=all"], { cwd: root, env });
  if (status.status !== 0) return false;
  const expected = stamp.untracked.map((path) => `?? ${path}`).join("\0");
  if (status.stdout.split("\0").filter(Boolean).sort().join("\0") !== expected) return false;
  if (listBenchRefs(root, env).length > 0) return false;
  return !["ralph", "bench-native.index"].some((name) => existsSync(join(root, ".git", name))) && !existsSync(join(root, ".aiwg"));
}

function removeBenchState(root, env) {
  const refs = listBenchRefs(root, env);
  if (refs.length > 0) {
    const input = refs.map((ref) => `delete ${ref}\n`).join("");
    const result = spawnSync("git", ["update-ref", "--stdin"], { cwd: root, env, input, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`git update-ref --stdin: ${result.stderr.trim()}`);
  }
  rmSync(join(root, ".git", "ralph"), { recursive: true, force: true });
  rmSync(join(root, ".git", "bench-native.index"), { force: true });
  rmSync(join(root, ".aiwg"), { recursive: true, force: true });
}

function listBenchRefs(root, env) {
  const out = runOrThrow("git", ["for-each-ref", "--format=%(refname)", ...BENCH_REF_PREFIXES], { cwd: root, env });
  return out.split("\n").filter(Boolean);
}

function listUntracked(root, env) {
  return runOrThrow("git", ["ls-files", "-z", "--others", "--exclude-standard"], { cwd: root, env }).split("\0").filter(Boolean);
}
