/**
 * The inputs and races of issue 11, each as a test on a real repository
 * checked with the real `git` binary: data silently not stored or read from
 * outside, restores that lost concurrent writes or other people's edits,
 * caches that could poison a checkpoint, and errors that said "bug" (exit 3)
 * where the user can fix them (exit 2, naming the path and the fix).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync, appendFileSync, lstatSync, openSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifiedBody, withChecksum } from "../../src/checksum.js";
import { fileSystemError, isRalphError, toRalphError } from "../../src/errors.js";
import { CheckpointStore, loopRefName } from "../../src/store/checkpoint-store.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { decodePath, encodePath } from "../../src/store/path-bytes.js";
import { restoreFileSystem } from "../../src/store/restore.js";
import { statCachePath } from "../../src/store/snapshot.js";
import { cliPathForTests, ralphEnv, runRalph, runRalphInProcess } from "../helpers/cli.js";
import { fsck, git, gitEnv, gitWorkTreeTree, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

const loop = parseLoopId("hz");

function checkpoint(store: CheckpointStore, sizeCapBytes?: number) {
  return store.checkpoint({ loop, kind: "manual" }, sizeCapBytes === undefined ? {} : { sizeCapBytes });
}

function treePaths(root: string, tree: string): string[] {
  return git(root, ["ls-tree", "-r", "--name-only", "--full-tree", tree]).split("\n").filter(Boolean);
}

describe("path bytes", () => {
  it("decodes bytes that are not UTF-8 losslessly and leaves valid UTF-8 (with a real U+FFFD) as it is", () => {
    const cases = [
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      Buffer.from("caf\u00e9 \uFFFD ok", "utf8"),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xf0, 0x9f, 0x98]),
      Buffer.from("😀", "utf8"),
      Buffer.from([0xc3]),
    ];
    for (const bytes of cases) expect(encodePath(decodePath(bytes)).equals(bytes), bytes.toString("hex")).toBe(true);
    expect(decodePath(Buffer.from("caf\u00e9", "utf8"))).toBe("caf\u00e9");
    expect(decodePath(Buffer.from([0x63, 0xe9]))).toBe("c\udce9");
  });
});

describe("data that was silently not stored, or stored from outside", () => {
  it("a tracked folder replaced by a symlink to outside: checkpoint and revert work, nothing is read through the link", () => {
    const outside = makeTempDir("ralph-hz-outside-");
    writeFileSync(join(outside, "a.txt"), "from outside the repository\n");
    const root = makeRepo({ "d/a.txt": "tracked\n", "keep.txt": "k\n" });
    const store = CheckpointStore.open(root);
    const first = checkpoint(store);
    rmSync(join(root, "d"), { recursive: true });
    symlinkSync(outside, join(root, "d"));
    const second = checkpoint(store);
    expect(second.treeOid).toBe(gitWorkTreeTree(root));
    expect(git(root, ["ls-tree", second.treeOid, "d"])).toMatch(/^120000 blob /);
    store.revert({ oid: first.oid, treeOid: first.treeOid, label: "first" }, { loop });
    expect(lstatSync(join(root, "d")).isDirectory()).toBe(true);
    expect(readFileSync(join(root, "d", "a.txt"), "utf8")).toBe("tracked\n");
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("from outside the repository\n");
    // Ignored, the path is still not read through the link.
    rmSync(join(root, "d"), { recursive: true });
    symlinkSync(outside, join(root, "d"));
    writeFileSync(join(root, ".gitignore"), "d\n");
    const third = checkpoint(store);
    expect(third.treeOid).toBe(gitWorkTreeTree(root));
    expect(treePaths(root, third.treeOid)).not.toContain("d/a.txt");
    fsck(root);
  });

  it("a name that is not valid UTF-8 is stored, its edits are seen, and a revert writes the same bytes back", () => {
    const root = makeRepo({ "x.txt": "x\n" });
    const name = Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from(".txt")]);
    writeFileSync(name, "one\n");
    const store = CheckpointStore.open(root);
    const first = checkpoint(store);
    expect(first.treeOid).toBe(gitWorkTreeTree(root));
    writeFileSync(name, "two, longer\n");
    const second = checkpoint(store);
    expect(second.changed).toBe(true);
    expect(second.treeOid).toBe(gitWorkTreeTree(root));
    store.revert({ oid: first.oid, treeOid: first.treeOid, label: "first" }, { loop });
    expect(readFileSync(name, "utf8")).toBe("one\n");
    expect(readdirSync(root, { encoding: "buffer" }).some((n) => n.equals(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74])))).toBe(true);
    fsck(root);
  });

  /** Makes a repository with one commit at `rel` (path bytes) below `root`: built at an ASCII path, then renamed into place. */
  function nestedRepoAt(root: string, rel: Buffer, content: string): string {
    const staging = makeTempDir("ralph-hz-nested-");
    git(staging, ["init", "-q", "-b", "main"]);
    writeFileSync(join(staging, "inside.txt"), content);
    git(staging, ["add", "-A"]);
    git(staging, ["commit", "-q", "-m", "nested"]);
    const head = git(staging, ["rev-parse", "HEAD"]).trim();
    renameSync(staging, Buffer.concat([Buffer.from(`${root}/`), rel]));
    return head;
  }

  /** HEAD of the repository at the path bytes `dir`, read by git through a shell (argv cannot carry the bytes). */
  function commitOf(dir: Buffer): string {
    return execFileSync("bash", ["-c", 'IFS= read -r -d "" p; cd -- "$p" && exec git rev-parse HEAD'], { input: Buffer.concat([dir, Buffer.of(0)]), env: gitEnv, encoding: "utf8" }).trim();
  }

  /** Runs git in the repository at the path bytes `dir` (a commit there moves its HEAD). */
  function gitAt(dir: Buffer, args: string[]): void {
    execFileSync("bash", ["-c", 'IFS= read -r -d "" p; cd -- "$p" && exec git "$@"', "bash", ...args], { input: Buffer.concat([dir, Buffer.of(0)]), env: gitEnv, stdio: ["pipe", "pipe", "pipe"] });
  }

  it("a nested repository whose folder name is not valid UTF-8 is a gitlink to its HEAD, as git add -A stores it", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const rel = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // Latin-1 "café"
    const head = nestedRepoAt(root, rel, "one\n");
    const store = CheckpointStore.open(root);
    const first = checkpoint(store);
    expect(first.treeOid).toBe(gitWorkTreeTree(root));
    expect(execFileSync("git", ["ls-tree", "-z", first.treeOid], { cwd: root, env: gitEnv }).toString("latin1")).toContain(`160000 commit ${head}\tcaf\xe9\0`);
    // Its HEAD moves: the gitlink follows, as git's would.
    const abs = Buffer.concat([Buffer.from(`${root}/`), rel]);
    writeFileSync(Buffer.concat([abs, Buffer.from("/inside.txt")]), "two\n");
    gitAt(abs, ["commit", "-q", "-am", "second"]);
    const second = checkpoint(store);
    expect(second.changed).toBe(true);
    expect(second.treeOid).toBe(gitWorkTreeTree(root));
    fsck(root);
  });

  it("a submodule (a .git file into .git/modules) whose folder name is not valid UTF-8 is a gitlink to its current HEAD, not the index's", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const rel = Buffer.from([0x6d, 0xff, 0x2d, 0x6d, 0x6f, 0x64]); // "m\xff-mod"
    const abs = Buffer.concat([Buffer.from(`${root}/`), rel]);
    nestedRepoAt(root, rel, "one\n");
    // Absorb its git dir as `git submodule absorbgitdirs` does: .git/modules/<name>, and a `gitdir:` file with the path bytes.
    const modules = join(root, ".git", "modules");
    mkdirSync(modules, { recursive: true });
    const moduleDir = Buffer.concat([Buffer.from(`${modules}/`), rel]);
    renameSync(Buffer.concat([abs, Buffer.from("/.git")]), moduleDir);
    writeFileSync(Buffer.concat([abs, Buffer.from("/.git")]), Buffer.concat([Buffer.from("gitdir: ../.git/modules/"), rel, Buffer.from("\n")]));
    execFileSync("git", ["add", "--pathspec-from-file=-", "--pathspec-file-nul"], { cwd: root, env: gitEnv, input: Buffer.concat([rel, Buffer.of(0)]) });
    git(root, ["commit", "-q", "-m", "add the submodule"]);
    const store = CheckpointStore.open(root);
    const first = checkpoint(store);
    expect(first.treeOid).toBe(gitWorkTreeTree(root));
    writeFileSync(Buffer.concat([abs, Buffer.from("/inside.txt")]), "two\n");
    gitAt(abs, ["commit", "-q", "-am", "second"]);
    const second = checkpoint(store);
    expect(second.changed).toBe(true);
    expect(second.treeOid).toBe(gitWorkTreeTree(root));
    expect(execFileSync("git", ["ls-tree", "-z", second.treeOid], { cwd: root, env: gitEnv }).toString("latin1")).toContain(`160000 commit ${commitOf(abs)}\tm\xff-mod\0`);
    fsck(root);
  });

  it("a tracked submodule whose HEAD moved, then whose folder stops being a repository: the gitlink falls back to the index's commit, not the last one seen (seed 303)", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const rel = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    const abs = Buffer.concat([Buffer.from(`${root}/`), rel]);
    const indexed = nestedRepoAt(root, rel, "one\n");
    execFileSync("git", ["add", "--pathspec-from-file=-", "--pathspec-file-nul"], { cwd: root, env: gitEnv, input: Buffer.concat([rel, Buffer.of(0)]) });
    git(root, ["commit", "-q", "-m", "track the nested repository"]);
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, ".git", "index"), old, old); // an index older than the racy window: later scans trust the stat cache for it
    const store = CheckpointStore.open(root);
    checkpoint(store);
    writeFileSync(Buffer.concat([abs, Buffer.from("/inside.txt")]), "two\n");
    gitAt(abs, ["commit", "-q", "-am", "second"]);
    expect(checkpoint(store).treeOid).toBe(gitWorkTreeTree(root)); // the gitlink follows the moved HEAD
    rmSync(Buffer.concat([abs, Buffer.from("/.git")]) as unknown as string, { recursive: true, force: true });
    const after = checkpoint(store);
    expect(after.treeOid).toBe(gitWorkTreeTree(root));
    expect(execFileSync("git", ["ls-tree", "-z", after.treeOid], { cwd: root, env: gitEnv }).toString("latin1")).toContain(`160000 commit ${indexed}\tcaf\xe9\0`);
    fsck(root);
  });

  it.each([
    ["false (git's default on Linux)", undefined],
    ["true", "true"],
  ])("ignore rules match case as core.ignorecase=%s says", (_name, ignoreCase) => {
    const root = makeRepo({ ".gitignore": "*.log\nbuild/\n", "UPPER.LOG": "u\n", "Build/out.txt": "b\n", "lower.log": "l\n" }, { commit: false });
    if (ignoreCase !== undefined) git(root, ["config", "core.ignorecase", ignoreCase]);
    const snap = checkpoint(CheckpointStore.open(root));
    expect(snap.treeOid).toBe(gitWorkTreeTree(root));
    expect(treePaths(root, snap.treeOid).includes("UPPER.LOG")).toBe(ignoreCase === undefined);
  });

  it("a file the target skipped as over the size cap is left as it is by a revert to it", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const store = CheckpointStore.open(root);
    writeFileSync(join(root, "big.bin"), Buffer.alloc(5000, 1));
    const target = checkpoint(store, 4096);
    expect(target.skipped.map((s) => s.path)).toEqual(["big.bin"]);
    writeFileSync(join(root, "big.bin"), Buffer.alloc(100, 2)); // now under the cap: stored by the next checkpoint
    writeFileSync(join(root, "a.txt"), "changed\n");
    checkpoint(store, 4096);
    const result = store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop, sizeCapBytes: 4096 });
    expect(readFileSync(join(root, "big.bin")).equals(Buffer.alloc(100, 2))).toBe(true);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a\n");
    expect(result.skipped.map((s) => s.path)).toContain("big.bin");
  });

  it("files ignored before a restore stay out of its checkpoint when the target's .gitignore lacks the rule", () => {
    const root = makeRepo({ ".gitignore": "*.tmp\n", "a.txt": "a\n" });
    const store = CheckpointStore.open(root);
    const target = checkpoint(store);
    writeFileSync(join(root, ".gitignore"), "*.tmp\ngen/\n");
    writeFiles(root, { "gen/one.js": "1", "gen/deep/two.js": "2", "a.txt": "b\n" });
    checkpoint(store);
    const result = store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop });
    const restored = store.readCheckpoint(result.restored as string);
    expect(treePaths(root, restored.treeOid).filter((p) => p.startsWith("gen/"))).toEqual([]);
    expect(readFileSync(join(root, "gen", "one.js"), "utf8")).toBe("1"); // never touched
    // The next scan classifies the folder by the rules again (the user now sees gen/ in git status).
    expect(checkpoint(store).treeOid).toBe(gitWorkTreeTree(root));
  });
});

