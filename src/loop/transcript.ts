/**
 * What the Stop hook reads from a Claude Code transcript (the session's
 * JSONL file, `transcript_path` of the hook payload): how full the context
 * window is, and whether the last turn ended on an authentication failure.
 *
 * The format, as Claude Code writes it (one JSON object per line):
 * - `{"type":"assistant","isSidechain":false,"message":{"id":"msg_…","model":"claude-…",
 *   "content":[…],"usage":{"input_tokens":…,"cache_creation_input_tokens":…,
 *   "cache_read_input_tokens":…,"output_tokens":…}}, …}`: one line per
 *   content block, so one message id appears on several lines with the same
 *   (or a growing) usage; deduplicate by message id, the last line wins.
 *   `isSidechain: true` lines belong to subagents, not to the main context.
 * - `{"type":"system","subtype":"compact_boundary","compactMetadata":{…}}`:
 *   the conversation was compacted; usage recorded before it no longer
 *   describes the context.
 * - API failures: an assistant line with `"isApiErrorMessage":true`, model
 *   `<synthetic>`, `apiErrorStatus` (401, 403, 429, 529…) and/or `error`
 *   (`"authentication_failed"`, …) and a text such as `API Error: 401 …`;
 *   or a `{"type":"system","subtype":"api_error","error":{"status":…}}`
 *   line. 401/403 is an authentication failure; 429 (rate limit, usage
 *   limit) and 529 (overloaded) a rate limit (see {@link classifyTurnEnd}).
 *   A newer turn than the transcript holds arrives as the Stop payload's
 *   `last_assistant_message` (Claude Code writes the transcript in batches);
 *   the Stop hook compares it with {@link TranscriptSignals.lastAssistantText}.
 * Context use = input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens of the last main-chain assistant message
 * (persistent-loop-stop-hook guide, safety valve 1).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** The context window assumed when the model name says nothing else, in tokens. */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;
/** The window of 1M-context models (`…[1m]`, `…-1m`), in tokens. */
export const LARGE_CONTEXT_WINDOW_TOKENS = 1_000_000;
/** How much of the transcript's end is read first, in bytes: the last messages are nearly always in it. */
export const TRANSCRIPT_FIRST_TAIL_BYTES = 256 * 1024;
/** How much is read when the first tail holds no usage (a huge last tool result), in bytes. */
export const TRANSCRIPT_TAIL_BYTES = 4 * 1024 * 1024;

/** What {@link readTranscriptSignals} found. */
export interface TranscriptSignals {
  /** Tokens in context after the last main-chain assistant message, or null when unknown (no usage since the last compaction). */
  contextTokens: number | null;
  /** The context window in tokens: 1M when the model says so or the usage exceeds 200k, else 200k (RALPH_CONTEXT_WINDOW overrides). */
  contextWindowTokens: number;
  /** contextTokens / contextWindowTokens (0-1+), or null. */
  contextFraction: number | null;
  /** Model of the last main-chain assistant message. */
  model: string | null;
  /** True when the last assistant/error entry of the main chain is a 401/403 authentication failure. */
  authFailure: boolean;
  /** HTTP status of that failure, when known. */
  authStatus: number | null;
  /** True when the last assistant/error entry of the main chain is a 429 rate limit (or usage limit) or a 529 overload. */
  rateLimited: boolean;
  /** 429 or 529 when {@link rateLimited}, else null. */
  rateLimitStatus: number | null;
  /** The text of the last main-chain assistant entry (an API error's text included), or null. */
  lastAssistantText: string | null;
  /** Output tokens of the main chain since the last compaction, within the tail read (deduplicated by message id). */
  outputTokens: number;
  /** Distinct main-chain assistant messages since the last compaction, within the tail read. */
  assistantMessages: number;
  /** Lines that were not JSON (a torn last line while Claude Code writes is normal). */
  badLines: number;
  /** Ids of background shells/tasks started in the tail read and not seen to finish, in start order (see {@link trackBackgroundTasks}). */
  backgroundTasks: string[];
}

