/**
 * Loop ids: the `<loop>` component of `refs/ralph/<loop>/…` and of
 * `.aiwg/ralph/loops/<loop>/`. A branded type made only by {@link parseLoopId},
 * which applies git's ref-name rules (git-check-ref-format(1)) to a single
 * component and is stricter still, so an id can never inject a path or a ref.
 */
import { RalphError } from "../errors.js";

/** A validated loop id. */
export type LoopId = string & { readonly __brand: "LoopId" };

/** Maximum loop id length, in characters. */
export const MAX_LOOP_ID_LENGTH = 100;

/** The loop used when no loop is named and none exists yet. */
export const DEFAULT_LOOP_ID = "default" as LoopId;

/**
 * Validates a loop id: 1-100 characters from `A-Z a-z 0-9 . _ -`, starting
 * with a letter or digit, no `..`, not ending in `.` or `.lock`
 * (git-check-ref-format rules for one component; `/`, spaces, control
 * characters, `~^:?*[\` and `@{` are all excluded by the character set).
 * @throws RalphError E_BAD_LOOP_ID naming the rule that failed.
 */
export function parseLoopId(raw: string): LoopId {
  const fail = (why: string): never => {
    throw new RalphError("E_BAD_LOOP_ID", `invalid loop id ${JSON.stringify(raw)}: ${why}`, { data: { loop: raw } });
  };
  if (typeof raw !== "string" || raw.length === 0) fail("it is empty");
  if (raw.length > MAX_LOOP_ID_LENGTH) fail(`it is longer than ${MAX_LOOP_ID_LENGTH} characters`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(raw)) fail("use letters, digits, '.', '_' and '-' only, starting with a letter or digit");
  if (raw.includes("..")) fail("it contains '..'");
  if (raw.endsWith(".") || raw.endsWith(".lock")) fail("it ends with '.' or '.lock'");
  return raw as LoopId;
}

/** True when `raw` is a valid loop id (see {@link parseLoopId}). */
export function isLoopId(raw: string): raw is LoopId {
  try {
    parseLoopId(raw);
    return true;
  } catch {
    return false;
  }
}
