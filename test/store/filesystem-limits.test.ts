/**
 * The store against real file-system limits (issue 11): a restore into a
 * folder on another file system (EXDEV), no space left (ENOSPC) on a
 * checkpoint and mid-revert, and a folder a revert may not write (EACCES,
 * EPERM, EROFS). Where this machine allows it (root, `mount`, `chattr`) the
 * real limit is set up: a small tmpfs, the immutable attribute, a read-only
 * bind mount, or ralph run as an unprivileged uid. Where it does not, the
 * same test injects the same error through the restore's file-system seam
 * ({@link restoreFileSystem}) and checks the same outcome, so no test here
 * passes by asserting nothing. Each failure must exit 2 with one line
 * naming the path and the fix, lose no stored data, keep `git fsck` clean,
 * and let the loop go on once the limit is lifted. Commands run in-process
 * (runCli), except a revert killed mid-way and a revert as another uid,
 * which run the built binary.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { isRalphError, toRalphError } from "../../src/errors.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { restoreFileSystem } from "../../src/store/restore.js";
import { cliPathForTests, ralphEnv, runRalph, runRalphInProcess, type RunOptions, type RunResult } from "../helpers/cli.js";
import { fsck, git, gitWorkTreeTree, makeRepo, makeTempDir } from "../helpers/git.js";
import { clearImmutable, fillDisk, tryMountTmpfs, tryReadOnlyBind, trySetImmutable, unmount, unprivileged } from "../helpers/mounts.js";

const loop = parseLoopId("fs");
const realRename = restoreFileSystem.rename;
afterEach(() => {
  restoreFileSystem.rename = realRename;
});

/** Every path below `dir` (relative), `.git` folders included only when `withGit`. */
function walk(dir: string, withGit = false, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    if (name === ".git" && !withGit) continue;
    const path = rel === "" ? name : `${rel}/${name}`;
    out.push(path);
    if (lstatSync(join(dir, path)).isDirectory()) out.push(...walk(dir, withGit, path));
  }
  return out;
}

const temporaries = (root: string): string[] => walk(root).filter((p) => p.split("/").pop()?.startsWith(".ralph-tmp-"));

