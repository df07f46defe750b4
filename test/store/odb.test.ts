import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, statSync, chmodSync, writeFileSync, mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { encodePath } from "../../src/store/path-bytes.js";
import { ObjectDatabase, encodeCommit, encodeTree, parseCommit, parseTree, type Commit, type ObjectType, type TreeEntry } from "../../src/store/odb.js";
import { commitAll, fsck, git, gitEnv, makeRepo, makeTempDir } from "../helpers/git.js";

/** Runs git and returns raw stdout bytes. */
function gitBytes(cwd: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync("git", args, { cwd, env: gitEnv, input, maxBuffer: 1 << 30 });
}

/** Every object of the repository as git reads it (`cat-file --batch-all-objects --batch`). */
function allObjects(root: string): Map<string, { type: string; content: Buffer }> {
  const out = gitBytes(root, ["cat-file", "--batch-all-objects", "--batch"]);
  const objects = new Map<string, { type: string; content: Buffer }>();
  let pos = 0;
  while (pos < out.length) {
    const eol = out.indexOf(0x0a, pos);
    const [oid, type, size] = out.toString("latin1", pos, eol).split(" ") as [string, string, string];
    const start = eol + 1;
    objects.set(oid, { type, content: out.subarray(start, start + Number(size)) });
    pos = start + Number(size) + 1;
  }
  return objects;
}

function objectsDir(root: string): string {
  return join(root, ".git", "objects");
}

function looseFiles(root: string): string[] {
  const dir = objectsDir(root);
  const files: string[] = [];
  for (const fan of readdirSync(dir)) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    for (const name of readdirSync(join(dir, fan))) files.push(join(dir, fan, name));
  }
  return files;
}

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

describe("ObjectDatabase.hash", () => {
  it.each([
    ["blob", Buffer.from("")],
    ["blob", Buffer.from("hello\n")],
    ["blob", Buffer.from([0, 1, 2, 255, 254, 10, 13])],
    ["blob", Buffer.from("é ü 日本\n".repeat(100))],
  ] as [ObjectType, Buffer][])("matches git hash-object for a %s of %#", (type, content) => {
    const root = makeTempDir();
    const expected = gitBytes(root, ["hash-object", "-t", type, "--stdin"], content).toString().trim();
    expect(ObjectDatabase.hash(type, content)).toBe(expected);
  });
});

