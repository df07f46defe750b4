/**
 * git's pre-push protocol (githooks(5), "pre-push"): `git push` runs the
 * hook with two arguments, the name of the remote and its URL (both the URL
 * when no named remote is used), and one line per ref update on stdin:
 *
 *   <local ref> SP <local object name> SP <remote ref> SP <remote object name> LF
 *
 * A deleted remote ref has local ref `(delete)` and an all-zero local object
 * name; a remote ref that does not exist yet has an all-zero remote object
 * name. A non-zero exit aborts the whole push.
 *
 * For each update this module picks the base the pushed commits build on
 * ({@link chooseBase}) and judges base -> local with the same engine as
 * `ralph check` ({@link judgePush}). Parsing and base choice are pure over a
 * small {@link PushGit} interface; {@link realPushGit} answers it with the
 * real `git` binary (git itself runs the hook, so it is on PATH).
 */
import { execFileSync } from "node:child_process";
import { judgeChange, type JudgeOptions, type Judgement } from "../loop/check.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import { parseCommit } from "../store/odb.js";

/** One ref update git announced on the hook's stdin. Oids are lowercase hex (40 for SHA-1, 64 for SHA-256 repositories). */
export interface PushUpdate {
  /** The local ref, `(delete)` for a deletion, or the expression given on the command line (`HEAD~`, an oid). */
  localRef: string;
  localOid: string;
  /** The ref updated on the remote, e.g. `refs/heads/main`. */
  remoteRef: string;
  /** All zeros when the remote ref does not exist yet. */
  remoteOid: string;
}

/** A stdin line that is not a pre-push update (1-based line number, the text, why). */
export interface PushLineProblem {
  line: number;
  text: string;
  why: string;
}

/** What {@link parsePushLines} found: the updates, in stdin order, and the lines it ignored. */
export interface ParsedPushInput {
  updates: PushUpdate[];
  problems: PushLineProblem[];
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** True for an all-zero object name (githooks(5): a deletion on the local side, a new ref on the remote side). */
export function isZeroOid(oid: string): boolean {
  return /^0+$/.test(oid);
}

/**
 * Parses the hook's stdin (githooks(5) "pre-push"). Empty lines are skipped;
 * a line that does not have four space-separated fields with two object
 * names is reported in `problems` and otherwise ignored. A trailing `\r` is
 * tolerated. Pure; never throws.
 */
export function parsePushLines(text: string): ParsedPushInput {
  const updates: PushUpdate[] = [];
  const problems: PushLineProblem[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const fields = line.split(" ");
    if (fields.length !== 4 || fields.some((f) => f === "")) {
      problems.push({ line: index + 1, text: line, why: `expected 4 space-separated fields, got ${fields.filter((f) => f !== "").length}` });
      return;
    }
    const [localRef, localOid, remoteRef, remoteOid] = fields as [string, string, string, string];
    const bad = [localOid, remoteOid].find((oid) => !OID.test(oid.toLowerCase()));
    if (bad !== undefined) {
      problems.push({ line: index + 1, text: line, why: `${JSON.stringify(bad)} is not an object name` });
      return;
    }
    updates.push({ localRef, localOid: localOid.toLowerCase(), remoteRef, remoteOid: remoteOid.toLowerCase() });
  });
  return { updates, problems };
}

/** The few repository questions {@link chooseBase} asks (real git in the hook: {@link realPushGit}; fakes in tests). */
export interface PushGit {
  /** The commit an object name peels to (a commit, or the commit an annotated tag points at), or null when it is not in this repository or is no commit. */
  peelToCommit(oid: string): string | null;
  /**
   * The commits reachable from `commit` and from none of the refs of
   * `scope`, oldest first (parents before children), each with its parents:
   * `git rev-list --topo-order --reverse --parents <commit> --not …` with
   * `--remotes=<remote>` (a string), `--remotes` (null: every remote), or
   * every local branch and tag but `exceptLocalRef` (`--exclude=<ref>
   * --glob=refs/heads/*`, the same for refs/tags/*).
   */
  newCommits(commit: string, scope: string | null | { exceptLocalRef: string }): { oid: string; parents: string[] }[];
}

/**
 * Where the judgement of one update starts:
 * - `skip`: nothing to judge (`deletion`: the remote ref is deleted;
 *   `unchanged`: the remote already has this commit; `nothing-new`: every
 *   pushed commit is already on the remote's tracking refs; `not-a-commit`:
 *   the local object is a tree or blob, or missing);
 * - `root`: the oldest pushed commit has no parent: the push brings a new
 *   history, so nothing on the remote can have been deleted (PASS);
 * - `base`: judge `base` -> `to`; `via` says how the base was found.
 */
export type BaseChoice =
  | { kind: "skip"; reason: "deletion" | "unchanged" | "nothing-new" | "not-a-commit" | "ralph-refs" }
  | { kind: "root"; to: string }
  | { kind: "base"; base: string; to: string; via: "remote-oid" | "remote-tracking" | "local-refs" };