/** The one line ralph printed on stderr (asserts there is exactly one). */
function oneLine(stderr: string): string {
  const lines = stderr.split("\n").filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

/**
 * A fresh repository in `repo/` of a tmpfs of `sizeBytes` (null when this
 * machine cannot mount one); the disk is filled from beside it, outside the
 * work tree, so the filler is nothing a checkpoint or revert sees.
 */
function repoOnTmpfs(sizeBytes: number): { mount: string; repo: string } | null {
  const mount = makeTempDir("ralph-fs-tmpfs-");
  if (!tryMountTmpfs(mount, sizeBytes)) return null;
  const repo = join(mount, "repo");
  mkdirSync(repo);
  git(repo, ["init", "-q", "-b", "main", "--template="]); // no sample hooks: the space is for the test
  git(repo, ["config", "core.autocrlf", "false"]);
  return { mount, repo };
}

describe("a restore into a folder on another file system (EXDEV)", () => {
  it("writes each file atomically beside it, learns the device once, and leaves no temporary anywhere", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const mnt = join(root, "mnt");
    mkdirSync(mnt);
    const real = tryMountTmpfs(mnt, 4 << 20);
    const exdev: string[] = [];
    restoreFileSystem.rename = (from, to) => {
      const source = from.toString();
      const crosses = source.startsWith(join(root, ".git")) && to.toString().startsWith(`${mnt}/`);
      try {
        // The real mount fails the rename itself; without one this is the synthetic EXDEV the kernel would give.
        if (!real && crosses) throw Object.assign(new Error(`EXDEV: cross-device link not permitted, rename '${source}'`), { code: "EXDEV" });
        realRename(from, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EXDEV") exdev.push(to.toString());
        throw error;
      }
    };
    try {
      for (let i = 0; i < 5; i++) writeFileSync(join(mnt, `f${i}.txt`), `target ${i}\n`);
      mkdirSync(join(mnt, "sub"));
      writeFileSync(join(mnt, "sub", "deep.txt"), "deep target\n");
      writeFileSync(join(root, "a.txt"), "a target\n");
      const store = CheckpointStore.open(root);
      const target = store.checkpoint({ loop, kind: "manual" });
      for (let i = 0; i < 5; i++) writeFileSync(join(mnt, `f${i}.txt`), `changed ${i}\n`);
      writeFileSync(join(mnt, "sub", "deep.txt"), "deep changed\n");
      writeFileSync(join(root, "a.txt"), "a changed\n");
      store.checkpoint({ loop, kind: "manual" });
      const result = store.revert({ oid: target.oid, treeOid: target.treeOid, label: "target" }, { loop });
      expect(result.written.sort()).toEqual(["a.txt", "mnt/f0.txt", "mnt/f1.txt", "mnt/f2.txt", "mnt/f3.txt", "mnt/f4.txt", "mnt/sub/deep.txt"]);
      for (let i = 0; i < 5; i++) expect(readFileSync(join(mnt, `f${i}.txt`), "utf8")).toBe(`target ${i}\n`);
      expect(readFileSync(join(mnt, "sub", "deep.txt"), "utf8")).toBe("deep target\n");
      expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a target\n");
      expect(exdev, "the device is learned from the first EXDEV: later files there are written beside their target at once").toHaveLength(1);
      expect(temporaries(root)).toEqual([]);
      expect(readdirSync(join(root, ".git", "ralph", "tmp"))).toEqual([]);
      expect(store.readCheckpoint(result.restored as string).treeOid).toBe(gitWorkTreeTree(root));
      expect(result.restored === null ? "" : git(root, ["rev-parse", `${result.restored}^{tree}`]).trim()).toBe(target.treeOid);
      fsck(root);
    } finally {
      if (real) unmount(mnt);
    }
  });

  it("a killed cross-device restore's temporaries are never stored, and the next ralph call removes them; a user's look-alike file is kept", async () => {
    const root = makeRepo({ "a.txt": "a\n", "mnt/x.txt": "x\n" });
    const store = CheckpointStore.open(root);
    store.checkpoint({ loop, kind: "manual" });
    // What a SIGKILL between writing a temporary beside its target and renaming it leaves: the marker
    // under .git/ralph/tmp naming it, and the temporary itself (a name a user could pick, too).
    const tmpDir = join(root, ".git", "ralph", "tmp");
    mkdirSync(tmpDir, { recursive: true });
    const left = join(root, "mnt", ".ralph-tmp-0123456789ab");
    writeFileSync(left, "half a restored file");
    writeFileSync(join(tmpDir, ".ralph-tmp-0123456789ab.pending"), left);
    const lookAlike = join(root, "mnt", ".ralph-tmp-ba9876543210");
    writeFileSync(lookAlike, "the user's own file\n");
    // A marker that does not name its own temporary is never followed.
    writeFileSync(join(tmpDir, ".ralph-tmp-aaaaaaaaaaaa.pending"), join(root, "a.txt"));

    // A snapshot without the lock (ralph diff/check) leaves the marked temporary out, as if gone.
    const unlocked = store.snapshot();
    expect([...unlocked.entries.keys()].sort()).toEqual(["a.txt", "mnt/.ralph-tmp-ba9876543210", "mnt/x.txt"]);

    const r = await runRalphInProcess(root, ["checkpoint", "--loop", "fs"]);
    expect(r.status, r.stderr).toBe(0);
    const stored = git(root, ["ls-tree", "-r", "--name-only", r.stdout.trim()]).trim().split("\n");
    expect(stored).toEqual(["a.txt", "mnt/.ralph-tmp-ba9876543210", "mnt/x.txt"]);
    expect(existsSync(left)).toBe(false);
    expect(readFileSync(lookAlike, "utf8")).toBe("the user's own file\n");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a\n");
    expect(readdirSync(tmpDir)).toEqual([]);
    expect(git(root, ["status", "--porcelain", "-uall"])).toBe("?? mnt/.ralph-tmp-ba9876543210\n");
  });

  it("SIGKILLed at every rename of a revert into another file system: no temporary is ever stored or left after the next call", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const mnt = join(root, "mnt");
    mkdirSync(mnt);
    const real = tryMountTmpfs(mnt, 4 << 20);
    const hasStrace = spawnSync("strace", ["-V"]).status === 0;
    try {
      for (let i = 0; i < 4; i++) writeFileSync(join(mnt, `f${i}.txt`), `target ${i}\n`);
      const first = await runRalphInProcess(root, ["checkpoint", "--loop", "fs"]);
      expect(first.status, first.stderr).toBe(0);
      const target = first.stdout.trim();
      let kills = 0;
      for (let k = 1; k < 40; k++) {
        for (let i = 0; i < 4; i++) writeFileSync(join(mnt, `f${i}.txt`), `changed ${k} ${i}\n`);
        expect((await runRalphInProcess(root, ["checkpoint", "--loop", "fs"])).status).toBe(0);
        let status: number | null;
        if (hasStrace) {
          // Kill at the k-th rename system call of the revert (lock, refs, stat cache, temporaries).
          const r = spawnSync(
            "strace",
            [
              "-f",
              "-qq",
              "-o",
              "/dev/null",
              "-e",
              "trace=rename,renameat,renameat2",
              "-e",
              `inject=rename,renameat,renameat2:signal=SIGKILL:when=${k}`,
              process.execPath,
              cliPathForTests(),
              "revert",
              target,
              "--loop",
              "fs",
              "--force",
            ],
            { cwd: root, env: ralphEnv, encoding: "utf8" },
          );
          status = r.status;
        } else {
          // No strace: kill the revert at a point in time instead.
          const r = runRalph(root, ["revert", target, "--loop", "fs", "--force"], { timeoutMs: 80 + k * 40 });
          status = r.status;
        }
        const next = await runRalphInProcess(root, ["checkpoint", "--loop", "fs"]);
        expect(next.status, next.stderr).toBe(0);
        const stored = git(root, ["ls-tree", "-r", "--name-only", "refs/ralph/fs/head"]);
        expect(stored, `kill at rename ${k}`).not.toContain(".ralph-tmp-");
        expect(temporaries(root), `kill at rename ${k}`).toEqual([]);
        fsck(root);
        if (status === 0) break;
        kills++;
      }
      expect(kills).toBeGreaterThan(real ? 3 : 0);
    } finally {
      if (real) unmount(mnt);
    }
  });
});