/** Tools that end a background task by id (older and newer Claude Code names). */
const KILL_TOOLS: ReadonlySet<string> = new Set(["KillShell", "KillBash", "TaskStop"]);
/** Tools that read a background task's output and status by id. */
const OUTPUT_TOOLS: ReadonlySet<string> = new Set(["BashOutput", "TaskOutput"]);
const FINISHED_STATUS = /<status>\s*(completed|failed|killed|exited|error)\s*<\/status>/i;

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === "string" ? part : typeof (part as Json | null)?.text === "string" ? ((part as Json).text as string) : contentText((part as Json | null)?.content)))
      .join("\n");
  return "";
}

function taskIdOf(input: Json | null): string | null {
  for (const key of ["shell_id", "bash_id", "task_id", "id"]) if (typeof input?.[key] === "string") return input[key] as string;
  return null;
}

/**
 * Background work in a transcript (Claude Code's Bash `run_in_background`,
 * or a command moved to the background at its timeout): a task starts with
 * a tool result saying `Command running in background with ID: X` /
 * `moved to the background (ID: X)` or an entry whose `toolUseResult` has
 * `backgroundTaskId`; it finishes with a KillShell/KillBash/TaskStop call
 * naming it, a BashOutput/TaskOutput result with a finished `<status>`, or
 * a notification (`<task-id>X</task-id>` with a finished status, or
 * `Background Bash X … (status: completed)`). Mutates `started`/`finished`.
 */
function trackBackgroundTasks(entry: Json, toolUses: Map<string, { name: string; input: Json | null }>, started: string[], finished: Set<string>): void {
  const message = asObject(entry.message);
  const content = message?.content;
  if (entry.type === "assistant") {
    if (!Array.isArray(content)) return;
    for (const part of content) {
      const block = asObject(part);
      if (block?.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") {
        toolUses.set(block.id, { name: block.name, input: asObject(block.input) });
        if (KILL_TOOLS.has(block.name)) {
          const id = taskIdOf(asObject(block.input));
          if (id) finished.add(id);
        }
      }
    }
    return;
  }
  const startedNow = (id: string): void => {
    if (!started.includes(id)) started.push(id);
  };
  const result = asObject(entry.toolUseResult);
  if (typeof result?.backgroundTaskId === "string") startedNow(result.backgroundTaskId);
  const parts = Array.isArray(content) ? content : [content];
  for (const part of parts) {
    const block = asObject(part);
    const text = block?.type === "tool_result" ? contentText(block.content) : contentText(part);
    for (const m of text.matchAll(/running in background with ID: ([\w.-]+?)\.?(?:\s|$)|moved to the background \(ID: ([\w.-]+)\)/g)) startedNow((m[1] ?? m[2]) as string);
    for (const m of text.matchAll(/<task-id>\s*([\w.-]+)\s*<\/task-id>/g)) if (FINISHED_STATUS.test(text)) finished.add(m[1] as string);
    for (const m of text.matchAll(/Background Bash ([\w.-]+) .*?\(status: (completed|failed|killed)\)/g)) finished.add(m[1] as string);
    if (block?.type === "tool_result" && typeof block.tool_use_id === "string") {
      const use = toolUses.get(block.tool_use_id);
      if (use && OUTPUT_TOOLS.has(use.name) && FINISHED_STATUS.test(text)) {
        const id = taskIdOf(use.input);
        if (id) finished.add(id);
      }
    }
  }
}

/**
 * The context window of a model id, in tokens. `override` (the run's
 * `RALPH_CONTEXT_WINDOW`, src/runtime-env.ts `contextWindowTokens`), when a
 * positive integer, wins.
 */
export function contextWindowFor(model: string | null, contextTokens: number | null = null, override: number | null = null): number {
  if (override !== null && Number.isInteger(override) && override > 0) return override;
  if (model && /(\[1m\]|[-_]1m\b|1m-context|context-1m)/i.test(model)) return LARGE_CONTEXT_WINDOW_TOKENS;
  if (contextTokens !== null && contextTokens > DEFAULT_CONTEXT_WINDOW_TOKENS) return LARGE_CONTEXT_WINDOW_TOKENS;
  return DEFAULT_CONTEXT_WINDOW_TOKENS;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null);
const asNumber = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function textOf(message: Json | null): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => {
      const b = asObject(block);
      return b && typeof b.text === "string" ? b.text : "";
    })
    .join("\n");
}