describe("ObjectDatabase reads", () => {
  it("reads every loose object of a repository byte for byte", () => {
    const root = makeRepo({
      "a.txt": "alpha\n",
      "bin/run.sh": { content: "#!/bin/sh\necho hi\n", mode: 0o755 },
      link: { symlink: "a.txt" },
      "dir/nested/deep.bin": Buffer.from([0, 1, 2, 3, 255]),
      empty: "",
    });
    commitAll(root, "second");
    const odb = new ObjectDatabase(objectsDir(root));
    const objects = allObjects(root);
    expect(objects.size).toBeGreaterThan(5);
    for (const [oid, expected] of objects) {
      const got = odb.read(oid);
      expect(got.type).toBe(expected.type);
      expect(got.content.equals(expected.content)).toBe(true);
      expect(odb.has(oid)).toBe(true);
    }
    odb.close();
  });

  it("returns null / throws E_CORRUPT for a missing object, E_INTERNAL for a malformed id", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const odb = new ObjectDatabase(objectsDir(root));
    const missing = "0123456789abcdef0123456789abcdef01234567";
    expect(odb.tryRead(missing)).toBeNull();
    expect(odb.has(missing)).toBe(false);
    expectRalphError(() => odb.read(missing), "E_CORRUPT");
    expectRalphError(() => odb.tryRead("HEAD"), "E_INTERNAL");
    expectRalphError(() => odb.tryRead(missing.toUpperCase()), "E_INTERNAL");
  });

  it("treats a missing objects directory as empty", () => {
    const odb = new ObjectDatabase(join(makeTempDir(), "nope", "objects"));
    expect(odb.tryRead("0123456789abcdef0123456789abcdef01234567")).toBeNull();
    expect(odb.expandPrefix("0123")).toEqual([]);
  });

  describe("a corrupted loose object is E_CORRUPT", () => {
    const cases: [string, (path: string, other: string) => void][] = [
      ["garbage bytes", (path) => writeFileSync(path, "this is not zlib")],
      ["a truncated zlib stream", (path) => writeFileSync(path, readFileSync(path).subarray(0, 8))],
      [
        "a flipped byte (adler32 mismatch)",
        (path) => {
          const bytes = readFileSync(path);
          bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
          writeFileSync(path, bytes);
        },
      ],
      ["another object's content", (path, other) => writeFileSync(path, readFileSync(other))],
      ["a header that lies about the size", (path) => writeFileSync(path, deflateSync(Buffer.from("blob 99\0short")))],
      ["an unknown type", (path) => writeFileSync(path, deflateSync(Buffer.from("bolb 5\0short")))],
      ["an empty file", (path) => writeFileSync(path, "")],
    ];
    it.each(cases)("%s", (_name, damage) => {
      const root = makeRepo({ "a.txt": "alpha\n", "b.txt": "beta\n" });
      const oid = git(root, ["rev-parse", "HEAD:a.txt"]).trim();
      const other = git(root, ["rev-parse", "HEAD:b.txt"]).trim();
      const path = join(objectsDir(root), oid.slice(0, 2), oid.slice(2));
      chmodSync(path, 0o644);
      damage(path, join(objectsDir(root), other.slice(0, 2), other.slice(2)));
      const odb = new ObjectDatabase(objectsDir(root));
      expect(odb.has(oid)).toBe(true);
      expectRalphError(() => odb.tryRead(oid), "E_CORRUPT");
      expectRalphError(() => odb.read(oid), "E_CORRUPT");
    });
  });
});

