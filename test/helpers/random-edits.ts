/**
 * Seeded random edits of a work tree for the watcher's differential tests
 * (test/store/watcher-differential.test.ts in-process, test/daemon/watcher-differential.test.ts
 * through the warm process): creates in new nested folders, rewrites,
 * same-size rewrites, renames of files and folders, deletes of files and
 * whole folders, chmod, symlinks created and retargeted, ignored files,
 * .gitignore edits, git add and commits.
 */
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { git, writeFiles } from "./git.js";

/** The files and folders under `root` (not .git), '/'-separated. */
export function listTree(root: string, rel = ""): { files: string[]; links: string[]; dirs: string[] } {
  const out = { files: [] as string[], links: [] as string[], dirs: [] as string[] };
  for (const d of readdirSync(rel === "" ? root : join(root, rel), { withFileTypes: true })) {
    if (d.name === ".git" || d.name === ".aiwg") continue;
    const path = rel === "" ? d.name : `${rel}/${d.name}`;
    if (d.isDirectory()) {
      out.dirs.push(path);
      const sub = listTree(root, path);
      out.files.push(...sub.files);
      out.links.push(...sub.links);
      out.dirs.push(...sub.dirs);
    } else if (d.isSymbolicLink()) out.links.push(path);
    else out.files.push(path);
  }
  return out;
}

/** One random edit; returns what it did (for the failure message). */
export function randomEdit(root: string, rand: () => number, step: number): string {
  const pick = <T>(list: T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(rand() * list.length)]);
  const { files, links, dirs } = listTree(root);
  const file = pick(files.filter((f) => !f.endsWith(".gitignore")));
  const dir = pick(dirs);
  const r = rand();
  const abs = (p: string): string => join(root, p);
  if (r < 0.16) {
    const path = `${dir ?? "top"}/n${step}/deep${step % 3}/f${step}.txt`;
    writeFiles(root, { [path]: `new ${step}\n` });
    return `create ${path} (new nested folders)`;
  }
  if (r < 0.28 && file) {
    writeFileSync(abs(file), `rewritten at ${step} ${"x".repeat(step % 7)}\n`);
    return `rewrite ${file}`;
  }
  if (r < 0.34 && file) {
    writeFileSync(abs(file), "same size?\n");
    writeFileSync(abs(file), "SAME SIZE?\n");
    return `same-size rewrite ${file}`;
  }
  if (r < 0.42 && file) {
    const to = `${dirname(file) === "." ? "" : `${dirname(file)}/`}moved${step}.txt`;
    renameSync(abs(file), abs(to));
    return `rename ${file} -> ${to}`;
  }
  if (r < 0.48 && dir && !dir.includes("/")) {
    renameSync(abs(dir), abs(`${dir}-r${step}`));
    return `rename folder ${dir}`;
  }
  if (r < 0.56 && file) {
    rmSync(abs(file));
    return `delete ${file}`;
  }
  if (r < 0.61 && dir) {
    rmSync(abs(dir), { recursive: true });
    return `delete folder ${dir}`;
  }
  if (r < 0.69 && file) {
    chmodSync(abs(file), rand() < 0.5 ? 0o755 : 0o644);
    return `chmod ${file}`;
  }
  if (r < 0.75) {
    const link = `${dir ?? "."}/link${step}`;
    rmSync(abs(link), { force: true });
    symlinkSync(file ?? "nowhere", abs(link));
    return `symlink ${link} -> ${file}`;
  }
  if (r < 0.8 && dir) {
    // A symlink retargeted: same path, new content.
    const link = pick(links);
    if (link) {
      rmSync(abs(link));
      symlinkSync(`elsewhere${step}`, abs(link));
      return `retarget ${link}`;
    }
  }
  if (r < 0.86) {
    const path = pick([`${dir ?? "top"}/debug${step}.log`, `build/out${step}.js`, `${dir ?? "top"}/build/x${step}.js`]) as string;
    writeFiles(root, { [path]: `ignored ${step}\n` });
    return `ignored file ${path}`;
  }
  if (r < 0.9) {
    const target = pick([".gitignore", `${dir ?? "top"}/.gitignore`]) as string;
    mkdirSync(dirname(abs(target)), { recursive: true });
    writeFileSync(abs(target), rand() < 0.5 ? "*.log\nbuild/\n" : "*.log\nbuild/\n*.tmp\nmoved*\n");
    return `edit ${target}`;
  }
  if (r < 0.95) {
    git(root, ["add", "-A"]);
    return "git add -A";
  }
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "--allow-empty", "-m", `step ${step}`]);
  return "git commit";
}
