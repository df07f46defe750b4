/**
 * ralph's entries in the hook managers' files (src/hooks/git-hook-managers.ts
 * writes them): whether a file holds one, and what an edit would do to it,
 * so the guard (issue 10, "The agent cannot switch its guard off") puts to
 * the human only an edit that removes or rewrites ralph's entry, never one
 * that leaves it as it is.
 *
 * Every entry ralph registers calls the runner at
 * `<git common dir>/ralph/hooks/pre-push` ({@link RALPH_ENTRY_MARK}):
 * - husky's `.husky/pre-push` and a simple-git-hooks `pre-push` command hold
 *   ralph's shell block between {@link BLOCK_BEGIN} and {@link BLOCK_END};
 * - a lefthook config holds a job (`jobs:` item or `commands:` key) whose
 *   `run` calls the runner (lefthook.dev, "Configuration");
 * - `.pre-commit-config.yaml` holds a `repo: local` hook whose `entry` calls
 *   it (pre-commit.com, "Repository local hooks").
 * An entry is compared as it would run: the block's text, or the whole job
 * or hook mapping that calls the runner (its `run`/`entry`, `use_stdin`,
 * `stages`, `skip`…), read with the `yaml` package (YAML files) or
 * `JSON.parse` (package.json and the `.json` configs); any other file
 * (`.husky/pre-push`, a `.simple-git-hooks.cjs`) is read as text.
 */
import { RALPH_ENTRY_MARK } from "./control-surface.js";
import { BLOCK_BEGIN, BLOCK_END, ENTRY_ID } from "./git-hook-managers.js";

/** lefthook's local config files, merged over the shared one (lefthook.dev, "lefthook-local.yml"). */
export function isLefthookLocal(path: string): boolean {
  return /(^|\/)\.?lefthook-local\.ya?ml$/.test(path);
}

/** The ralph blocks in a text (between the markers), plus lines that call the runner outside any block. */
function blocksOf(text: string): string[] {
  const found: string[] = [];
  let rest = text;
  for (;;) {
    const begin = rest.indexOf(BLOCK_BEGIN);
    const end = begin === -1 ? -1 : rest.indexOf(BLOCK_END, begin);
    if (end === -1) break;
    found.push(rest.slice(begin, end + BLOCK_END.length));
    rest = rest.slice(0, begin) + rest.slice(end + BLOCK_END.length);
  }
  for (const line of rest.split("\n")) if (line.includes(RALPH_ENTRY_MARK)) found.push(line.trim());
  return found;
}

/** JSON with sorted keys, so two mappings compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** ralph's entries in a parsed config: each string calling the runner gives its block (when it has one) or its whole mapping. */
function entriesOfValue(value: unknown, parent: unknown, out: string[]): void {
  if (typeof value === "string") {
    if (!value.includes(RALPH_ENTRY_MARK)) return;
    if (value.includes(BLOCK_BEGIN)) out.push(...blocksOf(value));
    else out.push(typeof parent === "object" && parent !== null && !Array.isArray(parent) ? canonical(parent) : value.trim());
    return;
  }
  if (Array.isArray(value)) for (const item of value) entriesOfValue(item, value, out);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) entriesOfValue(item, value, out);
}

/** What a hook manager's file says of ralph's entries: the entries (sorted), jobs named like ralph's (a local override), or `invalid`. */
type Entries = { entries: string[]; skipsPrePush: boolean; named: string[] } | "invalid";

/** The `pre-push` jobs (`jobs:` items with `name`) and commands (`commands:` keys) named {@link ENTRY_ID}, canonical. */
function namedLikeRalph(prePush: unknown): string[] {
  if (typeof prePush !== "object" || prePush === null) return [];
  const hook = prePush as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(hook.jobs)) for (const job of hook.jobs) if (typeof job === "object" && job !== null && (job as Record<string, unknown>).name === ENTRY_ID) found.push(canonical(job));
  if (typeof hook.commands === "object" && hook.commands !== null && ENTRY_ID in hook.commands) found.push(canonical((hook.commands as Record<string, unknown>)[ENTRY_ID]));
  return found.sort();
}

async function entriesOf(path: string, text: string | null): Promise<Entries> {
  if (text === null) return { entries: [], skipsPrePush: false, named: [] };
  const name = path.slice(path.lastIndexOf("/") + 1);
  let parsed: unknown;
  if (/\.ya?ml$/.test(name)) {
    const mod = (await import("yaml")) as typeof import("yaml") & { default?: typeof import("yaml") };
    const yaml = typeof mod.parseDocument === "function" ? mod : (mod.default as typeof import("yaml"));
    const doc = yaml.parseDocument(text);
    if (doc.errors.length > 0) return "invalid";
    parsed = doc.toJS() as unknown;
  } else if (name.endsWith(".json")) {
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      return "invalid";
    }
  } else {
    return { entries: blocksOf(text).sort(), skipsPrePush: false, named: [] };
  }
  const out: string[] = [];
  entriesOfValue(parsed, null, out);
  // lefthook's hook-level `skip` (lefthook.dev, "skip") turns every pre-push job off, ralph's included.
  const prePush = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["pre-push"] : undefined;
  const skip = typeof prePush === "object" && prePush !== null ? (prePush as Record<string, unknown>).skip : undefined;
  return { entries: out.sort(), skipsPrePush: skip !== undefined && skip !== false, named: namedLikeRalph(prePush) };
}

/**
 * What an edit of a hook manager's file (`path`, repository-relative) would
 * do to ralph's entry, or null when it leaves it as it is (or the file held
 * none): deletes the file, removes the entry, rewrites it, makes the file
 * unreadable as its format, or skips the whole pre-push hook.
 * `before`/`after` are the file's text (null: no file). A lefthook local
 * file (merged over the shared config, whose job it can override by name)
 * is also judged on a job named like ralph's or a hook-level `skip` it
 * adds, though it holds no entry itself.
 * @returns one line, e.g. `removes ralph's pre-push entry`.
 */
export async function describeHookManagerChange(path: string, before: string | null, after: string | null): Promise<string | null> {
  const old = await entriesOf(path, before);
  if (isLefthookLocal(path) && old !== "invalid") {
    const next = await entriesOf(path, after);
    if (next !== "invalid") {
      const parts: string[] = [];
      if (canonical(next.named) !== canonical(old.named) && next.named.length > 0) parts.push(`overrides ralph's ${ENTRY_ID} job (lefthook merges this file over the shared config)`);
      if (next.skipsPrePush && !old.skipsPrePush) parts.push("sets skip on the pre-push hook, which turns ralph's entry off");
      if (parts.length > 0) return parts.join("; ");
    }
  }
  if (old === "invalid" || old.entries.length === 0) return null;
  if (after === null) return "deletes the file holding ralph's pre-push entry";
  const next = await entriesOf(path, after);
  if (next === "invalid") return "makes the file unreadable to its hook manager, which drops ralph's pre-push entry";
  const parts: string[] = [];
  if (next.entries.length === 0) parts.push("removes ralph's pre-push entry");
  else if (canonical(next.entries) !== canonical(old.entries)) parts.push("rewrites ralph's pre-push entry");
  if (next.skipsPrePush && !old.skipsPrePush) parts.push("sets skip on the pre-push hook, which turns ralph's entry off");
  return parts.length > 0 ? parts.join("; ") : null;
}