describe("ObjectDatabase.write", () => {
  it("writes loose objects that git fsck --strict accepts and git reads back", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const odb = new ObjectDatabase(objectsDir(root));
    const contents = [Buffer.from(""), Buffer.from("hello\n"), Buffer.alloc(300_000, "x"), Buffer.from([0, 255, 10])];
    const blobs = contents.map((c) => odb.write("blob", c));
    const tree = odb.write(
      "tree",
      encodeTree([
        { mode: "100644", name: "empty", oid: blobs[0] as string },
        { mode: "100755", name: "hello", oid: blobs[1] as string },
        { mode: "100644", name: "big", oid: blobs[2] as string },
      ]),
    );
    const parent = git(root, ["rev-parse", "HEAD"]).trim();
    const signature = { name: "Ralph", email: "ralph@example.invalid", timestamp: 1_767_225_600, timezone: "+0000" };
    const commit = odb.write("commit", encodeCommit({ tree, parents: [parent], author: signature, committer: signature, extraHeaders: [], message: "checkpoint\n" }));
    git(root, ["update-ref", "refs/ralph/test/head", commit]);
    fsck(root);
    expect(git(root, ["cat-file", "-t", commit]).trim()).toBe("commit");
    expect(git(root, ["ls-tree", commit]).trim().split("\n")).toEqual([`100644 blob ${blobs[2]}\tbig`, `100644 blob ${blobs[0]}\tempty`, `100755 blob ${blobs[1]}\thello`]);
    contents.forEach((c, i) => expect(gitBytes(root, ["cat-file", "blob", blobs[i] as string]).equals(c)).toBe(true));
    const path = join(objectsDir(root), commit.slice(0, 2), commit.slice(2));
    expect(statSync(path).mode & 0o777).toBe(0o444);
    expect(readdirSync(join(objectsDir(root), commit.slice(0, 2))).filter((n) => n.startsWith("tmp_"))).toEqual([]);
    // Written again: nothing changes, no error.
    expect(odb.write("commit", encodeCommit(parseCommit(odb.read(commit).content)))).toBe(commit);
    odb.close();
  });

  it("does not write a loose copy of a packed object, but freshens the pack", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    git(root, ["repack", "-adq"]);
    git(root, ["prune-packed"]);
    const packDir = join(objectsDir(root), "pack");
    const pack = readdirSync(packDir).find((n) => n.endsWith(".pack")) as string;
    utimesSync(join(packDir, pack), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const odb = new ObjectDatabase(objectsDir(root));
    const oid = odb.write("blob", Buffer.from("alpha\n"));
    expect(oid).toBe(git(root, ["rev-parse", "HEAD:a.txt"]).trim());
    expect(looseFiles(root)).toEqual([]);
    expect(statSync(join(packDir, pack)).mtime.getFullYear()).toBeGreaterThan(2000);
    odb.close();
  });

  it("freshens an existing loose object instead of rewriting it", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const oid = git(root, ["rev-parse", "HEAD:a.txt"]).trim();
    const path = join(objectsDir(root), oid.slice(0, 2), oid.slice(2));
    utimesSync(path, new Date(2000, 0, 1), new Date(2000, 0, 1));
    const inode = statSync(path).ino;
    new ObjectDatabase(objectsDir(root)).write("blob", Buffer.from("alpha\n"));
    expect(statSync(path).ino).toBe(inode);
    expect(statSync(path).mtime.getFullYear()).toBeGreaterThan(2000);
  });

  it("is safe when several processes write the same objects at once", async () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const lib = bundleOdb();
    const script = join(makeTempDir(), "writer.mjs");
    writeFileSync(
      script,
      `import { ObjectDatabase } from ${JSON.stringify(lib)};
const odb = new ObjectDatabase(process.argv[2]);
const oids = [];
for (let i = 0; i < 300; i++) oids.push(odb.write("blob", Buffer.from("shared object " + i + "\\n")));
oids.push(odb.write("blob", Buffer.alloc(4 << 20, "big")));
process.stdout.write(oids.join("\\n"));`,
    );
    const runs = await Promise.all(
      [1, 2, 3, 4].map(
        () =>
          new Promise<string>((resolvePromise, reject) => {
            const child = spawn(process.execPath, [script, objectsDir(root)], { stdio: ["ignore", "pipe", "inherit"] });
            let out = "";
            child.stdout.on("data", (d: Buffer) => (out += d.toString()));
            child.on("error", reject);
            child.on("exit", (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`writer exited ${code}`))));
          }),
      ),
    );
    expect(new Set(runs).size).toBe(1);
    const oids = (runs[0] as string).split("\n");
    const odb = new ObjectDatabase(objectsDir(root));
    for (const oid of oids) expect(odb.has(oid)).toBe(true);
    expect(odb.read(oids[oids.length - 1] as string).content.length).toBe(4 << 20);
    expect(looseFiles(root).filter((p) => p.includes("tmp_"))).toEqual([]);
    fsck(root);
  });

  it("never leaves a partial object at its final path when killed with SIGKILL", async () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const lib = bundleOdb();
    const script = join(makeTempDir(), "killme.mjs");
    writeFileSync(
      script,
      `import { ObjectDatabase } from ${JSON.stringify(lib)};
const odb = new ObjectDatabase(process.argv[2]);
process.stdout.write("ready\\n");
for (let i = 0; ; i++) odb.write("blob", Buffer.alloc((1 << 20) + i, String(i % 10) + process.pid));`,
    );
    for (let round = 0; round < 6; round++) {
      await new Promise<void>((resolvePromise, reject) => {
        const child = spawn(process.execPath, [script, objectsDir(root)], { stdio: ["ignore", "pipe", "inherit"] });
        child.on("error", reject);
        child.stdout.once("data", () => setTimeout(() => child.kill("SIGKILL"), 40 + round * 37));
        child.on("exit", () => resolvePromise());
      });
    }
    const odb = new ObjectDatabase(objectsDir(root));
    const finals = looseFiles(root).filter((p) => !p.includes("tmp_"));
    expect(finals.length).toBeGreaterThan(1);
    for (const path of finals) {
      const parts = path.split("/");
      const oid = (parts[parts.length - 2] as string) + (parts[parts.length - 1] as string);
      expect(["blob", "commit", "tree"]).toContain(odb.read(oid).type);
    }
    // What a kill leaves behind is only tmp_obj_* files, which git prune removes.
    git(root, ["prune"]);
    expect(looseFiles(root).filter((p) => p.includes("tmp_"))).toEqual([]);
    fsck(root);
  });
});

