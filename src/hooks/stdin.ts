/**
 * Reading a hook's stdin. Claude Code writes one JSON object and (usually)
 * closes the pipe, but some agent releases never close it (issue 4,
 * "Protocol rules"), so the reader stops at whichever comes first: the end
 * of the stream, a complete JSON object, or an idle deadline with no new
 * bytes.
 */
import type { Readable } from "node:stream";

/** The default idle deadline: how long to wait for the next byte before answering with what arrived. */
export const STDIN_IDLE_MS = 1500;

/** What {@link readHookInput} saw: the raw text and why reading stopped. */
export interface HookInputText {
  text: string;
  /** `eof`: the stream ended; `json`: a complete object arrived (the stream may still be open); `idle`: nothing new for the idle deadline. */
  endedBy: "eof" | "json" | "idle";
  sizeBytes: number;
}

/** True when `text` is one complete JSON value (only tried when it ends in `}`, so a 5 MB payload is parsed once, not per chunk). */
function isCompleteJson(text: string): boolean {
  if (!text.trimEnd().endsWith("}")) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a hook payload from `stream` (the run's stdin) with an idle
 * deadline. Never rejects: a stream error ends the read with what arrived.
 * The stream is paused and unreferenced afterwards, so an open pipe does not
 * keep the process alive.
 */
export function readHookInput(stream: Readable, idleMs: number = STDIN_IDLE_MS): Promise<HookInputText> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let sizeBytes = 0;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (endedBy: HookInputText["endedBy"], text?: string): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onEnd);
      stream.pause();
      (stream as Readable & { unref?: () => void }).unref?.();
      resolve({ text: text ?? Buffer.concat(chunks).toString("utf8"), endedBy, sizeBytes });
    };
    const arm = (): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => finish("idle"), idleMs);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      chunks.push(buffer);
      sizeBytes += buffer.length;
      // Only a chunk ending in "}" can complete the object: parse then, not on every chunk.
      const last = buffer.subarray(Math.max(0, buffer.length - 8)).toString("utf8");
      if (last.trimEnd().endsWith("}")) {
        const text = Buffer.concat(chunks).toString("utf8");
        if (isCompleteJson(text)) return finish("json", text);
      }
      arm();
    };
    const onEnd = (): void => finish("eof");
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onEnd);
    arm();
    stream.resume();
  });
}
