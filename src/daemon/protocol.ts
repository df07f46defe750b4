/**
 * The warm process's wire format (docs/decisions/0003-warm-process.md): a
 * stream of frames over a Unix domain socket, each a 4-byte big-endian
 * unsigned length followed by that many bytes of UTF-8 JSON (one object).
 * Bytes that are not text (a hook's stdin) travel base64-encoded inside the
 * JSON. A connection carries one hello each way and then one command.
 *
 * This module is loaded by the thin client before it knows whether a warm
 * process answers, so it imports nothing but Node's own modules.
 */

import { realpathSync } from "node:fs";

/** Version of the message shapes below; a hello with another number is a mismatch. */
export const PROTOCOL_VERSION = 1;

/** Largest frame either side accepts, in bytes (a 64 MiB hook payload is already absurd). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Bytes of the length prefix. */
const HEADER_BYTES = 4;

/** Client → server: the first frame of every connection. */
export interface ClientHello {
  type: "hello";
  protocol: number;
  /**
   * The client bundle's build id (a hash of dist/, scripts/build.mjs), with
   * the bundle's install ({@link installedBuild}: `<build>@<real path of
   * cli.js>`); a bare build id is read as this build of any install.
   */
  build: string;
  /** A control connection (`ralph daemon status|stop`): answered whatever its build, and only status or stop may follow. */
  control?: boolean;
  /** The client's work tree (real path): a server of another work tree answers ok false and serves nothing (a copied socket-path record). */
  workTree?: string;
  /** The client's git dir (real path), checked as {@link workTree}. */
  gitDir?: string;
}

/**
 * A build id tied to its install, as the hello carries it: `<build>@<real
 * path of cli.js>` (the path as given when it cannot be resolved). Two
 * installs of one build are two clients: a warm process whose install was
 * deleted or copied must not answer for another one, whose grammars and
 * node_modules it cannot see (it would fail with E_CORRUPT or E_INTERNAL
 * that no rebuild of the client's install mends). Encoded in `build`, not
 * a new field, so a warm process of an older build, whose hello schema is
 * strict, still reads it as another build and exits. Never throws.
 */
export function installedBuild(build: string, cliPath: string): string {
  let real = cliPath;
  try {
    real = realpathSync(cliPath);
  } catch {
    // a deleted install: its path as given never matches a live one
  }
  return `${build}@${real}`;
}

/** Client → server: run one command line. */
export interface RunRequest {
  type: "run";
  /** argv without the node and script paths. */
  argv: string[];
  /** The client's working directory (absolute). */
  cwd: string;
  /** The environment ralph reads, filtered by the allow-list (src/daemon/routing.ts). */
  env: Record<string, string>;
  /** Standard input, base64 (empty for commands that do not read it). */
  stdinBase64: string;
  /** Whether the client's stdin was still open after the bytes it sent (a hook payload from an agent that never closes the pipe). */
  stdinOpen: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** stderr's width in columns, 0 when not a terminal. */
  stderrColumns: number;
  /** When the client process started, ms since the epoch (performance.timeOrigin): whole-process durations in the hook log count from it. */
  processStartMs: number;
  /**
   * Longest wait in the queue behind other requests, ms: a request still
   * queued then is refused ("busy") and the client runs it in-process, as it
   * would run beside a long Stop hook without a warm process.
   */
  maxQueueMs: number;
}

/** Client → server: report the status (`ralph daemon status`). */
export interface StatusRequest {
  type: "status";
}

/** Client → server: finish the queued requests and exit (`ralph daemon stop`). */
export interface StopRequest {
  type: "stop";
}

/** Every frame a client sends. */
export type ClientMessage = ClientHello | RunRequest | StatusRequest | StopRequest;

/**
 * Server → client: the answer to a hello. `ok` false: another build or
 * protocol (the server then exits; the client runs in-process), or another
 * work tree (the server stays; the client starts its own).
 */
export interface ServerHello {
  type: "hello";
  ok: boolean;
  build: string;
  pid: number;
  /** The work tree this server serves (real path); the client checks it against its own. */
  workTree?: string;
  /** Why `ok` is false, one line. */
  reason?: string;
}

/** Server → client: the request left the queue and runs now (a connection lost before this frame never ran). */
export interface StartedMessage {
  type: "started";
}