describe("ObjectDatabase.expandPrefix", () => {
  it("finds unique and ambiguous prefixes across loose and packed objects", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const odb = new ObjectDatabase(objectsDir(root));
    // Write blobs until two share a 4-digit prefix (birthday bound: a few hundred).
    const byPrefix = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const oid = odb.write("blob", Buffer.from(`blob number ${i}\n`));
      const seen = byPrefix.get(oid.slice(0, 4));
      if (seen !== undefined) pair = [seen, oid];
      byPrefix.set(oid.slice(0, 4), oid);
    }
    // Pack one of the two, keep the other loose.
    gitBytes(root, ["pack-objects", "-q", join(objectsDir(root), "pack", "pack")], `${pair[0]}\n`);
    const loosePath = join(objectsDir(root), pair[0].slice(0, 2), pair[0].slice(2));
    chmodSync(loosePath, 0o644);
    execFileSync("rm", [loosePath]);
    const fresh = new ObjectDatabase(objectsDir(root));
    expect(fresh.expandPrefix(pair[0].slice(0, 4))).toEqual([...pair].sort());
    expect(fresh.expandPrefix(pair[0].slice(0, 4).toUpperCase())).toEqual([...pair].sort());
    expect(fresh.expandPrefix(pair[0])).toEqual([pair[0]]);
    expect(fresh.expandPrefix(pair[1].slice(0, 12))).toEqual([pair[1]]);
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    expect(fresh.expandPrefix(head.slice(0, 7))).toContain(head);
    const absent = ["0000", "ffff", "abcd", "1234"].find((p) => !byPrefix.has(p) && !head.startsWith(p)) as string;
    expect(fresh.expandPrefix(`${absent}0000`)).toEqual([]);
    for (const bad of ["abc", "xyz1", "", "0".repeat(41)]) expectRalphError(() => fresh.expandPrefix(bad), "E_UNKNOWN_REV");
    fresh.close();
  });
});

describe("alternates", () => {
  it("reads objects of a `git clone --shared` source, loose and packed", () => {
    const source = makeRepo({ "a.txt": "alpha\n" });
    git(source, ["repack", "-adq"]);
    git(source, ["prune-packed"]);
    const looseOnly = makeRepoCommit(source, { "b.txt": "beta\n" });
    const clone = join(makeTempDir(), "clone");
    git(source, ["clone", "-q", "--shared", source, clone]);
    expect(readFileSync(join(clone, ".git", "objects", "info", "alternates"), "utf8")).toContain(source);
    const odb = new ObjectDatabase(join(clone, ".git", "objects"));
    for (const [oid, expected] of allObjects(source)) expect(odb.read(oid).content.equals(expected.content)).toBe(true);
    expect(odb.read(looseOnly).type).toBe("commit");
    // An object the alternate has is not copied into the clone.
    odb.write("blob", Buffer.from("beta\n"));
    expect(looseFiles(clone)).toEqual([]);
    odb.close();
  });

  it("follows relative, commented and chained alternates", () => {
    const base = makeRepo({ "base.txt": "base\n" });
    const middle = makeRepo({ "middle.txt": "middle\n" });
    const top = makeRepo({ "top.txt": "top\n" });
    const infoMiddle = join(objectsDir(middle), "info");
    mkdirSync(infoMiddle, { recursive: true });
    writeFileSync(join(infoMiddle, "alternates"), `# comment\n\n${objectsDir(base)}\n`);
    const infoTop = join(objectsDir(top), "info");
    mkdirSync(infoTop, { recursive: true });
    // Relative to the objects directory of `top`.
    const relative = join("..", "..", "..", middle.split("/").pop() as string, ".git", "objects");
    writeFileSync(join(infoTop, "alternates"), `${relative}\n"${objectsDir(top)}"\n`);
    const odb = new ObjectDatabase(objectsDir(top));
    for (const repo of [base, middle, top]) {
      const oid = git(repo, ["rev-parse", "HEAD"]).trim();
      expect(odb.read(oid).type).toBe("commit");
    }
  });
});