/**
 * Chooses the base of one update:
 * 1. an all-zero local oid is a deletion: skip;
 * 2. the remote oid, when it is not all zeros and is a commit this
 *    repository has (an ordinary or forced update): the change the remote
 *    will see is exactly remote -> local;
 * 3. otherwise (a new remote ref, or a remote commit not fetched yet): the
 *    commits reachable from local and from none of the remote's tracking
 *    refs (`remote` is the hook's first argument; when it equals the URL no
 *    named remote is used, so every remote's tracking refs count); none:
 *    skip; else the first parent of the oldest of them;
 * 4. when that oldest commit is a root (the remote has no tracking refs
 *    sharing the history: a fork never fetched, a push by URL), the same
 *    with every remote's tracking refs, then with every other local branch
 *    and tag (the best knowledge of what the remote already has); `root`
 *    only when the history shares nothing with any of them.
 * Never throws for missing objects; errors of {@link PushGit} propagate.
 */
export function chooseBase(update: PushUpdate, remote: string, url: string, git: PushGit): BaseChoice {
  if (isZeroOid(update.localOid)) return { kind: "skip", reason: "deletion" };
  const to = git.peelToCommit(update.localOid);
  if (to === null) return { kind: "skip", reason: "not-a-commit" };
  if (!isZeroOid(update.remoteOid)) {
    const remoteCommit = git.peelToCommit(update.remoteOid);
    if (remoteCommit === to) return { kind: "skip", reason: "unchanged" };
    if (remoteCommit !== null) return { kind: "base", base: remoteCommit, to, via: "remote-oid" };
  }
  const scopes: { scope: string | null | { exceptLocalRef: string }; via: "remote-tracking" | "local-refs" }[] = [
    ...(remote === url ? [] : [{ scope: remote, via: "remote-tracking" as const }]),
    { scope: null, via: "remote-tracking" },
    { scope: { exceptLocalRef: update.localRef }, via: "local-refs" },
  ];
  for (const [index, { scope, via }] of scopes.entries()) {
    const oldest = git.newCommits(to, scope)[0];
    if (oldest === undefined) return index === 0 || via === "remote-tracking" ? { kind: "skip", reason: "nothing-new" } : { kind: "root", to };
    const parent = oldest.parents[0];
    if (parent !== undefined) return { kind: "base", base: parent, to, via };
  }
  return { kind: "root", to };
}

/**
 * {@link PushGit} on the real `git` binary, run in `cwd` with `env` (git
 * exports GIT_DIR and friends to hooks, so the child git finds the same
 * repository).
 * @throws Error when git cannot run or rev-list fails.
 */
export function realPushGit(cwd: string, env: Readonly<NodeJS.ProcessEnv>): PushGit {
  const run = (args: string[]): string => execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
  return {
    peelToCommit(oid) {
      try {
        return run(["rev-parse", "--verify", "--quiet", `${oid}^{commit}`]).trim() || null;
      } catch {
        return null;
      }
    },
    newCommits(commit, scope) {
      // git rev-list: an --exclude applies to the next --glob only, and --glob patterns name full refs (refs/…).
      const not =
        scope === null
          ? ["--remotes"]
          : typeof scope === "string"
            ? [`--remotes=${scope}`]
            : [`--exclude=${scope.exceptLocalRef}`, "--glob=refs/heads/*", `--exclude=${scope.exceptLocalRef}`, "--glob=refs/tags/*"];
      const out = run(["rev-list", "--topo-order", "--reverse", "--parents", commit, "--not", ...not]);
      return out
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const [oid, ...parents] = line.split(" ");
          return { oid: oid as string, parents };
        });
    },
  };
}

/** The outcome for one update: its base choice and, when something was judged, the judgement. */
export interface UpdateOutcome {
  update: PushUpdate;
  choice: BaseChoice;
  /** PASS for skipped updates and new histories. */
  verdict: Judgement["verdict"];
  judgement: Judgement | null;
}

/** What {@link judgePush} returns: one outcome per update, and whether the push must be refused (any BLOCK). */
export interface PushOutcome {
  updates: UpdateOutcome[];
  blocked: boolean;
}

/**
 * Judges every update of one push (githooks(5) "pre-push"): base -> local
 * with {@link judgeChange}, so `Ralph-Allow` trailers of the pushed commits
 * apply as they do for `ralph check`, plus `options` (the config's allow
 * rules and detection policy). The push is blocked when any verdict is
 * BLOCK; WARN never blocks.
 * @throws RalphError from the store (E_CORRUPT…) and errors of `git`.
 */
export async function judgePush(store: CheckpointStore, remote: string, url: string, updates: readonly PushUpdate[], git: PushGit, options: JudgeOptions = {}): Promise<PushOutcome> {
  const outcomes: UpdateOutcome[] = [];
  for (const update of updates) {
    // ralph's own refs (sharing a loop: `git push origin 'refs/ralph/*:refs/ralph/*'`) hold checkpoints, caught regressions included.
    const choice: BaseChoice = update.remoteRef.startsWith("refs/ralph/") ? { kind: "skip", reason: "ralph-refs" } : chooseBase(update, remote, url, git);
    if (choice.kind !== "base") {
      outcomes.push({ update, choice, verdict: "PASS", judgement: null });
      continue;
    }
    const treeOf = (oid: string): string => parseCommit(store.odb.read(oid).content).tree;
    const judgement = await judgeChange(
      store,
      { kind: "commit", oid: choice.base, treeOid: treeOf(choice.base), label: choice.base.slice(0, 12) },
      { kind: "commit", oid: choice.to, treeOid: treeOf(choice.to), label: update.localRef },
      options,
    );
    outcomes.push({ update, choice, verdict: judgement.verdict, judgement });
  }
  return { updates: outcomes, blocked: outcomes.some((o) => o.verdict === "BLOCK") };
}
