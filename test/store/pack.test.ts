import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { withRun } from "../../src/log.js";
import { EMPTY_RUNTIME_ENV } from "../../src/runtime-env.js";
import { ObjectDatabase, type ObjectType } from "../../src/store/odb.js";
import { DeltaBaseCache, PackFile, PackIndex, applyDelta, oidToBytes } from "../../src/store/pack.js";
import { git, gitEnv, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

// ---------------------------------------------------------------------------
// helpers

function gitBytes(cwd: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync("git", args, { cwd, env: gitEnv, input, maxBuffer: 1 << 30 });
}

function allObjects(root: string): Map<string, { type: string; content: Buffer }> {
  const out = gitBytes(root, ["cat-file", "--batch-all-objects", "--batch"]);
  const objects = new Map<string, { type: string; content: Buffer }>();
  let pos = 0;
  while (pos < out.length) {
    const eol = out.indexOf(0x0a, pos);
    const [oid, type, size] = out.toString("latin1", pos, eol).split(" ") as [string, string, string];
    objects.set(oid, { type, content: out.subarray(eol + 1, eol + 1 + Number(size)) });
    pos = eol + 1 + Number(size) + 1;
  }
  return objects;
}

/** Reads every object git knows through `odb` and compares type and bytes; returns the count. */
function expectSameObjects(root: string, odb: ObjectDatabase): number {
  const objects = allObjects(root);
  for (const [oid, expected] of objects) {
    const got = odb.read(oid);
    if (got.type !== expected.type || !got.content.equals(expected.content)) {
      throw new Error(`object ${oid} differs from git's copy`);
    }
  }
  return objects.size;
}

const objectsDir = (root: string): string => join(root, ".git", "objects");
const packDir = (root: string): string => join(objectsDir(root), "pack");
const packNames = (root: string): string[] =>
  readdirSync(packDir(root))
    .filter((n) => n.endsWith(".pack"))
    .sort();

function expectRalphError(fn: () => unknown, code: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(isRalphError(thrown), String(thrown)).toBe(true);
  expect((thrown as { code: string }).code).toBe(code);
}

/**
 * A repository with `commits` commits made by `git fast-import` (fast), each
 * editing every file a little, so `git gc --aggressive` builds long delta
 * chains. Includes an incompressible and a large compressible file.
 */
function makeHistory(commits: number, files = 4): string {
  const root = makeRepo({}, { commit: false });
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const chunks: Buffer[] = [];
  const push = (s: string | Buffer): void => {
    chunks.push(typeof s === "string" ? Buffer.from(s) : s);
  };
  const data = (content: Buffer): void => {
    push(`data ${content.length}\n`);
    push(content);
    push("\n");
  };
  const bodies = Array.from({ length: files }, (_, k) => Array.from({ length: 40 + k * 10 }, (_, i) => `file ${k} line ${i}: ${"lorem ipsum dolor ".repeat(1 + (i % 4))}`));
  const noise = randomBytes(200_000);
  for (let c = 0; c < commits; c++) {
    push(`commit refs/heads/main\ncommitter Test <t@example.invalid> ${1_700_000_000 + c * 60} +0000\n`);
    data(Buffer.from(`commit ${c}\n`));
    for (let k = 0; k < files; k++) {
      const body = bodies[k] as string[];
      body[random() % body.length] = `edited in commit ${c}: ${random()}`;
      if (c % 3 === k % 3) body.push(`appended in commit ${c}`);
      push(`M 100644 inline src/dir${k % 2}/file${k}.txt\n`);
      data(Buffer.from(`${body.join("\n")}\n`));
    }
    if (c % 10 === 0) {
      noise.writeUInt32BE(c, c * 8);
      push("M 100644 inline assets/noise.bin\n");
      data(noise);
      push("M 100755 inline assets/big.txt\n");
      data(Buffer.from(`header ${c}\n${"compressible line of text\n".repeat(80_000)}`));
    }
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: root, env: gitEnv, input: Buffer.concat(chunks) });
  git(root, ["reset", "-q", "--hard", "main"]);
  return root;
}

/** Longest delta chain in the repository's packs, from `git verify-pack -v`. */
function maxChainLength(root: string): number {
  let max = 0;
  for (const name of packNames(root)) {
    const out = git(root, ["verify-pack", "-v", join(packDir(root), name)]);
    for (const match of out.matchAll(/^chain length = (\d+):/gm)) max = Math.max(max, Number(match[1]));
  }
  return max;
}