/** Adds a commit with `files` to `root` and returns its oid (objects stay loose). */
function makeRepoCommit(root: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content);
  return commitAll(root, "more");
}

/** Bundles src/store/odb.ts for child processes (Node cannot run the TypeScript directly). */
function bundleOdb(): string {
  const outfile = join(makeTempDir(), "odb.mjs");
  buildSync({
    entryPoints: [join(import.meta.dirname, "..", "..", "src", "store", "odb.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile,
    logLevel: "warning",
  });
  return outfile;
}

describe("encodeTree / parseTree", () => {
  it("matches git mktree byte for byte, including git's name order", () => {
    const root = makeRepo({}, { commit: false });
    const blob = (text: string): string => gitBytes(root, ["hash-object", "-w", "--stdin"], text).toString().trim();
    const sub = gitBytes(root, ["mktree"], `100644 blob ${blob("inner")}\tinner.txt\n`)
      .toString()
      .trim();
    const commitOid = "1234567890abcdef1234567890abcdef12345678";
    const entries: TreeEntry[] = [
      { mode: "100644", name: "a.b", oid: blob("1") },
      { mode: "40000", name: "a", oid: sub },
      { mode: "100644", name: "a-b", oid: blob("2") },
      { mode: "100755", name: "ab", oid: blob("3") },
      { mode: "120000", name: "link", oid: blob("target") },
      { mode: "160000", name: "sub module", oid: commitOid },
      { mode: "100644", name: "é unicode", oid: blob("4") },
      { mode: "40000", name: "a.b.dir", oid: sub },
      { mode: "100644", name: "A", oid: blob("5") },
      { mode: "100644", name: "a0", oid: blob("6") },
    ];
    const lsTree = entries.map((e) => `${e.mode === "40000" ? "040000" : e.mode} ${e.mode === "40000" ? "tree" : e.mode === "160000" ? "commit" : "blob"} ${e.oid}\t${e.name}`).join("\n");
    const expectedOid = gitBytes(root, ["mktree", "--missing"], `${lsTree}\n`).toString().trim();
    const encoded = encodeTree(entries);
    expect(ObjectDatabase.hash("tree", encoded)).toBe(expectedOid);
    expect(encoded.equals(gitBytes(root, ["cat-file", "tree", expectedOid]))).toBe(true);
    const parsed = parseTree(encoded);
    expect(parsed.map((e) => e.name)).toEqual(["A", "a-b", "a.b", "a.b.dir", "a", "a0", "ab", "link", "sub module", "é unicode"]);
    expect(parsed.find((e) => e.name === "a")?.mode).toBe("40000");
    expect(encodeTree([...parsed].reverse()).equals(encoded)).toBe(true);
    expect(encodeTree([])).toEqual(Buffer.alloc(0));
  });

  it("round-trips a name that is not valid UTF-8 through its escaped name", () => {
    const root = makeRepo({}, { commit: false });
    const blob = gitBytes(root, ["hash-object", "-w", "--stdin"], "x").toString().trim();
    const latin1Name = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // "café" in Latin-1
    const input = Buffer.concat([Buffer.from(`100644 blob ${blob}\t`), latin1Name, Buffer.from("\0")]);
    const treeOid = gitBytes(root, ["mktree", "-z"], input).toString().trim();
    const raw = gitBytes(root, ["cat-file", "tree", treeOid]);
    const parsed = parseTree(raw);
    expect(parsed[0]?.name).toBe("caf\udce9");
    expect(encodePath(parsed[0]?.name as string).equals(latin1Name)).toBe(true);
    expect(encodeTree(parsed).equals(raw)).toBe(true);
    // A renamed entry uses its new name, not the stale bytes.
    const renamed = encodeTree([{ ...(parsed[0] as TreeEntry), name: "cafe" }]);
    expect(parseTree(renamed)[0]?.name).toBe("cafe");
  });

  it("canonicalizes legacy modes like git's canon_mode", () => {
    const oid = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
    const modes = parseTree(
      encodeTree([
        { mode: "100664", name: "f", oid },
        { mode: "100775", name: "x", oid },
        { mode: "040000", name: "d", oid: "4b825dc642cb6eb9a060e54bf8d69288fbee4904" },
      ]),
    ).map((e) => e.mode);
    expect(modes).toEqual(["40000", "100644", "100755"]);
  });

  it.each([[""], ["."], [".."], [".git"], [".GIT"], ["a/b"], ["nul\0byte"]])("rejects the entry name %j", (name) => {
    expectRalphError(() => encodeTree([{ mode: "100644", name, oid: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" }]), "E_UNSAFE_PATH");
  });

  it("rejects duplicate names (also a file and a tree of the same name), bad oids and modes", () => {
    const oid = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
    const tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    expectRalphError(
      () =>
        encodeTree([
          { mode: "100644", name: "a", oid },
          { mode: "100644", name: "a", oid },
        ]),
      "E_INTERNAL",
    );
    expectRalphError(
      () =>
        encodeTree([
          { mode: "100644", name: "a", oid },
          { mode: "100644", name: "a.b", oid },
          { mode: "40000", name: "a", oid: tree },
        ]),
      "E_INTERNAL",
    );
    expectRalphError(() => encodeTree([{ mode: "100644", name: "a", oid: "abc" }]), "E_INTERNAL");
    expectRalphError(() => encodeTree([{ mode: "777", name: "a", oid }]), "E_INTERNAL");
  });

  it("rejects a malformed tree", () => {
    expectRalphError(() => parseTree(Buffer.from("100644 name\0short")), "E_CORRUPT");
    expectRalphError(() => parseTree(Buffer.from("100644name")), "E_CORRUPT");
    expectRalphError(() => parseTree(Buffer.concat([Buffer.from("10x644 a\0"), Buffer.alloc(20)])), "E_CORRUPT");
  });
});

describe("encodeCommit / parseCommit", () => {
  const commitEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...gitEnv, ...extra });

  it("matches git commit-tree byte for byte", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const tree = git(root, ["rev-parse", "HEAD^{tree}"]).trim();
    const first = git(root, ["rev-parse", "HEAD"]).trim();
    const parent = commitAll(root, "second");
    const env = commitEnv({
      GIT_AUTHOR_NAME: "Zoë Author",
      GIT_AUTHOR_EMAIL: "zoe@example.invalid",
      GIT_AUTHOR_DATE: "1700000000 -0530",
      GIT_COMMITTER_NAME: "Ralph",
      GIT_COMMITTER_EMAIL: "ralph@example.invalid",
      GIT_COMMITTER_DATE: "1767225600 +0100",
    });
    const message = "checkpoint: iteration 3\n\nRalph-Loop: demo\nRalph-Kind: iteration\n";
    const oid = execFileSync("git", ["commit-tree", tree, "-p", parent, "-p", first, "-F", "-"], {
      cwd: root,
      env,
      input: message,
    })
      .toString()
      .trim();
    const raw = gitBytes(root, ["cat-file", "commit", oid]);
    const fields: Commit = {
      tree,
      parents: [parent, first],
      author: { name: "Zoë Author", email: "zoe@example.invalid", timestamp: 1_700_000_000, timezone: "-0530" },
      committer: { name: "Ralph", email: "ralph@example.invalid", timestamp: 1_767_225_600, timezone: "+0100" },
      extraHeaders: [],
      message,
    };
    expect(encodeCommit(fields).equals(raw)).toBe(true);
    expect(ObjectDatabase.hash("commit", encodeCommit(fields))).toBe(oid);
    expect(parseCommit(raw)).toEqual(fields);
  });

  it("round-trips extra and multi-line headers (encoding, gpgsig)", () => {
    const root = makeRepo({ "a.txt": "alpha\n" });
    const tree = git(root, ["rev-parse", "HEAD^{tree}"]).trim();
    const text =
      `tree ${tree}\n` +
      "author A <a@example.invalid> 1 +0000\n" +
      "committer C <c@example.invalid> 2 -0100\n" +
      "encoding UTF-8\n" +
      "gpgsig -----BEGIN PGP SIGNATURE-----\n \n wsBcBAABCAAQ\n -----END PGP SIGNATURE-----\n" +
      "\n" +
      "subject\n\nbody\n";
    const oid = gitBytes(root, ["hash-object", "-t", "commit", "-w", "--stdin"], text).toString().trim();
    const raw = gitBytes(root, ["cat-file", "commit", oid]);
    const parsed = parseCommit(raw);
    expect(parsed.extraHeaders).toEqual([
      ["encoding", "UTF-8"],
      ["gpgsig", "-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQ\n-----END PGP SIGNATURE-----"],
    ]);
    expect(parsed.parents).toEqual([]);
    expect(parsed.message).toBe("subject\n\nbody\n");
    expect(encodeCommit(parsed).equals(raw)).toBe(true);
  });

  it("rejects malformed commits and identities", () => {
    const tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    expectRalphError(() => parseCommit(Buffer.from("author A <a> 1 +0000\n\nmsg")), "E_CORRUPT");
    expectRalphError(() => parseCommit(Buffer.from(`tree ${tree}\nauthor A <a> x +0000\ncommitter A <a> 1 +0000\n\n`)), "E_CORRUPT");
    expectRalphError(() => parseCommit(Buffer.from(`tree ${tree}\nauthor A <a> 1 +0000\n\n`)), "E_CORRUPT");
    const good = { name: "A", email: "a@example.invalid", timestamp: 1, timezone: "+0000" };
    const base: Commit = { tree, parents: [], author: good, committer: good, extraHeaders: [], message: "m\n" };
    expectRalphError(() => encodeCommit({ ...base, author: { ...good, name: "A <evil>" } }), "E_USAGE");
    expectRalphError(() => encodeCommit({ ...base, committer: { ...good, email: "a\nb" } }), "E_USAGE");
    expectRalphError(() => encodeCommit({ ...base, author: { ...good, timezone: "UTC" } }), "E_INTERNAL");
    expectRalphError(() => encodeCommit({ ...base, parents: ["HEAD"] }), "E_INTERNAL");
    expectRalphError(() => encodeCommit({ ...base, extraHeaders: [["bad key", "v"]] }), "E_INTERNAL");
  });
});

describe("loose object layout", () => {
  it("reads an object file copied from another repository", () => {
    const a = makeRepo({ "a.txt": "alpha\n" });
    const b = makeRepo({ "b.txt": "beta\n" });
    const oid = git(a, ["rev-parse", "HEAD:a.txt"]).trim();
    mkdirSync(join(objectsDir(b), oid.slice(0, 2)), { recursive: true });
    copyFileSync(join(objectsDir(a), oid.slice(0, 2), oid.slice(2)), join(objectsDir(b), oid.slice(0, 2), oid.slice(2)));
    expect(new ObjectDatabase(objectsDir(b)).read(oid).content.toString()).toBe("alpha\n");
  });
});