describe("no space left on the device (ENOSPC)", () => {
  it("a checkpoint on a full disk exits 2 naming the path and the fix; nothing stored is lost, and the loop goes on once space is freed", async () => {
    const root = repoOnTmpfs(2 << 20);
    const synthetic = root === null;
    const repo = root?.repo ?? makeRepo({}, { commit: false });
    writeFileSync(join(repo, "a.txt"), "a\n");
    const first = await runRalphInProcess(repo, ["checkpoint", "--loop", "fs"]);
    expect(first.status, first.stderr).toBe(0);
    writeFileSync(join(repo, "big.bin"), randomBytes(300_000));
    let filler: string | null = null;
    let failed: RunResult;
    if (synthetic) {
      // No tmpfs here: the objects folder's device is full as far as ralph can tell (a read-only bind or
      // chattr need root too), so ENOSPC is raised where the object is written, in process.
      const store = CheckpointStore.open(repo);
      const write = store.odb.write.bind(store.odb);
      store.odb.write = () => {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", path: join(repo, ".git", "objects", "ab", "tmp_obj_x") });
      };
      let error: unknown;
      try {
        store.checkpoint({ loop, kind: "manual" });
      } catch (e) {
        error = e;
      }
      store.odb.write = write;
      expect(isRalphError(error)).toBe(false); // a system error: the CLI maps it
      const mapped = toRalphError(error);
      failed = { status: mapped.exitCode, signal: null, stdout: "", stderr: `ralph: ${mapped.message}\n`, durationMs: 0 };
    } else {
      filler = fillDisk((root as { mount: string }).mount);
      failed = await runRalphInProcess(repo, ["checkpoint", "--loop", "fs"]);
    }
    expect(failed.status, failed.stderr).toBe(2);
    const line = oneLine(failed.stderr);
    expect(line).toMatch(/no space left on the device holding \//);
    expect(line).toContain("free some space and retry");
    expect(git(repo, ["rev-parse", "refs/ralph/fs/head"]).trim()).toBe(first.stdout.trim());
    if (filler !== null) rmSync(filler);
    fsck(repo);
    const again = await runRalphInProcess(repo, ["checkpoint", "--loop", "fs"]);
    expect(again.status, again.stderr).toBe(0);
    expect(git(repo, ["rev-parse", `${again.stdout.trim()}^`]).trim()).toBe(first.stdout.trim());
    expect(git(repo, ["cat-file", "-s", `${again.stdout.trim()}:big.bin`]).trim()).toBe("300000");
    fsck(repo);
    if (root !== null) unmount(root.mount);
  });

  it("a revert that runs out of space mid-way exits 2 naming the path, the fix and the pre-revert checkpoint; once space is freed it completes", async () => {
    const root = repoOnTmpfs(2 << 20);
    const repo = root?.repo ?? makeRepo({}, { commit: false });
    writeFileSync(join(repo, "a.txt"), "a\n");
    writeFileSync(join(repo, "big.bin"), randomBytes(300_000));
    const target = await runRalphInProcess(repo, ["checkpoint", "--loop", "fs"]);
    expect(target.status, target.stderr).toBe(0);
    rmSync(join(repo, "big.bin"));
    writeFileSync(join(repo, "a.txt"), "after\n");
    expect((await runRalphInProcess(repo, ["checkpoint", "--loop", "fs"])).status).toBe(0);
    let filler: string | null = null;
    let line: string;
    let preRevert: string;
    if (root !== null) {
      filler = fillDisk(root.mount, 96 * 1024); // room for the lock, the pre-revert bookkeeping and a.txt, not for big.bin
      const failed = await runRalphInProcess(repo, ["revert", target.stdout.trim(), "--loop", "fs"]);
      expect(failed.status, failed.stderr).toBe(2);
      line = oneLine(failed.stderr);
      preRevert = /checkpoint ([0-9a-f]{12}) holds/.exec(line)?.[1] ?? "";
    } else {
      // No tmpfs: the rename of the restored file into place fails as a full disk makes it.
      restoreFileSystem.rename = (from) => {
        throw Object.assign(new Error("ENOSPC: no space left on device, rename"), { code: "ENOSPC", path: from.toString() });
      };
      const store = CheckpointStore.open(repo);
      let error: unknown;
      try {
        store.revert({ oid: target.stdout.trim(), treeOid: git(repo, ["rev-parse", `${target.stdout.trim()}^{tree}`]).trim(), label: "target" }, { loop });
      } catch (e) {
        error = e;
      }
      restoreFileSystem.rename = realRename;
      expect(isRalphError(error, "E_FILESYSTEM")).toBe(true);
      expect((error as { exitCode: number }).exitCode).toBe(2);
      line = (error as Error).message;
      expect(line).not.toContain("\n");
      preRevert = ((error as { data: { preRevert: string } }).data.preRevert ?? "").slice(0, 12);
    }
    expect(line).toMatch(/no space left on the device holding \//);
    expect(line).toContain("free some space and retry");
    expect(preRevert).toMatch(/^[0-9a-f]{12}$/);
    expect(git(repo, ["show", `${preRevert}:a.txt`])).toBe("after\n");
    if (filler !== null) rmSync(filler);
    fsck(repo);
    const again = await runRalphInProcess(repo, ["revert", target.stdout.trim(), "--loop", "fs"]);
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(repo, "big.bin")).length).toBe(300_000);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("a\n");
    expect(temporaries(repo)).toEqual([]);
    fsck(repo);
    if (root !== null) unmount(root.mount);
  });
});