describe("restores that lose nothing", () => {
  it("a file written between the pre-revert snapshot and its overwrite goes into a follow-up checkpoint first", () => {
    const root = makeRepo({ "log.txt": "line 0\n", "other.txt": "o\n" });
    const store = CheckpointStore.open(root);
    const target = checkpoint(store);
    appendFileSync(join(root, "log.txt"), "line 1\n");
    checkpoint(store);
    // A concurrent writer: it appends while the restore reads the target's blobs, after the pre-revert snapshot.
    const read = store.odb.read.bind(store.odb);
    let appended = false;
    store.odb.read = (oid: string) => {
      if (!appended) {
        appended = true;
        appendFileSync(join(root, "log.txt"), "line 2 (concurrent)\n");
      }
      return read(oid);
    };
    store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop });
    store.odb.read = read;
    const stored = git(root, ["log", "--format=%H", loopRefName(loop, "head")])
      .split("\n")
      .filter(Boolean)
      .map((c) => git(root, ["show", `${c}:log.txt`]));
    expect(stored.some((text) => text.includes("line 2 (concurrent)"))).toBe(true);
    expect(readFileSync(join(root, "log.txt"), "utf8")).toBe("line 0\n");
    fsck(root);
  });

  it("a writer that holds the old file open and writes after the restore's last look: its bytes end in a follow-up checkpoint", () => {
    // The class: a write that lands in the old inode after the restore looked at it for the last time (between that
    // lstat and the rename, or after the rename through a descriptor opened before it) reaches no file in the work tree.
    for (const how of ["replaced", "removed"] as const) {
      // replaced: the target holds another log.txt; removed: the target has none.
      const root = makeRepo(how === "replaced" ? { "log.txt": "first\n", "other.txt": "o\n" } : { "other.txt": "o\n" });
      const store = CheckpointStore.open(root);
      const target = checkpoint(store);
      writeFiles(root, { "log.txt": "first\nsecond\n" });
      checkpoint(store);
      const fd = openSync(join(root, "log.txt"), "a"); // the writer's descriptor, opened before the revert
      const realRename = restoreFileSystem.rename;
      const realUnlink = restoreFileSystem.unlink;
      const late = () => writeSync(fd, "late line\n");
      restoreFileSystem.rename = (from, to) => {
        realRename(from, to);
        if (String(to).endsWith("log.txt")) late();
      };
      restoreFileSystem.unlink = (path) => {
        realUnlink(path);
        if (String(path).endsWith("log.txt")) late();
      };
      try {
        store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop, force: true });
      } finally {
        restoreFileSystem.rename = realRename;
        restoreFileSystem.unlink = realUnlink;
        closeSync(fd);
      }
      const history = git(root, ["log", "-p", "--format=", "--no-color", loopRefName(loop, "head"), "--", "log.txt"]);
      expect(history, how).toContain("+late line");
      fsck(root);
    }
  });

  it("a real process appending a line every 2 ms across 8 reverts: every line ends in the final file or in a checkpoint", async () => {
    const root = makeRepo({ "log.txt": "", "other.txt": "o\n" });
    const store = CheckpointStore.open(root);
    const target = checkpoint(store);
    const log = join(root, "log.txt");
    const writer = spawn(
      process.execPath,
      [
        "-e",
        'const fs = require("fs"); let n = 0; const t = setInterval(() => fs.appendFileSync(process.argv[1], `line ${++n}\\n`), 2); process.on("SIGTERM", () => { clearInterval(t); process.stdout.write(String(n), () => process.exit(0)); });',
        log,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let written = "";
    writer.stdout.on("data", (d: Buffer) => (written += d.toString()));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let waited = 0; readFileSync(log, "utf8") === "" && waited < 20_000; waited += 20) await pause(20); // node has started
    // Each revert either completes or, when the file never holds still between follow-up checkpoints
    // (a loaded machine), stops and names the file that moved: the two allowed outcomes.
    const outcomes: string[] = [];
    const exited = new Promise((resolve) => writer.once("close", resolve)); // after its stdout is read
    try {
      for (let i = 0; i < 8; i++) {
        try {
          store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop, force: true });
          outcomes.push("restored");
        } catch (error) {
          expect(isRalphError(error, "E_RESTORE_REFUSED") && (error.data as { path?: string }).path === "log.txt", String(error)).toBe(true);
          outcomes.push("stopped, naming log.txt");
        }
        await pause(30);
      }
    } finally {
      writer.kill("SIGTERM");
      await exited;
    }
    expect(outcomes).toHaveLength(8);
    const total = Number(written);
    expect(total).toBeGreaterThan(50);
    const seen = new Set(readFileSync(log, "utf8").split("\n"));
    // Every line any checkpoint of the (linear) chain holds was added by one commit's diff of log.txt.
    for (const line of git(root, ["log", "-p", "--format=", "--no-color", loopRefName(loop, "head"), "--", "log.txt"], { maxBuffer: 64 << 20 }).split("\n")) {
      if (line.startsWith("+line ")) seen.add(line.slice(1));
    }
    const lost = Array.from({ length: total }, (_, i) => `line ${i + 1}`).filter((line) => !seen.has(line));
    expect(lost, `${lost.length} of ${total} lines lost`).toEqual([]);
    fsck(root);
  });

  it("a revert leaves no temporaries in the work tree and removes those a killed one left under .git/ralph/tmp", () => {
    const root = makeRepo({ "a.txt": "a\n", "b/c.txt": "c\n" });
    const store = CheckpointStore.open(root);
    const target = checkpoint(store);
    writeFiles(root, { "a.txt": "changed\n", "b/c.txt": "changed\n" });
    checkpoint(store);
    mkdirSync(join(root, ".git", "ralph", "tmp"), { recursive: true });
    writeFileSync(join(root, ".git", "ralph", "tmp", ".ralph-tmp-0123456789ab"), "left by a killed revert");
    store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop });
    expect(readdirSync(join(root, ".git", "ralph", "tmp"))).toEqual([]);
    expect(git(root, ["status", "--porcelain", "-uall"])).toBe("");
  });

  it("a whole-tree revert refuses to overwrite another loop's work done since its own last checkpoint, and --force overrides", () => {
    const root = makeRepo({ "a.txt": "a\n", "shared.txt": "s\n" });
    const store = CheckpointStore.open(root);
    const target = checkpoint(store);
    writeFileSync(join(root, "a.txt"), "this loop's edit\n");
    checkpoint(store);
    writeFileSync(join(root, "shared.txt"), "the other loop's edit\n");
    store.checkpoint({ loop: parseLoopId("other"), kind: "post-tool" });
    let refused: unknown;
    try {
      store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop });
    } catch (error) {
      refused = error;
    }
    expect(isRalphError(refused, "E_RESTORE_REFUSED")).toBe(true);
    expect((refused as { data: { paths: string[]; loops: string[] } }).data).toMatchObject({ paths: ["shared.txt"], loops: ["other"] });
    expect(readFileSync(join(root, "shared.txt"), "utf8")).toBe("the other loop's edit\n");
    const result = store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop, force: true });
    expect(git(root, ["show", `${result.preRevert}:shared.txt`])).toBe("the other loop's edit\n");
    expect(readFileSync(join(root, "shared.txt"), "utf8")).toBe("s\n");
  });

  it("edits nobody checkpointed are overwritten (a revert to @head undoes them) and listed, kept in the pre-revert checkpoint", () => {
    const root = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const store = CheckpointStore.open(root);
    const head = checkpoint(store);
    writeFileSync(join(root, "b.txt"), "unsaved break\n");
    const result = store.revert({ oid: head.oid, treeOid: head.treeOid, label: "@head" }, { loop });
    expect(result.overwritten).toEqual(["b.txt"]);
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b\n");
    expect(git(root, ["show", `${result.preRevert}:b.txt`])).toBe("unsaved break\n");
  });
});