/** The pack files of a repository as PackFile objects. */
function openPacks(root: string): PackFile[] {
  const cache = new DeltaBaseCache(1 << 20);
  return packNames(root).map((name) => new PackFile(join(packDir(root), name), join(packDir(root), name.replace(/\.pack$/, ".idx")), 0, cache.allocatePackId()));
}

/** Counts entries of each pack type code (1-4 whole, 6 OFS_DELTA, 7 REF_DELTA) in a pack. */
function entryTypes(pack: PackFile): Map<number, number> {
  const counts = new Map<number, number>();
  const index = pack.index;
  for (let i = 0; i < index.count; i++) {
    const type = pack.readEntry(index.offsetAt(i)).header.type;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

// --- a minimal pack writer, for layouts git never writes to objects/pack ---

type PackSpec =
  | { kind: "whole"; type: ObjectType; content: Buffer; rawData?: Buffer; declaredSize?: number }
  | { kind: "ofs"; base: number; delta: Buffer }
  | { kind: "ref"; baseOid: string; delta: Buffer }
  | { kind: "raw"; bytes: Buffer };

const TYPE_CODES: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };

function encodeEntryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let c = (type << 4) | (size & 15);
  size = Math.floor(size / 16);
  while (size > 0) {
    bytes.push(c | 0x80);
    c = size & 0x7f;
    size = Math.floor(size / 128);
  }
  bytes.push(c);
  return Buffer.from(bytes);
}

/** git's OFS_DELTA "offset encoding" (pack-objects.c write_no_reuse_object). */
function encodeOffset(distance: number): Buffer {
  const bytes = [distance & 127];
  while ((distance = Math.floor(distance / 128)) > 0) {
    distance -= 1;
    bytes.unshift(128 | (distance & 127));
  }
  return Buffer.from(bytes);
}

function deltaSize(n: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return bytes;
}

/** A delta that copies all of `base` (when `target` starts with it) and inserts the rest. */
function makeDelta(base: Buffer, target: Buffer): Buffer {
  const out = [...deltaSize(base.length), ...deltaSize(target.length)];
  let pos = 0;
  if (base.length > 0 && base.length <= 0xffffff && target.subarray(0, base.length).equals(base)) {
    // copy: offset 0 (no offset bytes), size in up to 3 bytes
    out.push(0x80 | 0x10 | 0x20 | 0x40, base.length & 0xff, (base.length >> 8) & 0xff, (base.length >> 16) & 0xff);
    pos = base.length;
  }
  while (pos < target.length) {
    const n = Math.min(127, target.length - pos);
    out.push(n, ...target.subarray(pos, pos + n));
    pos += n;
  }
  return Buffer.from(out);
}

/**
 * Writes pack-<sha>.pack and a v2 .idx into `dir`. `oids[i]` is the id of
 * entry i once resolved (the writer cannot resolve external bases itself).
 */