/** The 401/403 status of an API error entry, or null when it is not an authentication failure. */
function authStatusOf(entry: Json): number | null {
  const message = asObject(entry.message);
  const error = entry.error;
  const errorObject = asObject(error);
  const statuses = [entry.apiErrorStatus, errorObject?.status, asObject(errorObject?.error)?.status, entry.status];
  for (const s of statuses) if (s === 401 || s === 403) return s;
  const kind = typeof error === "string" ? error : typeof errorObject?.type === "string" ? errorObject.type : "";
  if (/^(authentication_failed|authentication_error|permission_error|oauth_org_not_allowed)$/.test(kind)) return kind === "permission_error" ? 403 : 401;
  const text = `${textOf(message)} ${typeof errorObject?.message === "string" ? errorObject.message : ""}`;
  const m = /API Error:\s*(401|403)\b/.exec(text);
  return m ? Number(m[1]) : null;
}

/** How a turn ended when it ended on an API error: an authentication failure (401/403) or a rate limit / overload (429/529). */
export interface TurnEnd {
  kind: "auth" | "rate_limit";
  status: number;
}

/**
 * Claude Code's own texts for a turn that ended on an API error, as it
 * shows them in the transcript and in the Stop payload's
 * `last_assistant_message`: `API Error: <status> …`, `API Error: Request
 * rejected (429) …`, `Invalid API key · Please run /login`, `OAuth token has
 * expired …`, `Claude AI usage limit reached|<epoch>`, `5-hour limit reached
 * ∙ resets …`, `You've hit your limit …`. Anchored at the start of the text,
 * so a turn that talks about a 429 or `/login` is not one of them.
 * Rate limits follow oh-my-claudecode's persistent-mode `isRateLimitStop`
 * (its issue #777: blocking a rate-limited stop only spins).
 */
const AUTH_TEXT =
  /^(?:API Error:\s*(401|403)\b|API Error:.*"type"\s*:\s*"(authentication_error|permission_error)"|Invalid API key\b|Please run \/login\b|OAuth token (?:has expired|revoked)|OAuth authentication is currently not supported)/is;
