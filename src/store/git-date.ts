/**
 * The dates and identities of checkpoint commits, as git-commit-tree(1)
 * takes them: `GIT_AUTHOR_NAME`, `GIT_AUTHOR_EMAIL`, `GIT_AUTHOR_DATE`,
 * `GIT_COMMITTER_NAME`, `GIT_COMMITTER_EMAIL`, `GIT_COMMITTER_DATE` win
 * over `user.name`, `user.email` and the current time. Date formats are
 * git's (git-commit-tree(1) "DATE FORMATS"): the internal format
 * `<unix seconds> <±hhmm>` (also `@<seconds>`), RFC 2822
 * (`Thu, 07 Apr 2005 22:13:13 +0200`) and ISO 8601
 * (`2005-04-07T22:13:13`, a space for the `T`, fractions ignored, `Z` or
 * `±hh[:]mm`; no zone means local time).
 */
import { RalphError } from "../errors.js";
import type { IdentityOverride } from "../runtime-env.js";

/** A commit date: seconds since the epoch and the ±hhmm zone git records. */
export interface GitDate {
  timestamp: number;
  timezone: string;
}

/** `date`'s local offset as git writes it: `+hhmm` or `-hhmm`. */
export function localTimezone(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  return formatOffset(minutes);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses a date in one of git's formats (module docstring); null when it is none of them.
 */
export function parseGitDate(text: string): GitDate | null {
  const trimmed = text.trim();
  const internal = /^@?(\d+)(?:\s+([+-])(\d{2})(\d{2}))?$/.exec(trimmed);
  if (internal) {
    const timestamp = Number(internal[1]);
    if (internal[2] === undefined) return { timestamp, timezone: "+0000" };
    return { timestamp, timezone: `${internal[2]}${internal[3]}${internal[4]}` };
  }
  const iso = ISO.exec(trimmed);
  if (iso) {
    const [year, month, day, hour, minute, second] = iso.slice(1, 7).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
    const zone = iso[7];
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
    if (zone === undefined) {
      const local = new Date(year, month - 1, day, hour, minute, second);
      return { timestamp: Math.floor(local.getTime() / 1000), timezone: localTimezone(local) };
    }
    const offsetMinutes = zone.toUpperCase() === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
    const utc = Date.UTC(year, month - 1, day, hour, minute, second) / 1000 - offsetMinutes * 60;
    return { timestamp: utc, timezone: formatOffset(offsetMinutes) };
  }
  const rfc = /^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s+([+-])(\d{2})(\d{2})$/.exec(trimmed);
  if (rfc) {
    const ms = Date.parse(trimmed);
    if (Number.isNaN(ms)) return null;
    return { timestamp: Math.floor(ms / 1000), timezone: `${rfc[1]}${rfc[2]}${rfc[3]}` };
  }
  return null;
}

/** A commit signature's fields (odb.ts `Signature`). */
export interface CommitIdentity {
  name: string;
  email: string;
  timestamp: number;
  timezone: string;
}

/**
 * The identity of one role (author or committer) of a checkpoint commit:
 * the environment's name, email and date where set, else `fallback`'s name
 * and email (user.name/user.email) and `now`.
 * @param variable the date variable's name, for the error (`GIT_AUTHOR_DATE`)
 * @throws RalphError E_USAGE when the date variable is set but is none of git's formats.
 */
export function commitIdentity(override: IdentityOverride, fallback: { name: string; email: string }, now: Date, variable: string): CommitIdentity {
  let date: GitDate = { timestamp: Math.floor(now.getTime() / 1000), timezone: localTimezone(now) };
  if (override.date !== undefined) {
    const parsed = parseGitDate(override.date);
    if (parsed === null) {
      throw new RalphError("E_USAGE", `${variable}=${JSON.stringify(override.date)} is not a date git understands; use "<unix seconds> +hhmm" or ISO 8601, or unset it`, {
        data: { variable, value: override.date },
      });
    }
    date = parsed;
  }
  return { name: override.name ?? fallback.name, email: override.email ?? fallback.email, ...date };
}