function writePack(dir: string, specs: PackSpec[], oids: string[]): { packPath: string; idxPath: string } {
  const parts: Buffer[] = [Buffer.from("PACK"), Buffer.alloc(8)];
  parts[1]?.writeUInt32BE(2, 0);
  parts[1]?.writeUInt32BE(specs.length, 4);
  let offset = 12;
  const offsets: number[] = [];
  const crcs: number[] = [];
  specs.forEach((spec) => {
    offsets.push(offset);
    let entry: Buffer;
    if (spec.kind === "whole") {
      const data = spec.rawData ?? deflateSync(spec.content);
      entry = Buffer.concat([encodeEntryHeader(TYPE_CODES[spec.type], spec.declaredSize ?? spec.content.length), data]);
    } else if (spec.kind === "ofs") {
      entry = Buffer.concat([encodeEntryHeader(6, spec.delta.length), encodeOffset(offset - (offsets[spec.base] as number)), deflateSync(spec.delta)]);
    } else if (spec.kind === "ref") {
      entry = Buffer.concat([encodeEntryHeader(7, spec.delta.length), Buffer.from(spec.baseOid, "hex"), deflateSync(spec.delta)]);
    } else {
      entry = spec.bytes;
    }
    crcs.push(crc32(entry));
    parts.push(entry);
    offset += entry.length;
  });
  const body = Buffer.concat(parts);
  const packSum = createHash("sha1").update(body).digest();
  const pack = Buffer.concat([body, packSum]);
  const order = oids.map((oid, i) => ({ oid, i })).sort((a, b) => (a.oid < b.oid ? -1 : 1));
  const fanout = Buffer.alloc(1024);
  for (let b = 0; b < 256; b++) fanout.writeUInt32BE(order.filter((o) => parseInt(o.oid.slice(0, 2), 16) <= b).length, b * 4);
  const idxParts = [Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]), fanout];
  for (const o of order) idxParts.push(Buffer.from(o.oid, "hex"));
  for (const o of order) idxParts.push(Buffer.from([0, 0, 0, 0].map((_, k) => ((crcs[o.i] as number) >>> (24 - 8 * k)) & 0xff)));
  for (const o of order) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(offsets[o.i] as number);
    idxParts.push(b);
  }
  idxParts.push(packSum);
  const idxBody = Buffer.concat(idxParts);
  const idx = Buffer.concat([idxBody, createHash("sha1").update(idxBody).digest()]);
  mkdirSync(dir, { recursive: true });
  const name = `pack-${packSum.toString("hex")}`;
  writeFileSync(join(dir, `${name}.pack`), pack);
  writeFileSync(join(dir, `${name}.idx`), idx);
  return { packPath: join(dir, `${name}.pack`), idxPath: join(dir, `${name}.idx`) };
}

// ---------------------------------------------------------------------------

