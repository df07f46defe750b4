/**
 * The agent-neutral shapes of the use-case layer (docs/design.md, "The use
 * cases"): what an agent adapter (src/hooks/claude.ts today; Codex, Gemini
 * and Cursor per issue 13) hands in, and the verdict it gets back to
 * translate into its agent's answer. Nothing here names an agent's payload
 * field or answer format.
 */
import type { EditPreview } from "../hooks/edit-preview.js";
import type { SessionBinding } from "../hooks/loop-binding.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import type { HookSettings } from "./settings.js";

export type { EditPreview } from "../hooks/edit-preview.js";

/**
 * What a tool call does, as far as ralph judges it:
 * - `read`: changes nothing (Claude Code's Read, Grep, Glob…): allowed even
 *   while the loop waits at the human gate, never checkpointed;
 * - `edit`, `write`, `delete`: changes the files it names (judged on their
 *   content after the call before it runs, checkpointed after);
 * - `shell`: runs a command (judged on its text before, checkpointed after);
 * - `other`: anything else (a subagent, an MCP tool): put to the human at the
 *   gate, otherwise neither judged nor checkpointed.
 */
export type ToolKind = "read" | "edit" | "write" | "delete" | "shell" | "other";

/** Tool kinds whose calls change files, so each is checkpointed after it runs. */
export const MUTATING_KINDS: ReadonlySet<ToolKind> = new Set(["edit", "write", "delete", "shell"]);

/** Tool kinds that name the files they change (the after-tool checkpoint reads only those). */
export const FILE_KINDS: ReadonlySet<ToolKind> = new Set(["edit", "write", "delete"]);

/** One file a tool call changes. */
export interface FileChange {
  /** The file as the agent named it: absolute, or relative to the call's directory; `/` separators. */
  path: string;
  /**
   * The file's content after the call from its content now (`before`: null
   * when the file does not exist). `after: null` means the call deletes it;
   * `ok: false` means the content cannot be known before the call runs
   * (the tool would fail, or the input is malformed): the file is not judged.
   * Absent when the agent reports the change only after it ran.
   */
  preview?: (before: string | null) => EditPreview;
}

/** One tool call, before or after it runs. */
export interface ToolCall {
  kind: ToolKind;
  /** The agent's name for the tool (`Edit`, `apply_patch`, `run_shell_command`): quoted in reasons, checkpoint trailers and logs. */
  tool: string;
  /** The agent's id of the call (Claude Code's `tool_use_id`): pairs its before and after; undefined when the agent sends none. */
  id?: string | undefined;
  /** `edit` / `write` / `delete`: every file the call changes, in order (a rename is a delete and a write). */
  files: readonly FileChange[];
  /** `shell`: the command text as the shell gets it. */
  command?: string | undefined;
}

/**
 * What a use case decided, for the adapter to put in its agent's terms:
 * - `allow`: nothing to object to (the agent's own permission flow goes on;
 *   ralph never grants a permission itself);
 * - `deny`: before a call: it must not run; `reason` is for the model;
 * - `ask`: before a call: the human decides; `reason` is for the human;
 * - `block`: after a call or at a stop: `reason` goes back to the model,
 *   which goes on working;
 * - `context`: no objection; `context` holds facts for the model;
 * - `gate`: a stop let through with `userMessage` for the user (the human
 *   gate, a broken config);
 * - `guard`: a stop let through without the loop's check, because ralph's
 *   guard was changed outside ralph;
 * - `none`: not an event ralph answers.
 */
export type Decision = "allow" | "deny" | "ask" | "block" | "context" | "gate" | "guard" | "none";

/** A use case's verdict (see {@link Decision}). */
export interface Verdict {
  decision: Decision;
  /** `deny`, `ask`, `block`: why, in full (the adapter cuts it to its agent's limit). */
  reason?: string;
  /** `context`: facts for the model, never commands. */
  context?: string;
  /** Text for the user, not the model (a guard change, the human gate); may come with any decision. */
  userMessage?: string;
  /** The checkpoint this call wrote or found (40 hex), for the log. */
  checkpoint?: string;
  /** Finding types or risk kinds behind the decision, for the log. */
  findings?: string[];
  /** One line for the log. */
  why: string;
}

/** A {@link Verdict} for one event of a session, with where it was judged (for the log). */
export interface EventVerdict extends Verdict {
  /** The repository root the call was judged in. */
  workTree: string;
  loop: LoopId;
  /** Iterations the loop has ended, when it has a state. */
  iteration: number | null;
}

/** Writes one diagnostic line (ends with a newline) where the adapter's caller shows them (stderr). */
export type Diagnostics = (text: string) => void;

/**
 * An agent session inside one repository, as the use cases see it: opened
 * once per hook call by {@link ../usecases/session.js openSession}.
 */
export interface Session {
  store: CheckpointStore;
  /** The directory the call runs in: relative paths and shell commands resolve from it. */
  cwd: string;
  /** The loop the session's checkpoints go to. */
  binding: SessionBinding;
  /** The agent's session id; undefined when it sent none (never owns a loop). */
  sessionId: string | undefined;
  settings: HookSettings;
  /** How the agent is named in checkpoint messages ("Claude Code"). */
  agentName: string;
  diagnostics: Diagnostics;
}
