/**
 * Checkpoint commit messages: a one-line subject, a blank line, then git
 * trailers (git-interpret-trailers(1): `Key: value` lines forming the last
 * paragraph). Values are single-line; paths are JSON-quoted so spaces,
 * quotes and newlines survive.
 */

/** The kinds of checkpoint (DESIGN.md "Storage"). */
export const CHECKPOINT_KINDS = ["baseline", "iteration", "pre-tool", "post-tool", "pre-revert", "manual"] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

/** One trailer, in order. */
export interface Trailer {
  key: string;
  value: string;
}

/** Formats a commit message from a subject and trailers. Newlines in the subject are flattened to spaces. */
export function formatMessage(subject: string, trailers: readonly Trailer[]): string {
  const flat = subject.replace(/\s*\n\s*/g, " ").trim() || "checkpoint";
  const lines = trailers.map((t) => `${t.key}: ${t.value.replace(/\n/g, " ")}`);
  return lines.length === 0 ? `${flat}\n` : `${flat}\n\n${lines.join("\n")}\n`;
}

/**
 * Parses the trailer block of a commit message: the last paragraph, when
 * every non-continuation line in it is `Token: value` (a token is letters,
 * digits and '-'). Continuation lines (leading whitespace) are joined.
 * Returns [] when the last paragraph is not a trailer block.
 */
export function parseTrailers(message: string): Trailer[] {
  const paragraphs = message
    .replace(/\r\n/g, "\n")
    .trimEnd()
    .split(/\n[ \t]*\n/);
  if (paragraphs.length < 2) return [];
  const last = (paragraphs[paragraphs.length - 1] as string).split("\n");
  const out: Trailer[] = [];
  for (const line of last) {
    if (/^[ \t]/.test(line) && out.length > 0) {
      const prev = out[out.length - 1] as Trailer;
      prev.value = `${prev.value} ${line.trim()}`;
      continue;
    }
    const m = /^([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!m) return [];
    out.push({ key: m[1] as string, value: (m[2] as string).trim() });
  }
  return out;
}

/** The first value of trailer `key` (case-insensitive), or undefined. */
export function trailerValue(trailers: readonly Trailer[], key: string): string | undefined {
  const k = key.toLowerCase();
  return trailers.find((t) => t.key.toLowerCase() === k)?.value;
}

/** All values of trailer `key` (case-insensitive). */
export function trailerValues(trailers: readonly Trailer[], key: string): string[] {
  const k = key.toLowerCase();
  return trailers.filter((t) => t.key.toLowerCase() === k).map((t) => t.value);
}

/** The subject line of a commit message. */
export function subjectOf(message: string): string {
  return message.split("\n", 1)[0] ?? "";
}