describe("packs written by git", () => {
  it("reads every object after git gc --aggressive (deep delta chains), with and without caches", () => {
    const root = makeHistory(120);
    git(root, ["gc", "--aggressive", "--quiet"]);
    expect(packNames(root)).toHaveLength(1);
    expect(maxChainLength(root)).toBeGreaterThan(10);
    for (const options of [{}, { deltaBaseCacheBytes: 0, packWindowCacheBytes: 0 }, { deltaBaseCacheBytes: 50_000, packWindowCacheBytes: 40_000 }]) {
      const odb = new ObjectDatabase(objectsDir(root), options);
      expect(expectSameObjects(root, odb)).toBeGreaterThan(400);
      odb.close();
    }
    const types = entryTypes(openPacks(root)[0] as PackFile);
    expect(types.get(6)).toBeGreaterThan(100);
  });

  it("stops at the delta depth limit with E_CORRUPT", () => {
    const root = makeHistory(40);
    git(root, ["gc", "--aggressive", "--quiet"]);
    expect(maxChainLength(root)).toBeGreaterThan(3);
    const odb = new ObjectDatabase(objectsDir(root), { maxDeltaDepth: 2, deltaBaseCacheBytes: 0 });
    let deep = 0;
    for (const oid of allObjects(root).keys()) {
      try {
        odb.read(oid);
      } catch (error) {
        expect(isRalphError(error, "E_CORRUPT")).toBe(true);
        deep++;
      }
    }
    expect(deep).toBeGreaterThan(0);
  });

  it.each([
    ["v1", ["--index-version=1"], 1, false],
    ["v2 with 64-bit offsets", ["--index-version=2,0x20"], 2, true],
  ] as const)("reads through a %s index", (_name, args, version, hasLarge) => {
    const root = makeHistory(30);
    git(root, ["gc", "--quiet"]);
    const [name] = packNames(root) as [string];
    const pack = join(packDir(root), name);
    const idx = pack.replace(/\.pack$/, ".idx");
    const rewritten = join(makeTempDir(), "rewritten.idx");
    git(root, ["index-pack", ...args, "-o", rewritten, pack]);
    rmSync(idx, { force: true });
    renameSync(rewritten, idx);
    const index = PackIndex.fromFile(idx);
    expect(index.version).toBe(version);
    expect(index.largeOffsetCount > 0).toBe(hasLarge);
    git(root, ["fsck", "--full", "--strict", "--no-dangling"]);
    const odb = new ObjectDatabase(objectsDir(root));
    expectSameObjects(root, odb);
    odb.close();
  });

  it("reads REF_DELTA entries (repack without --delta-base-offset)", () => {
    const root = makeHistory(30);
    git(root, ["-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq"]);
    const types = entryTypes(openPacks(root)[0] as PackFile);
    expect(types.get(7)).toBeGreaterThan(20);
    expect(types.has(6)).toBe(false);
    const odb = new ObjectDatabase(objectsDir(root));
    expectSameObjects(root, odb);
    odb.close();
  });

  it("reads two packs, one a thin pack completed by index-pack --fix-thin", () => {
    const upstream = makeHistory(40);
    git(upstream, ["gc", "--quiet"]);
    git(upstream, ["branch", "old", "main~15"]);
    const clone = join(makeTempDir(), "clone");
    git(upstream, ["clone", "-q", "--no-local", "--single-branch", "-b", "old", upstream, clone]);
    const thin = gitBytes(upstream, ["pack-objects", "--thin", "--stdout", "--revs", "-q"], "main\n^old\n");
    gitBytes(clone, ["index-pack", "--fix-thin", "--stdin"], thin);
    git(clone, ["update-ref", "refs/heads/main", git(upstream, ["rev-parse", "main"]).trim()]);
    git(clone, ["fsck", "--full", "--strict", "--no-dangling"]);
    const packs = openPacks(clone);
    expect(packs).toHaveLength(2);
    expect(packs.some((p) => (entryTypes(p).get(7) ?? 0) > 0)).toBe(true);
    const odb = new ObjectDatabase(objectsDir(clone));
    expect(expectSameObjects(clone, odb)).toBe(allObjects(upstream).size);
    odb.close();
  });

  it("picks up a pack added after the first read", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    git(root, ["repack", "-adq"]);
    git(root, ["prune-packed"]);
    const odb = new ObjectDatabase(objectsDir(root));
    expect(odb.read(git(root, ["rev-parse", "HEAD"]).trim()).type).toBe("commit");
    writeFiles(root, { "b.txt": "beta\n" });
    git(root, ["add", "b.txt"]);
    git(root, ["commit", "-qm", "second"]);
    git(root, ["repack", "-dq"]);
    git(root, ["prune-packed"]);
    expect(packNames(root)).toHaveLength(2);
    const blob = git(root, ["rev-parse", "HEAD:b.txt"]).trim();
    expect(odb.has(blob)).toBe(true);
    expect(odb.read(blob).content.toString()).toBe("beta\n");
    odb.close();
  });

  it("retries once when gc deletes a pack between lookup and read", () => {
    const root = makeHistory(10);
    git(root, ["gc", "--quiet"]);
    const [before] = packNames(root);
    const odb = new ObjectDatabase(objectsDir(root));
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    // has() loads the index but does not open the pack file.
    expect(odb.has(head)).toBe(true);
    writeFiles(root, { "new.txt": "new\n" });
    git(root, ["add", "new.txt"]);
    git(root, ["commit", "-qm", "more"]);
    git(root, ["repack", "-adfq"]);
    git(root, ["prune-packed"]);
    expect(packNames(root)).not.toContain(before);
    expect(odb.read(head).type).toBe("commit");
    expectSameObjects(root, odb);
    odb.close();
  });

  it("keeps reading an open pack that gc deleted (the open descriptor still holds it)", () => {
    const root = makeHistory(10);
    git(root, ["gc", "--quiet"]);
    const odb = new ObjectDatabase(objectsDir(root));
    const objects = [...allObjects(root).keys()];
    odb.read(objects[0] as string);
    rmSync(packDir(root), { recursive: true, force: true });
    // Pack already open: objects still readable. A rescan drops the pack only when a lookup misses.
    expect(odb.read(objects[1] as string)).toBeTruthy();
    expect(odb.tryRead("0123456789abcdef0123456789abcdef01234567")).toBeNull();
    expect(odb.tryRead(objects[2] as string)).toBeNull();
    odb.close();
  });
});

