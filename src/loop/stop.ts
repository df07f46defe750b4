/**
 * The Stop hook's decision (issue 4, "Behaviour per event: Stop"): the
 * persistent loop of reference/persistent-loop-stop-hook.zh.md. Without an
 * active loop the stop is allowed; with one, the loop engine decides.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { openRepository } from "../store/repo.js";

/** What the Stop hook hands in (from Claude Code's Stop payload; every field may be missing). */
export interface StopInput {
  cwd: string;
  sessionId: string | undefined;
  transcriptPath: string | undefined;
  stopHookActive: boolean | undefined;
  /** The clock, ms since the epoch (tests); default Date.now(). */
  nowMs?: number;
}

/**
 * The decision: `allow` lets the agent stop (`loop` is the active loop or
 * null), `block` keeps it working with `reason` (sent to the model, under
 * 10,000 characters). `why` is a one-line explanation for logs.
 */
export type StopDecision = { action: "allow"; why: string; loop: string | null } | { action: "block"; reason: string; why: string; loop: string };

/** The Stop hook's decision for the active loop of the repository at cwd (allow when there is none). Never throws for user state problems: returns allow with `why`. */
export async function decideStop(input: StopInput): Promise<StopDecision> {
  let workTree: string;
  try {
    workTree = openRepository(input.cwd).workTree;
  } catch (error) {
    return { action: "allow", why: `no repository at ${input.cwd}: ${(error as Error).message}`, loop: null };
  }
  let active: string;
  try {
    active = readFileSync(join(workTree, ".aiwg", "ralph", "active"), "utf8").trim();
  } catch (error) {
    if (isErrno(error, "ENOENT")) return { action: "allow", why: "no active loop", loop: null };
    return { action: "allow", why: `cannot read the active loop marker: ${(error as Error).message}`, loop: null };
  }
  if (active === "") return { action: "allow", why: "no active loop", loop: null };
  return { action: "allow", why: `loop ${active} is active, but this build does not run its completion check yet`, loop: active };
}