describe("caches that cannot poison the store", () => {
  it("one changed hex digit in the stat cache is a cold start, not a checkpoint naming a missing blob", () => {
    const root = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const store = CheckpointStore.open(root);
    checkpoint(store);
    const path = statCachePath(store.repo);
    const bytes = readFileSync(path);
    const oid = git(root, ["rev-parse", "HEAD:a.txt"]).trim();
    const at = bytes.indexOf(Buffer.from(oid));
    expect(at).toBeGreaterThan(0);
    bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
    writeFileSync(path, bytes);
    writeFileSync(join(root, "b.txt"), "b changed\n"); // the folder's tree is rebuilt, naming a.txt's cached oid
    const result = checkpoint(store);
    expect(result.treeOid).toBe(gitWorkTreeTree(root));
    fsck(root);
  });

  it("a cache with a valid checksum but an oid the repository lacks is never committed", () => {
    const root = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const store = CheckpointStore.open(root);
    checkpoint(store);
    const path = statCachePath(store.repo);
    const body = verifiedBody(readFileSync(path)) as Buffer;
    const oid = git(root, ["rev-parse", "HEAD:a.txt"]).trim();
    const at = body.indexOf(Buffer.from(oid));
    body[at] = body[at] === 0x30 ? 0x31 : 0x30;
    writeFileSync(path, withChecksum(Buffer.from(body)));
    writeFileSync(join(root, "b.txt"), "b changed\n");
    expect(checkpoint(store).treeOid).toBe(gitWorkTreeTree(root));
    fsck(root);
  });

  it("stat-cache temp files left by killed saves are removed", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const store = CheckpointStore.open(root);
    checkpoint(store);
    const stale = `${statCachePath(store.repo)}.0123456789ab.tmp`;
    writeFileSync(stale, "partial");
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(stale, old, old);
    writeFileSync(join(root, "a.txt"), "b\n");
    checkpoint(store);
    expect(existsSync(stale)).toBe(false);
  });

  it("end to end: a facts entry with one hex digit changed, a truncated one and a truncated code cache are misses, rewritten, and change no result", () => {
    const root = makeRepo({
      "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n",
      "test/add.test.js": 'import { test, expect } from "vitest";\nimport { add } from "../src/add.js";\ntest("adds", () => {\n  expect(add(1, 2)).toBe(3);\n  expect(add(2, 2)).toBe(4);\n});\n',
    });
    writeFiles(root, { "test/add.test.js": 'import { test, expect } from "vitest";\nimport { add } from "../src/add.js";\ntest("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n' });
    git(root, ["commit", "-q", "-am", "drop an assertion"]);
    const judge = (): unknown => {
      const r = runRalph(root, ["check", "--from", "HEAD~1", "--to", "HEAD", "--json"]);
      expect(r.status, r.stderr).toBe(1); // BLOCK: the removed assertion
      const out = JSON.parse(r.stdout) as { stats: { duration_ms?: number } };
      delete out.stats.duration_ms;
      return out;
    };
    const clean = judge();
    const cp = runRalph(root, ["checkpoint", "--loop", "cache"]);
    expect(cp.status, cp.stderr).toBe(0);
    const factsDir = join(root, ".git", "ralph", "facts");
    const entries = readdirSync(factsDir).flatMap((b) => readdirSync(join(factsDir, b)).map((f) => join(factsDir, b, f)));
    expect(entries.length).toBeGreaterThanOrEqual(2);
    const codeCaches = readdirSync(join(root, ".git", "ralph", "v8-cache")).map((f) => join(root, ".git", "ralph", "v8-cache", f));
    expect(codeCaches).toHaveLength(1);
    const original = new Map(entries.map((f) => [f, readFileSync(f)]));
    // One hex digit of the first entry's blob oid changed; the second entry truncated; the code cache cut in half.
    const flipped = Buffer.from(original.get(entries[0] as string) as Buffer);
    const at = flipped.indexOf(Buffer.from('"oid":"')) + 7;
    flipped[at] = flipped[at] === 0x30 ? 0x31 : 0x30;
    writeFileSync(entries[0] as string, flipped);
    writeFileSync(entries[1] as string, (original.get(entries[1] as string) as Buffer).subarray(0, 40));
    const code = readFileSync(codeCaches[0] as string);
    writeFileSync(codeCaches[0] as string, code.subarray(0, code.length >> 1));

    expect(judge()).toEqual(clean);
    for (const f of entries.slice(0, 2)) expect(readFileSync(f).equals(original.get(f) as Buffer), `${f} rewritten as it was`).toBe(true);
    expect(verifiedBody(readFileSync(codeCaches[0] as string)), "the code cache is rewritten whole").not.toBeNull();
    // A checkpoint through the CLI after the corruption stores exactly the work tree, and a repeat judges the same again.
    writeFileSync(join(root, "src", "add.js"), "export function add(a, b) {\n  return b + a;\n}\n");
    const after = runRalph(root, ["checkpoint", "--loop", "cache"]);
    expect(after.status, after.stderr).toBe(0);
    expect(git(root, ["rev-parse", `${after.stdout.trim()}^{tree}`]).trim()).toBe(gitWorkTreeTree(root));
    expect(judge()).toEqual(clean);
    fsck(root);
  });

  it("a checksummed file: any changed byte or a truncation fails the check", () => {
    const sealed = withChecksum(Buffer.from('{"facts":1}'));
    expect(verifiedBody(sealed)?.toString()).toBe('{"facts":1}');
    for (let i = 0; i < sealed.length; i++) {
      const copy = Buffer.from(sealed);
      copy[i] = (copy[i] as number) ^ 0x01;
      expect(verifiedBody(copy), `byte ${i}`).toBeNull();
    }
    expect(verifiedBody(sealed.subarray(0, sealed.length - 1))).toBeNull();
    expect(verifiedBody(Buffer.alloc(3))).toBeNull();
  });
});