describe("packs with layouts git does not write to objects/pack", () => {
  const blob = (text: string): { content: Buffer; oid: string } => {
    const content = Buffer.from(text);
    return { content, oid: ObjectDatabase.hash("blob", content) };
  };

  it("resolves an OFS_DELTA chain from a hand-built pack that git verify-pack accepts", () => {
    const root = makeRepo({}, { commit: false });
    const versions = Array.from({ length: 12 }, (_, i) => blob(`version list:\n${Array.from({ length: i + 1 }, (_, k) => `v${k}\n`).join("")}`));
    const specs: PackSpec[] = versions.map((v, i) =>
      i === 0 ? { kind: "whole", type: "blob", content: v.content } : { kind: "ofs", base: i - 1, delta: makeDelta((versions[i - 1] as { content: Buffer }).content, v.content) },
    );
    const { idxPath } = writePack(
      packDir(root),
      specs,
      versions.map((v) => v.oid),
    );
    expect(git(root, ["verify-pack", "-v", idxPath])).toMatch(/chain length = 11: 1 object/);
    const odb = new ObjectDatabase(objectsDir(root));
    for (const v of versions) expect(odb.read(v.oid).content.equals(v.content)).toBe(true);
    const shallow = new ObjectDatabase(objectsDir(root), { maxDeltaDepth: 5, deltaBaseCacheBytes: 0 });
    expect(shallow.read((versions[5] as { oid: string }).oid).content.equals((versions[5] as { content: Buffer }).content)).toBe(true);
    expectRalphError(() => shallow.read((versions[11] as { oid: string }).oid), "E_CORRUPT");
    odb.close();
    shallow.close();
  });

  it("resolves a REF_DELTA whose base is loose or in another pack", () => {
    const root = makeRepo({}, { commit: false });
    const odb = new ObjectDatabase(objectsDir(root));
    const looseBase = blob("loose base\n".repeat(50));
    odb.write("blob", looseBase.content);
    const packedBase = blob("packed base\n".repeat(50));
    writePack(packDir(root), [{ kind: "whole", type: "blob", content: packedBase.content }], [packedBase.oid]);
    const fromLoose = blob(`${looseBase.content.toString()}one more line\n`);
    const fromPacked = blob(`${packedBase.content.toString()}another line\n`);
    writePack(
      packDir(root),
      [
        { kind: "ref", baseOid: looseBase.oid, delta: makeDelta(looseBase.content, fromLoose.content) },
        { kind: "ref", baseOid: packedBase.oid, delta: makeDelta(packedBase.content, fromPacked.content) },
      ],
      [fromLoose.oid, fromPacked.oid],
    );
    const fresh = new ObjectDatabase(objectsDir(root));
    expect(fresh.read(fromLoose.oid).content.equals(fromLoose.content)).toBe(true);
    expect(fresh.read(fromPacked.oid).content.equals(fromPacked.content)).toBe(true);
    // And git agrees about the objects (it reads the loose / single-pack copies).
    expect(git(root, ["cat-file", "-p", packedBase.oid])).toBe(packedBase.content.toString());
    fresh.close();
    odb.close();
  });

  it("reports a REF_DELTA cycle, a missing base and broken entries as E_CORRUPT", () => {
    const root = makeRepo({}, { commit: false });
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    const missingBase = "c".repeat(40);
    const ok = blob("fine\n");
    const delta = Buffer.from([5, 5, 0x90, 5]);
    writePack(
      packDir(root),
      [
        { kind: "ref", baseOid: b, delta },
        { kind: "ref", baseOid: a, delta },
        { kind: "ref", baseOid: missingBase, delta },
        { kind: "whole", type: "blob", content: ok.content },
        { kind: "whole", type: "blob", content: Buffer.from("x"), rawData: Buffer.from("definitely not zlib") },
        { kind: "whole", type: "blob", content: Buffer.from("12345"), declaredSize: 9 },
        { kind: "ofs", base: 3, delta: Buffer.from([9, 5, 0x90, 5]) },
        // type 5 is reserved
        { kind: "raw", bytes: Buffer.concat([Buffer.from([0x51]), deflateSync(Buffer.from("x"))]) },
        // an OFS_DELTA pointing before the start of the pack
        { kind: "raw", bytes: Buffer.concat([Buffer.from([0x61, 0xff, 0x7f]), deflateSync(Buffer.from([1, 1, 0x90, 1]))]) },
        // a size varint that never ends
        { kind: "raw", bytes: Buffer.alloc(80, 0xff) },
      ],
      [a, b, "d".repeat(40), ok.oid, "e".repeat(40), "f".repeat(40), "1".repeat(40), "2".repeat(40), "3".repeat(40), "4".repeat(40)],
    );
    const odb = new ObjectDatabase(objectsDir(root));
    expect(odb.read(ok.oid).content.toString()).toBe("fine\n");
    for (const oid of [a, "d".repeat(40), "e".repeat(40), "f".repeat(40), "1".repeat(40), "2".repeat(40), "3".repeat(40), "4".repeat(40)]) {
      expectRalphError(() => odb.read(oid), "E_CORRUPT");
    }
    odb.close();
  });

  it("reads an entry whose zlib stream is far larger than the deflate bound", () => {
    // 30,000 empty stored blocks (5 bytes each), then "abc" in a final stored
    // block: valid zlib that zlib itself never writes. Exercises the re-read.
    const content = Buffer.from("abc");
    const adler = Buffer.alloc(4);
    adler.writeUInt32BE((((1 + 97 + 98 + 99) % 65521) + (((1 + 97 + (1 + 97 + 98) + (1 + 97 + 98 + 99)) % 65521) << 16)) >>> 0);
    const rawData = Buffer.concat([
      Buffer.from([0x78, 0x01]),
      Buffer.concat(Array.from({ length: 30_000 }, () => Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]))),
      Buffer.from([0x01, 0x03, 0x00, 0xfc, 0xff]),
      content,
      adler,
    ]);
    expect(inflateSync(rawData).equals(content)).toBe(true);
    const root = makeRepo({}, { commit: false });
    const oid = ObjectDatabase.hash("blob", content);
    const other = blob("after\n");
    writePack(
      packDir(root),
      [
        { kind: "whole", type: "blob", content, rawData },
        { kind: "whole", type: "blob", content: other.content },
      ],
      [oid, other.oid],
    );
    const odb = new ObjectDatabase(objectsDir(root));
    expect(odb.read(oid).content.toString()).toBe("abc");
    expect(odb.read(other.oid).content.toString()).toBe("after\n");
    odb.close();
  });

  it("rejects a pack that does not match its index", () => {
    const root = makeRepo({}, { commit: false });
    const one = blob("one\n");
    const { packPath } = writePack(packDir(root), [{ kind: "whole", type: "blob", content: one.content }], [one.oid]);
    const bytes = readFileSync(packPath);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    writeFileSync(packPath, bytes);
    expectRalphError(() => new ObjectDatabase(objectsDir(root)).read(one.oid), "E_CORRUPT");
  });

  it("skips a pack whose index is malformed", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    writeFileSync(join(packDir(root), "pack-0000000000000000000000000000000000000000.idx"), "garbage");
    writeFileSync(join(packDir(root), "pack-0000000000000000000000000000000000000000.pack"), "garbage");
    expectRalphError(() => PackIndex.fromFile(join(packDir(root), "pack-0000000000000000000000000000000000000000.idx")), "E_CORRUPT");
    const odb = new ObjectDatabase(objectsDir(root));
    const first = captureStderr(() => expect(odb.read(git(root, ["rev-parse", "HEAD:a.txt"]).trim()).content.toString()).toBe("alpha\n"));
    expect(first).toMatch(/pack index .* is corrupt/);
    // Warned once; later lookups skip the broken pack silently.
    const later = captureStderr(() => expect(odb.tryRead("0".repeat(40))).toBeNull());
    expect(later).toBe("");
    odb.close();
  });
});