/** How a folder is made unwritable for ralph on this machine, real where it can be. */
type Lock = { kind: string; run: RunOptions; lift: () => void } | null;

function lockFolder(method: "uid" | "immutable" | "read-only bind", root: string, dir: string): Lock {
  if (method === "uid") {
    if (unprivileged) return null;
    if (process.getuid?.() !== 0) {
      chmodSync(dir, 0o555); // not root: the mode bits stop this very user
      return { kind: "EACCES", run: {}, lift: () => chmodSync(dir, 0o755) };
    }
    const nobody = spawnSync("true", [], { uid: 65534, gid: 65534 });
    if (nobody.error || nobody.status !== 0) return null;
    chmodSync(root, 0o755);
    const chownTree = (p: string): void => {
      chownSync(p, 65534, 65534);
      if (lstatSync(p).isDirectory()) for (const name of readdirSync(p)) chownTree(join(p, name));
    };
    chownTree(root);
    chmodSync(dir, 0o555);
    return { kind: "EACCES", run: { uid: 65534, gid: 65534 }, lift: () => chmodSync(dir, 0o755) };
  }
  if (method === "immutable") return trySetImmutable(dir) ? { kind: "EPERM", run: {}, lift: () => clearImmutable(dir) } : null;
  return tryReadOnlyBind(dir) ? { kind: "EROFS", run: {}, lift: () => unmount(dir) } : null;
}