/** Server → client: output written by the command, in order. */
export interface OutputMessage {
  type: "stdout" | "stderr";
  text: string;
}

/** Server → client: the command finished with this exit code. */
export interface ExitMessage {
  type: "exit";
  code: number;
}

/** Server → client: the request was not served (a path outside the work tree, shutting down); the client runs it in-process. */
export interface RefusedMessage {
  type: "refused";
  reason: string;
}

/** Server → client: the answer to a status request (`ralph daemon status --json` prints it). */
export interface StatusMessage {
  type: "status";
  pid: number;
  socket: string;
  workTree: string;
  build: string;
  /** Time since the server started listening, ms. */
  uptimeMs: number;
  /** Run requests answered so far. */
  requestsServed: number;
  /** Resident set size, bytes. */
  rssBytes: number;
  /** Idle time after which it exits, ms. */
  idleTimeoutMs: number;
}

/** Server → client: the stop request was taken; the server exits after the queued requests. */
export interface StoppingMessage {
  type: "stopping";
  pid: number;
}

/** Every frame a server sends. */
export type ServerMessage = ServerHello | StartedMessage | OutputMessage | ExitMessage | RefusedMessage | StatusMessage | StoppingMessage;

/** One frame: the length prefix and the JSON bytes of `message`. @throws RangeError when the JSON exceeds {@link MAX_FRAME_BYTES}. */
export function encodeFrame(message: ClientMessage | ServerMessage): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  if (body.length > MAX_FRAME_BYTES) throw new RangeError(`frame of ${body.length} bytes exceeds ${MAX_FRAME_BYTES}`);
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

/**
 * Splits a byte stream into frames. `push` takes whatever arrived (any
 * chunking, a frame split anywhere) and returns the complete messages
 * parsed so far, in order; the rest waits for the next chunk.
 * @throws RangeError when a length prefix exceeds {@link MAX_FRAME_BYTES};
 *   SyntaxError when a frame is not JSON, TypeError when it is not an object
 *   with a string `type`. The connection is unusable after either.
 */
export class FrameDecoder {
  /** Received chunks not yet parsed, in order; joined only once a whole frame is there (one copy per frame, not per chunk). */
  private chunks: Buffer[] = [];
  private total = 0;

  push(chunk: Buffer): unknown[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.total += chunk.length;
    }
    const messages: unknown[] = [];
    while (this.total >= HEADER_BYTES) {
      const length = this.peekLength();
      if (length > MAX_FRAME_BYTES) throw new RangeError(`frame of ${length} bytes exceeds ${MAX_FRAME_BYTES}`);
      if (this.total < HEADER_BYTES + length) break;
      const buffered = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.total);
      const body = buffered.subarray(HEADER_BYTES, HEADER_BYTES + length).toString("utf8");
      const rest = buffered.subarray(HEADER_BYTES + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.total = rest.length;
      const message: unknown = JSON.parse(body);
      if (typeof message !== "object" || message === null || typeof (message as { type?: unknown }).type !== "string") {
        throw new TypeError("frame is not an object with a string 'type'");
      }
      messages.push(message);
    }
    return messages;
  }

  /** The length prefix of the next frame (the caller checked that {@link HEADER_BYTES} bytes are there). */
  private peekLength(): number {
    const first = this.chunks[0] as Buffer;
    if (first.length >= HEADER_BYTES) return first.readUInt32BE(0);
    const joined = Buffer.concat(this.chunks, this.total);
    this.chunks = [joined];
    return joined.readUInt32BE(0);
  }

  /** Bytes received that do not yet form a whole frame. */
  get pendingBytes(): number {
    return this.total;
  }
}

/**
 * The exact byte length of the frame body {@link encodeFrame} would make of
 * `message` with `base64Of` bytes added base64-encoded in its (empty)
 * `stdinBase64` field: without encoding them (base64 is 4 bytes per 3, no
 * JSON escaping). Lets a client decide by size, before any copy, whether a
 * request fits {@link MAX_FRAME_BYTES}.
 */
export function runFrameBytes(message: RunRequest, base64Of: number): number {
  return Buffer.byteLength(JSON.stringify({ ...message, stdinBase64: "" }), "utf8") + 4 * Math.ceil(base64Of / 3);
}