/** What `fn` logs to its run's stderr (src/log.ts: warnings go to the run that made them). */
function captureStderr(fn: () => void): string {
  let text = "";
  withRun({ stderr: (chunk) => void (text += chunk), env: EMPTY_RUNTIME_ENV }, fn);
  return text;
}

describe("PackIndex lookups", () => {
  it("finds every object by binary search and misses absent ones", () => {
    const root = makeHistory(20);
    git(root, ["gc", "--quiet"]);
    const [pack] = openPacks(root) as [PackFile];
    const index = pack.index;
    const listed = git(root, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"]).trim().split("\n");
    expect(index.count).toBe(listed.length);
    listed.forEach((oid, i) => {
      expect(index.oidAt(i)).toBe(oid);
      expect(index.indexOf(oidToBytes(oid))).toBe(i);
    });
    for (const absent of ["0".repeat(40), "f".repeat(40)]) {
      if (!listed.includes(absent)) expect(index.findOffset(oidToBytes(absent))).toBe(-1);
    }
    pack.close();
  });
});

describe("applyDelta", () => {
  const base = Buffer.from("0123456789abcdef");
  it.each([
    ["copy and insert", [16, 8, 0x91, 4, 4, 3, 0x78, 0x79, 0x7a, 0x90, 1], "4567xyz0"],
    ["copy with offset bytes skipped (offset3 only)", [16, 1, 0x94, 0, 1], "0"],
    ["insert only", [16, 2, 2, 0x41, 0x42], "AB"],
  ] as const)("%s", (_name, delta, expected) => {
    expect(applyDelta(base, Buffer.from(delta)).toString()).toBe(expected);
  });

  it("treats a copy size of 0 as 0x10000", () => {
    const big = Buffer.alloc(0x10000, 7);
    const delta = Buffer.from([0x80, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80]);
    expect(applyDelta(big, delta).equals(big)).toBe(true);
  });

  it("copies long runs and inserts from buffers that are views into a larger allocation (non-zero byteOffset)", () => {
    const text = Array.from({ length: 200 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    const longBase = Buffer.from(`PREFIX${text}`).subarray(6); // a view at byteOffset 6
    const insert = Buffer.from("0123456789012345678901234567890123456789"); // 40 bytes: the long-run path
    // base size 200 (varint c8 01), result 105; copy base[100..160) (60 bytes), insert 40 bytes, copy base[0..5) (5 bytes)
    const raw = Buffer.from([0xc8, 0x01, 105, 0x91, 100, 60, 40, ...insert, 0x90, 5]);
    const delta = Buffer.concat([Buffer.from("xyz"), raw]).subarray(3);
    expect(applyDelta(longBase, delta).toString()).toBe(text.slice(100, 160) + insert.toString() + text.slice(0, 5));
  });

  it.each([
    ["a base size mismatch", [15, 1, 1, 0x41]],
    ["a copy past the base", [16, 4, 0x91, 14, 4]],
    ["an insert past the delta", [16, 4, 4, 0x41]],
    ["the reserved opcode 0", [16, 1, 0]],
    ["a result shorter than declared", [16, 4, 1, 0x41]],
    ["a result longer than declared", [16, 1, 2, 0x41, 0x42]],
    ["a truncated header", [0x80]],
  ] as const)("rejects %s with E_CORRUPT", (_name, delta) => {
    expectRalphError(() => applyDelta(base, Buffer.from(delta)), "E_CORRUPT");
  });
});

describe("DeltaBaseCache", () => {
  const object = (size: number) => ({ type: "blob" as const, content: Buffer.alloc(size) });
  it("evicts least recently used entries past its byte budget and skips large objects", () => {
    const cache = new DeltaBaseCache(1000);
    cache.set(1, object(200));
    cache.set(2, object(200));
    cache.set(3, object(200));
    expect(cache.get(1)).toBeDefined(); // 1 is now the most recent
    cache.set(4, object(200));
    cache.set(5, object(200));
    cache.set(6, object(200)); // over budget: evicts 2, the least recently used
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBeDefined();
    expect(cache.sizeBytes).toBeLessThanOrEqual(1000);
    cache.set(7, object(251)); // more than a quarter of the budget
    expect(cache.get(7)).toBeUndefined();
    const id = cache.allocatePackId();
    cache.set(id * 2 ** 40 + 12, object(10));
    cache.dropPack(id);
    expect(cache.get(id * 2 ** 40 + 12)).toBeUndefined();
  });

  it("holds nothing with a zero budget", () => {
    const cache = new DeltaBaseCache(0);
    cache.set(1, object(1));
    expect(cache.get(1)).toBeUndefined();
  });
});

describe("Node's zlib, as the pack reader relies on it", () => {
  const stream = deflateSync(Buffer.from("hello pack ".repeat(100)));
  it("inflateSync ignores bytes after the end of the zlib stream", () => {
    expect(inflateSync(Buffer.concat([stream, randomBytes(4096)])).toString()).toBe("hello pack ".repeat(100));
  });
  it("inflateSync reports a cut stream as Z_BUF_ERROR", () => {
    for (const cut of [2, stream.length - 4, stream.length - 1]) {
      expect(() => inflateSync(stream.subarray(0, cut))).toThrow(expect.objectContaining({ code: "Z_BUF_ERROR" }));
    }
  });
});