const RATE_TEXT =
  /^(?:API Error:\s*(429|529)\b|API Error:.*\((429|529)\)|API Error:.*"type"\s*:\s*"(rate_limit_error|overloaded_error)"|API Error:.*\bOverloaded\b|Claude AI usage limit reached|(?:5-hour|weekly|Opus weekly|session) limit reached|You've hit your (?:usage )?limit)/is;

/**
 * Classifies the text of a turn's last assistant message (a transcript
 * entry or `last_assistant_message`); null for an ordinary turn. Pure.
 */
export function classifyTurnEnd(text: string): TurnEnd | null {
  const t = text.trim();
  const auth = AUTH_TEXT.exec(t);
  if (auth) return { kind: "auth", status: auth[1] === "403" || auth[2] === "permission_error" ? 403 : 401 };
  const rate = RATE_TEXT.exec(t);
  if (rate) return { kind: "rate_limit", status: rate[1] === "529" || rate[2] === "529" || rate[3] === "overloaded_error" || /^API Error:.*\bOverloaded\b/is.test(t) ? 529 : 429 };
  return null;
}

/** The 429/529 status of an API error entry, or null when it is not a rate limit or overload. */
function rateLimitStatusOf(entry: Json): number | null {
  const errorObject = asObject(entry.error);
  for (const s of [entry.apiErrorStatus, errorObject?.status, asObject(errorObject?.error)?.status, entry.status]) if (s === 429 || s === 529) return s;
  const kind = typeof entry.error === "string" ? entry.error : typeof errorObject?.type === "string" ? errorObject.type : "";
  if (/^(rate_limit|rate_limit_error)$/.test(kind)) return 429;
  if (/^(overloaded|overloaded_error)$/.test(kind)) return 529;
  const end = classifyTurnEnd(textOf(asObject(entry.message)));
  return end?.kind === "rate_limit" ? end.status : null;
}

function isApiErrorEntry(entry: Json): boolean {
  if (entry.isApiErrorMessage === true) return true;
  return entry.type === "system" && entry.subtype === "api_error";
}

/** Reads the last `maxBytes` of a file (whole lines only: the partial first line is dropped), and the file's size. */
function readTail(path: string, maxBytes: number): { text: string; sizeBytes: number } {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    let text = buffer.subarray(0, read).toString("utf8");
    if (start > 0) text = text.slice(text.indexOf("\n") + 1);
    return { text, sizeBytes: size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses transcript text (JSONL) into the Stop hook's signals; see the
 * module doc for the rules. `contextWindowOverride` is {@link contextWindowFor}'s `override`.
 */
export function parseTranscript(text: string, contextWindowOverride: number | null = null): TranscriptSignals {
  const usageById = new Map<string, { context: number; output: number; model: string | null }>();
  let lastKey: string | null = null;
  let anonymous = 0;
  let authStatus: number | null = null;
  let rateLimitStatus: number | null = null;
  let lastAssistantText: string | null = null;
  let badLines = 0;
  const toolUses = new Map<string, { name: string; input: Json | null }>();
  const started: string[] = [];
  const finished = new Set<string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let entry: Json | null;
    try {
      entry = asObject(JSON.parse(line));
    } catch {
      badLines++;
      continue;
    }
    if (!entry || entry.isSidechain === true) continue;
    if (entry.type === "assistant" || entry.type === "user") trackBackgroundTasks(entry, toolUses, started, finished);
    if (entry.type === "system" && entry.subtype === "compact_boundary") {
      usageById.clear();
      lastKey = null;
      authStatus = null;
      rateLimitStatus = null;
      continue;
    }
    if (isApiErrorEntry(entry)) {
      authStatus = authStatusOf(entry);
      rateLimitStatus = authStatus === null ? rateLimitStatusOf(entry) : null;
      if (entry.type === "assistant") lastAssistantText = textOf(asObject(entry.message));
      continue;
    }
    if (entry.type === "user") {
      // A new prompt or a tool result: an earlier failure was not how the last turn ended.
      authStatus = null;
      rateLimitStatus = null;
      continue;
    }
    if (entry.type !== "assistant") continue;
    const message = asObject(entry.message);
    const usage = asObject(message?.usage);
    authStatus = null;
    rateLimitStatus = null;
    const text = textOf(message);
    if (text !== "") lastAssistantText = text;
    if (!message || !usage) continue;
    const id = typeof message.id === "string" && message.id !== "" ? message.id : `#${anonymous++}`;
    const context = asNumber(usage.input_tokens) + asNumber(usage.cache_creation_input_tokens) + asNumber(usage.cache_read_input_tokens);
    const model = typeof message.model === "string" && message.model !== "<synthetic>" ? message.model : null;
    usageById.delete(id); // re-insert so map order follows the last line of each id
    usageById.set(id, { context, output: asNumber(usage.output_tokens), model });
    lastKey = id;
  }
  const last = lastKey === null ? null : (usageById.get(lastKey) ?? null);
  const contextTokens = last ? last.context : null;
  const contextWindowTokens = contextWindowFor(last?.model ?? null, contextTokens, contextWindowOverride);
  let outputTokens = 0;
  for (const u of usageById.values()) outputTokens += u.output;
  return {
    contextTokens,
    contextWindowTokens,
    contextFraction: contextTokens === null ? null : contextTokens / contextWindowTokens,
    model: last?.model ?? null,
    authFailure: authStatus !== null,
    authStatus,
    rateLimited: rateLimitStatus !== null,
    rateLimitStatus,
    lastAssistantText,
    outputTokens,
    assistantMessages: usageById.size,
    badLines,
    backgroundTasks: started.filter((id) => !finished.has(id)),
  };
}

/**
 * Reads the end of a transcript file and parses it: the last
 * {@link TRANSCRIPT_FIRST_TAIL_BYTES}, or up to `maxBytes` when that holds no
 * usage. A missing or unreadable file gives null (the caller decides
 * without it). `contextWindowOverride` is {@link contextWindowFor}'s `override`.
 */
export function readTranscriptSignals(path: string | undefined, maxBytes = TRANSCRIPT_TAIL_BYTES, contextWindowOverride: number | null = null): TranscriptSignals | null {
  if (!path) return null;
  const file = path.replace(/\\/g, "/");
  try {
    const first = readTail(file, Math.min(maxBytes, TRANSCRIPT_FIRST_TAIL_BYTES));
    const signals = parseTranscript(first.text, contextWindowOverride);
    if (signals.contextTokens !== null || first.sizeBytes <= TRANSCRIPT_FIRST_TAIL_BYTES || maxBytes <= TRANSCRIPT_FIRST_TAIL_BYTES) return signals;
    return parseTranscript(readTail(file, maxBytes).text, contextWindowOverride);
  } catch {
    return null;
  }
}
