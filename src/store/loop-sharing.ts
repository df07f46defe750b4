/**
 * Sharing loops through git and cleaning them up: `refs/ralph/*` to and
 * from one remote, and deleting the refs of old loops.
 *
 * An ordinary `git push` sends branches and tags only (its default
 * refspecs never name refs/ralph/*); `git push --mirror` sends every ref,
 * loops included. Moving refs/ralph/* is a plain refspec push or fetch with
 * the real `git` binary (network, credentials and protocols are git's
 * business), never forced unless asked: a ref whose update is not a
 * fast-forward is left as it is on the receiving side and reported, so
 * nobody's checkpoints are overwritten by accident (git-push(1),
 * git-fetch(1) "<refspec>").
 *
 * Deleting refs goes through `git update-ref --stdin` (one transaction,
 * each delete checked against the oid read, loose and packed refs alike:
 * git-update-ref(1)). The commits stay in the object database until git's
 * own gc prunes what nothing references.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { RalphError } from "../errors.js";
import { REF_PREFIX, type CheckpointStore } from "./checkpoint-store.js";
import { isLoopId } from "./loop-id.js";

/** One ref a push or fetch did not update (not a fast-forward, or refused by the other side), with git's reason. */
export interface RefRejection {
  ref: string;
  reason: string;
}

/** What {@link syncLoopRefs} did. */
export interface SyncResult {
  direction: "push" | "fetch";
  remote: string;
  /** Refs updated, created or deleted on the receiving side. */
  updated: string[];
  /** Refs already equal on both sides. */
  upToDate: number;
  rejected: RefRejection[];
}

/** The refspec moving every loop: `refs/ralph/*` to the same names, `+` only when forced. */
export function loopRefspec(force: boolean): string {
  return `${force ? "+" : ""}${REF_PREFIX}*:${REF_PREFIX}*`;
}

/**
 * Parses what git reports per ref. Push: `--porcelain` stdout,
 * `<flag>\t<from>:<to>\t<summary>` (git-push(1) "OUTPUT"). Fetch: its
 * `-v` stderr, ` <flag> <summary> <from> -> <to> [(<reason>)]`
 * (git-fetch(1) "OUTPUT"; `--porcelain` needs git 2.41). Flags: ` `
 * fast-forward, `+` forced, `-` deleted, `*` new, `=` up to date, `!`
 * rejected, `t` tag updated.
 */
export function parseRefReport(direction: "push" | "fetch", text: string): Omit<SyncResult, "direction" | "remote"> {
  const updated: string[] = [];
  const rejected: RefRejection[] = [];
  let upToDate = 0;
  for (const line of text.split("\n")) {
    let flag: string;
    let ref: string;
    let reason: string;
    if (direction === "push") {
      const m = /^([ +\-*=!t])\t([^\t]*)\t(.*)$/.exec(line);
      if (!m) continue;
      const refs = m[2] as string;
      [flag, ref, reason] = [m[1] as string, refs.includes(":") ? refs.slice(refs.indexOf(":") + 1) : refs, (m[3] as string).replace(/^\[rejected\]\s*/, "").trim()];
    } else {
      const m = /^ ([ +\-*=!t]) (\[[^\]]+\]|\S+)\s+(\S+)\s+->\s+(\S+)(?:\s+\((.*)\))?\s*$/.exec(line);
      if (!m) continue;
      [flag, ref, reason] = [m[1] as string, m[4] as string, m[5] ?? (m[2] as string)];
    }
    if (flag === "=") upToDate++;
    else if (flag === "!") rejected.push({ ref, reason: `${reason.replace(/^\(|\)$/g, "")}; ralph ${direction} --force overwrites it` });
    else updated.push(ref);
  }
  return { updated, upToDate, rejected };
}

/**
 * Pushes or fetches every `refs/ralph/*` ref to or from `remote` (a remote
 * name or URL) with the real git binary in `cwd`. `force`: overwrite refs
 * whose update is not a fast-forward. `prune`: delete, on the receiving
 * side, loop refs the sending side no longer has; git runs with `options.env` (the run's). `gitStderr` is what git
 * said on stderr (a pre-push hook's lines among it), for the caller to show.
 * @throws RalphError E_USAGE when git fails for another reason than
 *   rejected refs (unknown remote, no network, no permission), with git's
 *   last error line.
 */