describe("errors the user can fix exit 2, naming the path and the fix", () => {
  it.each(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "ENOTDIR", "EISDIR"])("a system error %s becomes E_FILESYSTEM naming the path", (code) => {
    const error = Object.assign(new Error(`${code}: failed`), { code, path: "/repo/.git/objects/ab/tmp_obj_x" });
    const mapped = toRalphError(error);
    expect(mapped.code).toBe("E_FILESYSTEM");
    expect(mapped.exitCode).toBe(2);
    expect(mapped.message).toContain("/repo/.git/objects/ab/tmp_obj_x");
    expect(fileSystemError(new Error("plain"))).toBeNull();
  });

  it("a revert that fails part-way (no space left) names the pre-revert checkpoint that undoes it", () => {
    const root = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const store = CheckpointStore.open(root);
    const target = checkpoint(store);
    writeFiles(root, { "a.txt": "changed\n", "b.txt": "changed\n" });
    checkpoint(store);
    const read = store.odb.read.bind(store.odb);
    store.odb.read = () => {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", path: join(root, "a.txt") });
    };
    let failed: unknown;
    try {
      store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop });
    } catch (error) {
      failed = error;
    }
    store.odb.read = read;
    expect(isRalphError(failed, "E_FILESYSTEM")).toBe(true);
    const preRevert = (failed as { data: { preRevert: string } }).data.preRevert;
    expect(git(root, ["show", `${preRevert}:a.txt`])).toBe("changed\n");
    expect((failed as Error).message).toContain(preRevert.slice(0, 12));
  });

  /** Runs the CLI in-process (runCli) and returns exit code, stdout and stderr. */
  async function ralph(root: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
    const r = await runRalphInProcess(root, args, { env });
    return { code: r.status, stderr: r.stderr, stdout: r.stdout };
  }

  it("refs/ralph/x existing as a ref: --loop x exits 2 naming the ref; other loops and `ralph loops` keep working", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    git(root, ["update-ref", "refs/ralph/x", "HEAD"]);
    const r = await ralph(root, ["checkpoint", "--loop", "x"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("refs/ralph/x");
    expect((await ralph(root, ["checkpoint", "--loop", "y"])).code).toBe(0);
    expect((await ralph(root, ["loops"])).code).toBe(0);
  });

  it.each([".git/ralph", ".git/ralph/locks"])("%s being a file exits 2 naming it", async (path) => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".git", "ralph"), { recursive: true });
    rmSync(join(root, path), { recursive: true, force: true });
    writeFileSync(join(root, path), "not a folder");
    const r = await ralph(root, ["checkpoint"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(".git/ralph");
  });

  it("a corrupt .git/index exits 2 with the way to rebuild it", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    writeFileSync(join(root, ".git", "index"), "DIRC garbage");
    const r = await ralph(root, ["checkpoint"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("git reset");
  });

  it("a loop ref holding garbage: `ralph loops` lists the others, a checkpoint on it exits 2 naming it", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect((await ralph(root, ["checkpoint", "--loop", "good"])).code).toBe(0);
    mkdirSync(join(root, ".git", "refs", "ralph", "bad"), { recursive: true });
    writeFileSync(join(root, ".git", "refs", "ralph", "bad", "head"), "this is not an oid\n");
    const loops = await ralph(root, ["loops", "--json"]);
    expect(loops.code).toBe(0);
    expect(loops.stdout).toContain("good");
    const r = await ralph(root, ["checkpoint", "--loop", "bad"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("refs/ralph/bad/head");
  });

  it("a head ref at a missing object exits 2 naming the ref and the fix; other loops keep working", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".git", "refs", "ralph", "gone"), { recursive: true });
    writeFileSync(join(root, ".git", "refs", "ralph", "gone", "head"), `${"ab".repeat(20)}\n`);
    const r = await ralph(root, ["checkpoint", "--loop", "gone"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("refs/ralph/gone/head");
    expect(r.stderr).toContain("git update-ref -d");
    expect((await ralph(root, ["checkpoint", "--loop", "other"])).code).toBe(0);
  });

  it("a missing tree object exits 2 naming the folder", async () => {
    const root = makeRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" });
    const store = CheckpointStore.open(root);
    const first = checkpoint(store);
    writeFileSync(join(root, "sub", "b.txt"), "changed\n");
    checkpoint(store);
    const subTree = git(root, ["rev-parse", `${first.treeOid}:sub`]).trim();
    rmSync(join(root, ".git", "objects", subTree.slice(0, 2), subTree.slice(2)), { force: true });
    git(root, ["update-ref", "-d", "HEAD"]); // the user's commit named the same tree
    const r = await ralph(root, ["diff", first.oid, "@head", "--loop", "hz"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"sub"');
  });

  it("a lock held by a process on another host is never taken over; the message says how to clear it", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".git", "ralph", "locks"), { recursive: true });
    const lock = join(root, ".git", "ralph", "locks", "checkpoint.lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "another-host.invalid", start: null, token: "far", takenAtMs: Date.now() - 3_600_000 }));
    const r = await ralph(root, ["checkpoint"], { RALPH_LOCK_TIMEOUT_MS: "200" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("another-host.invalid");
    expect(r.stderr).toContain(`delete ${lock}`);
    expect(existsSync(lock)).toBe(true);
  });
});

describe("durability", () => {
  it("objects are fsynced before the head ref is renamed into place, and the ref's folder after", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    writeFileSync(join(root, "new.txt"), "new\n");
    const trace = join(makeTempDir("ralph-hz-strace-"), "trace");
    const r = spawnSync("strace", ["-f", "-qq", "-o", trace, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", process.execPath, cliPathForTests(), "checkpoint", "--loop", "durable"], {
      cwd: root,
      env: ralphEnv,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(trace, "utf8").split("\n");
    const renameHead = lines.findIndex((l) => /rename.*refs\/ralph\/durable\/head\.lock.*refs\/ralph\/durable\/head"/.test(l));
    expect(renameHead).toBeGreaterThan(0);
    const fsyncs = lines.map((l, i) => (/fsync\(/.test(l) ? i : -1)).filter((i) => i >= 0);
    expect(fsyncs.filter((i) => i < renameHead).length).toBeGreaterThanOrEqual(3); // blob, tree, commit (+ the ref value)
    expect(fsyncs.some((i) => i > renameHead)).toBe(true); // the ref's folder
  });
});
