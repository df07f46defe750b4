/**
 * Real file-system limits for tests that can have them: a small tmpfs
 * (ENOSPC, and another file system for EXDEV), the immutable attribute
 * (EPERM even for root, chattr(1)), and a read-only bind mount (EROFS).
 * Each helper says whether the machine allowed it (mounting needs root or
 * CAP_SYS_ADMIN; `chattr +i` needs CAP_LINUX_IMMUTABLE and an ext2/3/4,
 * xfs or btrfs folder), so a test runs the real case where it can and its
 * synthetic injection otherwise, never asserting nothing.
 * `RALPH_TEST_UNPRIVILEGED=1` makes every helper here say no, to run the
 * synthetic branches on a machine that allows the real ones.
 */
import { spawnSync } from "node:child_process";
import { rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";

const mounted: string[] = [];

/** True when the tests are told to act as if this machine allowed no mount, chattr or uid switch. */
export const unprivileged = process.env.RALPH_TEST_UNPRIVILEGED === "1";
const immutable: string[] = [];

afterEach(() => {
  while (immutable.length > 0) spawnSync("chattr", ["-i", immutable.pop() as string]);
  while (mounted.length > 0) spawnSync("umount", ["-l", mounted.pop() as string]);
});

/** Mounts a tmpfs of `sizeBytes` on the (existing, empty) folder `dir`; false when this machine does not allow it. Unmounted after the test. */
export function tryMountTmpfs(dir: string, sizeBytes: number): boolean {
  if (unprivileged) return false;
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeBytes}`, "tmpfs", dir], { encoding: "utf8" });
  if (r.error || r.status !== 0) return false;
  mounted.push(dir);
  return true;
}

/** Bind-mounts `dir` on itself read-only (writes in it fail with EROFS); false when not allowed. Unmounted after the test. */
export function tryReadOnlyBind(dir: string): boolean {
  if (unprivileged) return false;
  const bind = spawnSync("mount", ["--bind", dir, dir], { encoding: "utf8" });
  if (bind.error || bind.status !== 0) return false;
  mounted.push(dir);
  const ro = spawnSync("mount", ["-o", "remount,ro,bind", dir], { encoding: "utf8" });
  return !ro.error && ro.status === 0;
}

/** Unmounts `dir` now (a test that frees the space or the mount itself). */
export function unmount(dir: string): void {
  spawnSync("umount", ["-l", dir]);
  const i = mounted.lastIndexOf(dir);
  if (i >= 0) mounted.splice(i, 1);
}

/** Sets the immutable attribute on `path` (no entry can be created, renamed or removed in a folder, even by root); false when not allowed. Cleared after the test. */
export function trySetImmutable(path: string): boolean {
  if (unprivileged) return false;
  const probe = join(path, ".ralph-immutable-probe");
  const r = spawnSync("chattr", ["+i", path], { encoding: "utf8" });
  if (r.error || r.status !== 0) return false;
  immutable.push(path);
  try {
    writeFileSync(probe, "x");
    rmSync(probe, { force: true });
    clearImmutable(path);
    return false; // the attribute does not stop this process (no folder semantics here)
  } catch {
    return true;
  }
}

/** Clears the immutable attribute of `path` now. */
export function clearImmutable(path: string): void {
  spawnSync("chattr", ["-i", path]);
  const i = immutable.lastIndexOf(path);
  if (i >= 0) immutable.splice(i, 1);
}

/**
 * Fills the file system holding `dir` with a file `dir/name` until writing
 * fails (ENOSPC), then gives `reserveBytes` back (room for a lock and a few
 * small files, so an operation fails part-way rather than at its start);
 * returns the filler's path.
 */
export function fillDisk(dir: string, reserveBytes = 0, name = "filler"): string {
  const file = join(dir, name);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  writeFileSync(file, "");
  for (let i = 0; i < 1 << 16; i++) {
    try {
      writeFileSync(file, chunk, { flag: "a" });
    } catch {
      break;
    }
  }
  // The last partial chunk may fit: fill byte-sized gaps too.
  for (const size of [4096, 512, 1]) {
    for (let i = 0; i < 1 << 12; i++) {
      try {
        writeFileSync(file, Buffer.alloc(size, 0x61), { flag: "a" });
      } catch {
        break;
      }
    }
  }
  if (reserveBytes > 0) truncateSync(file, Math.max(0, statSync(file).size - reserveBytes));
  return file;
}