export function syncLoopRefs(
  cwd: string,
  direction: "push" | "fetch",
  remote: string,
  options: { force?: boolean; prune?: boolean; env: Readonly<NodeJS.ProcessEnv> },
): SyncResult & { gitStderr: string } {
  const refspec = loopRefspec(options.force === true);
  const args =
    direction === "push"
      ? ["push", "--porcelain", ...(options.prune ? ["--prune"] : []), remote, refspec]
      : ["fetch", "-v", "--no-write-fetch-head", ...(options.prune ? ["--prune"] : []), remote, refspec];
  const result = spawnSync("git", args, { cwd, env: options.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 });
  if (result.error) throw new RalphError("E_USAGE", `git ${direction} could not run: ${result.error.message}`, { cause: result.error });
  const parsed = parseRefReport(direction, direction === "push" ? (result.stdout ?? "") : (result.stderr ?? ""));
  const nothingToSend = /src refspec refs\/ralph\/\* does not match any|no matching refs/i.test(result.stderr ?? "");
  if (result.status !== 0 && parsed.rejected.length === 0 && !nothingToSend) {
    const lines = (result.stderr ?? "").trim().split("\n");
    const last = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines.pop() ?? `exit ${result.status}`;
    throw new RalphError("E_USAGE", `git ${direction} ${remote} failed: ${last.trim()}`, { data: { remote, exit: result.status } });
  }
  return { direction, remote, ...parsed, gitStderr: result.stderr ?? "" };
}

/** A loop's refs as `gc` sees them: every ref under `refs/ralph/<loop>/`, and the committer time of its newest commit (seconds). */
export interface LoopRefs {
  loop: string;
  refs: Map<string, string>;
  /** Committer time of the newest commit any of its refs points at, seconds since the epoch; 0 when none is readable. */
  updatedSec: number;
  /** Whether the loop's commits carry `Ralph-Loop: <loop>` (ralph wrote them). */
  isRalphLoop: boolean;
}

/** Every loop folder under refs/ralph/, each with its refs (listed from the refs, so loops without a head are found too). */
export function listLoopRefs(store: CheckpointStore): LoopRefs[] {
  const byLoop = new Map<string, Map<string, string>>();
  for (const [name, oid] of store.listRefs(REF_PREFIX)) {
    const rest = name.slice(REF_PREFIX.length);
    const slash = rest.indexOf("/");
    if (slash < 0) continue;
    const loop = rest.slice(0, slash);
    let refs = byLoop.get(loop);
    if (!refs) byLoop.set(loop, (refs = new Map()));
    refs.set(rest.slice(slash + 1), oid);
  }
  const out: LoopRefs[] = [];
  for (const [loop, refs] of byLoop) {
    let updatedSec = 0;
    let isRalphLoop = false;
    for (const oid of refs.values()) {
      try {
        const checkpoint = store.readCheckpoint(oid);
        updatedSec = Math.max(updatedSec, checkpoint.timeSec);
        if (checkpoint.loop === loop) isRalphLoop = true;
      } catch {
        /* not a commit ralph can read: the loop is not ralph's */
      }
    }
    out.push({ loop, refs, updatedSec, isRalphLoop: isRalphLoop && isLoopId(loop) });
  }
  return out.sort((a, b) => a.loop.localeCompare(b.loop));
}

/**
 * Deletes refs in one `git update-ref --stdin` transaction, each only if it
 * still holds the oid given (a loop that moved meanwhile is left alone:
 * the whole transaction fails and nothing is deleted).
 * @throws RalphError E_CONFLICT when a ref moved meanwhile or is locked.
 */
export function deleteRefs(cwd: string, refs: ReadonlyMap<string, string>, env: Readonly<NodeJS.ProcessEnv>): void {
  if (refs.size === 0) return;
  const input = `start\n${[...refs].map(([name, oid]) => `delete ${name} ${oid}\n`).join("")}prepare\ncommit\n`;
  try {
    execFileSync("git", ["update-ref", "--stdin"], { cwd, env, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    const stderr =
      String((error as { stderr?: unknown }).stderr ?? "")
        .trim()
        .split("\n")[0] ?? "";
    throw new RalphError("E_CONFLICT", `could not delete ${refs.size} ref(s): ${stderr}; a loop may have moved meanwhile: run ralph gc again`, { cause: error });
  }
}

/**
 * Which of `oids` some ref, reflog entry or the index still reaches:
 * `git rev-list --objects --all --reflog --indexed-objects`, streamed (its
 * output is every reachable object: only the asked oids are kept in
 * memory). Cost grows with the history, as git's own gc does.
 * @throws RalphError E_CORRUPT when rev-list fails (a missing object).
 */
export async function reachableAmong(cwd: string, oids: ReadonlySet<string>, env: Readonly<NodeJS.ProcessEnv>): Promise<Set<string>> {
  const found = new Set<string>();
  if (oids.size === 0) return found;
  const child = spawn("git", ["rev-list", "--objects", "--all", "--reflog", "--indexed-objects"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString("utf8");
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const oid = line.slice(0, 40);
    if (oids.has(oid)) found.add(oid);
  }
  const status = await new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on("close", (code) => resolve(code));
  });
  if (status !== 0) throw new RalphError("E_CORRUPT", `git rev-list --objects --all failed (exit ${status}): ${stderr.trim().split("\n")[0] ?? ""}; run git fsck`, { data: { exit: status } });
  return found;
}
