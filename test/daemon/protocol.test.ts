/** The warm process's framing (src/daemon/protocol.ts): length-prefixed JSON, any chunking. */
import { describe, expect, it } from "vitest";
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES, runFrameBytes, type ClientMessage, type RunRequest, type ServerMessage } from "../../src/daemon/protocol.js";

const run: ClientMessage = {
  type: "run",
  argv: ["hook", "claude", "PreToolUse"],
  cwd: "/tmp/r",
  env: { RALPH_LOOP: "l1", PATH: "/usr/bin" },
  stdinBase64: Buffer.from('{"é":"\u0000"}').toString("base64"),
  stdinOpen: false,
  stdoutIsTTY: false,
  stderrIsTTY: true,
  stderrColumns: 80,
  processStartMs: 1_764_000_000_000.5,
  maxQueueMs: 1000,
};
const messages: (ClientMessage | ServerMessage)[] = [{ type: "hello", protocol: 1, build: "abc" }, run, { type: "stdout", text: "naïve ✓ \n" }, { type: "exit", code: 2 }];

describe("frames", () => {
  it("a frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON", () => {
    const frame = encodeFrame({ type: "stdout", text: "é" });
    const body = Buffer.from(JSON.stringify({ type: "stdout", text: "é" }), "utf8");
    expect(frame.readUInt32BE(0)).toBe(body.length);
    expect(frame.subarray(4).equals(body)).toBe(true);
  });

  it("decodes the same messages whatever the chunking: one chunk, byte by byte, split inside the header", () => {
    const stream = Buffer.concat(messages.map(encodeFrame));
    expect(new FrameDecoder().push(stream)).toEqual(messages);
    const byteWise = new FrameDecoder();
    const out: unknown[] = [];
    for (let i = 0; i < stream.length; i++) out.push(...byteWise.push(stream.subarray(i, i + 1)));
    expect(out).toEqual(messages);
    for (const cut of [1, 3, 4, 5, 17, stream.length - 1]) {
      const decoder = new FrameDecoder();
      const first = decoder.push(stream.subarray(0, cut));
      expect([...first, ...decoder.push(stream.subarray(cut))]).toEqual(messages);
    }
  });

  it("keeps an incomplete frame until the rest arrives", () => {
    const frame = encodeFrame(run);
    const decoder = new FrameDecoder();
    expect(decoder.push(frame.subarray(0, 10))).toEqual([]);
    expect(decoder.pendingBytes).toBe(10);
    expect(decoder.push(frame.subarray(10))).toEqual([run]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it("stdin bytes survive base64 exactly (NUL, non-UTF-8)", () => {
    const bytes = Buffer.from([0, 0xff, 0xfe, 0x7b, 0x0a]);
    const [decoded] = new FrameDecoder().push(encodeFrame({ ...run, stdinBase64: bytes.toString("base64") })) as (typeof run)[];
    expect(Buffer.from((decoded as { stdinBase64: string }).stdinBase64, "base64").equals(bytes)).toBe(true);
  });

  it("rejects a length over the limit, a body that is not JSON, and JSON that is not a typed object", () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    expect(() => new FrameDecoder().push(header)).toThrow(RangeError);
    const notJson = Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from("{x}")]);
    expect(() => new FrameDecoder().push(notJson)).toThrow(SyntaxError);
    for (const body of ["[1]", "null", '{"type":3}', '"hello"']) {
      const frame = Buffer.concat([Buffer.alloc(4), Buffer.from(body)]);
      frame.writeUInt32BE(Buffer.byteLength(body), 0);
      expect(() => new FrameDecoder().push(frame)).toThrow(TypeError);
    }
  });

  it("runFrameBytes is the exact body length encodeFrame makes, for every stdin length mod 3 (breaker defect 1: decide by size before encoding)", () => {
    const request = { ...run, stdinBase64: "" } as RunRequest;
    for (const n of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      const bytes = Buffer.alloc(n, 0xe9);
      expect(runFrameBytes(request, n)).toBe(encodeFrame({ ...request, stdinBase64: bytes.toString("base64") }).length - 4);
    }
    // The 52 MB payload of the breaker's command: under 64 MiB raw, over it base64-encoded.
    expect(runFrameBytes(request, 52_000_000)).toBeGreaterThan(MAX_FRAME_BYTES);
  });

  it("a frame arriving in many small chunks decodes once, whole, with nothing pending", () => {
    const big = encodeFrame({ ...run, stdinBase64: Buffer.alloc(3_000_000, 7).toString("base64") });
    const decoder = new FrameDecoder();
    const out: unknown[] = [];
    for (let at = 0; at < big.length; at += 65_536) {
      out.push(...decoder.push(big.subarray(at, at + 65_536)));
      if (at + 65_536 < big.length) expect(decoder.pendingBytes).toBe(at + 65_536);
    }
    expect(out).toHaveLength(1);
    expect(Buffer.from((out[0] as RunRequest).stdinBase64, "base64").equals(Buffer.alloc(3_000_000, 7))).toBe(true);
    expect(decoder.pendingBytes).toBe(0);
  });
});