describe("a folder a revert may not write", () => {
  it.each(["uid", "immutable", "read-only bind"] as const)("(%s) exits 2 naming the folder's path, the fix and the pre-revert checkpoint; once writable the revert completes", async (method) => {
    const root = makeRepo({ "a.txt": "a\n", "ro/x.txt": "x\n" });
    const first = await runRalphInProcess(root, ["checkpoint", "--loop", "fs"]);
    expect(first.status, first.stderr).toBe(0);
    writeFileSync(join(root, "ro", "x.txt"), "changed\n");
    writeFileSync(join(root, "a.txt"), "changed\n");
    const lock = lockFolder(method, root, join(root, "ro"));
    let line: string;
    let code: string;
    const as = lock?.run ?? {};
    try {
      if (lock !== null) {
        const failed = runRalph(root, ["revert", first.stdout.trim(), "--loop", "fs", "--json"], as);
        expect(failed.status, failed.stderr).toBe(2);
        const error = JSON.parse(failed.stdout || failed.stderr) as { error: { code: string; message: string; data: { errno: string; path: string } } };
        expect(error.error.code).toBe("E_FILESYSTEM");
        code = error.error.data.errno;
        expect(code).toBe(lock.kind);
        expect(error.error.data.path).toContain(join(root, "ro"));
        const plain = runRalph(root, ["revert", first.stdout.trim(), "--loop", "fs"], as);
        expect(plain.status).toBe(2);
        line = oneLine(plain.stderr);
      } else {
        // This machine allows no real lock of this kind: the rename into the folder fails as it would.
        const errno = method === "uid" ? "EACCES" : method === "immutable" ? "EPERM" : "EROFS";
        restoreFileSystem.rename = (from, to) => {
          if (to.toString().startsWith(join(root, "ro"))) throw Object.assign(new Error(`${errno}: rename`), { code: errno, path: to.toString() });
          realRename(from, to);
        };
        let error: unknown;
        try {
          CheckpointStore.open(root).revert({ oid: first.stdout.trim(), treeOid: git(root, ["rev-parse", `${first.stdout.trim()}^{tree}`]).trim(), label: "target" }, { loop });
        } catch (e) {
          error = e;
        }
        restoreFileSystem.rename = realRename;
        expect(isRalphError(error, "E_FILESYSTEM")).toBe(true);
        expect((error as { exitCode: number }).exitCode).toBe(2);
        code = (error as { data: { errno: string } }).data.errno;
        expect(code).toBe(errno);
        line = (error as Error).message;
        expect(line).not.toContain("\n");
      }
      expect(line).toContain(join(root, "ro"));
      expect(line).toMatch(/fix its permissions|read-only file system; remount it writable/);
      const preRevert = /checkpoint ([0-9a-f]{12}) holds/.exec(line)?.[1] as string;
      expect(git(root, ["-c", "safe.directory=*", "show", `${preRevert}:ro/x.txt`])).toBe("changed\n");
    } finally {
      lock?.lift();
    }
    const again = runRalph(root, ["revert", first.stdout.trim(), "--loop", "fs"], as);
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(root, "ro", "x.txt"), "utf8")).toBe("x\n");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a\n");
    expect(temporaries(root)).toEqual([]);
    git(root, ["-c", "safe.directory=*", "fsck", "--full", "--strict", "--no-dangling"]);
  });
});
