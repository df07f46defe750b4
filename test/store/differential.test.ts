/**
 * The store's contract with git as one property (issue 11): the paths,
 * modes and bytes of a checkpoint equal what `git add -A` with a private
 * index (a copy of the user's) and filters off would store for the same
 * work tree, minus the files over the size cap that ralph skips and
 * reports. Trees are generated with the hazards that broke it before:
 * names that are not valid UTF-8, NFC and NFD spellings, case variants,
 * spaces, newlines, leading dashes, `#` and `!`; nested `.gitignore` files
 * with negations, `**`, trailing spaces, escaped `#`/`!`; `info/exclude`;
 * symlinks to files, folders, outside the repository and nowhere; folders
 * replaced by symlinks and back; nested repositories and submodules (a
 * `gitdir:` file into `.git/modules`), tracked (gitlinks) or not, at names
 * that may not be valid UTF-8, with commits inside that move their HEAD; exec bits; empty folders; files over the cap. After every step the
 * checkpoint's tree oid must equal git's `write-tree`; after every restore
 * the work tree, as git reads it, must equal the target (bytes and modes)
 * except where the restore said it left a path alone, and the restored
 * checkpoint must equal git's view minus what was ignored before.
 *
 * The suite runs a short fixed-seed run. A longer one:
 * `RALPH_DIFF_ROUNDS=200 RALPH_DIFF_SEED=7 npx vitest run test/store/differential.test.ts`
 * (RALPH_DIFF_STEPS sets the steps per round, default 14).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { encodePath } from "../../src/store/path-bytes.js";
import { seededRandom } from "../helpers/cli.js";
import { fsck, git, gitEnv, makeRepo, makeTempDir, privateIndexCopy } from "../helpers/git.js";

const SEED = Number(process.env.RALPH_DIFF_SEED ?? 11);
const ROUNDS = Number(process.env.RALPH_DIFF_ROUNDS ?? 3);
const STEPS = Number(process.env.RALPH_DIFF_STEPS ?? 14);
const CAP = 3000;
const loop = parseLoopId("diff");

/** Name pieces as bytes: every hazard of issue 11. */
const NAMES: Buffer[] = [
  "a",
  "B",
  "b",
  "src",
  "deep",
  "build",
  "Build",
  "x.log",
  "X.LOG",
  "keep.log",
  "with space",
  "trail ",
  "-dash",
  "new\nline",
  "#hash",
  "!bang",
  "caf\u00e9",
  "cafe\u0301",
  "\u00fcber",
].map((s) => Buffer.from(s, "utf8"));
NAMES.push(Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from([0xff, 0x2e, 0x74, 0x78, 0x74])); // Latin-1 "café", a lone 0xFF

/** Folders that become nested repositories or submodules: ASCII, nested, Latin-1 and a lone 0xFF byte. */
const NESTED: Buffer[] = [Buffer.from("nested"), Buffer.from("src/sub"), Buffer.from("mod"), Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from([0x73, 0x72, 0x63, 0x2f, 0xff, 0x6d])];

/** Runs git in the folder at the path bytes `dir` (argv and cwd cannot carry bytes that are not UTF-8; bash reads them from stdin). */
function gitIn(dir: Buffer, args: string[]): void {
  execFileSync("bash", ["-c", 'IFS= read -r -d "" p; cd -- "$p" && exec git "$@"', "bash", ...args], { input: Buffer.concat([dir, Buffer.of(0)]), env: gitEnv, stdio: ["pipe", "pipe", "pipe"] });
}

const PATTERNS = ["*.log", "!keep.log", "build/", "/Build", "**/deep/*.tmp", "deep/**/x*", "trail\\ ", "trail ", "\\#hash", "\\!bang", "#comment", "src/*.bin", "-dash", "caf*", "*.LOG", "a/"];

/** A work tree path as bytes joined under the root, for fs calls. */
function abs(root: string, rel: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${root}/`), rel]);
}

function lstatOrNull(path: Buffer): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Every path below `root` (bytes, relative), skipping `.git` folders: files, symlinks and folders. */
function listAll(root: string): { path: Buffer; kind: "f" | "d" | "l" }[] {
  const out: { path: Buffer; kind: "f" | "d" | "l" }[] = [];
  const walk = (rel: Buffer | null): void => {
    const dir = rel === null ? Buffer.from(root) : abs(root, rel);
    for (const d of readdirSync(dir, { withFileTypes: true, encoding: "buffer" })) {
      if (d.name.toString() === ".git") continue;
      const path = rel === null ? d.name : Buffer.concat([rel, Buffer.from("/"), d.name]);
      if (d.isSymbolicLink()) out.push({ path, kind: "l" });
      else if (d.isDirectory()) {
        out.push({ path, kind: "d" });
        if (!existsSync(abs(root, Buffer.concat([path, Buffer.from("/.git")])))) walk(path); // a nested repository is not entered
      } else if (d.isFile()) out.push({ path, kind: "f" });
    }
  };
  walk(null);
  return out;
}

function gitRaw(root: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: Buffer): Buffer {
  return execFileSync("git", args, { cwd: root, env: { ...gitEnv, ...env }, input, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 64 << 20 });
}

/**
 * git's tree for the work tree: the user's index copied to a private one,
 * `git add -A` with filters off, the given paths (bytes) removed, `write-tree`.
 */
function gitTree(root: string, remove: readonly Buffer[]): string {
  const env = { GIT_INDEX_FILE: privateIndexCopy(root) };
  gitRaw(root, ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "add", "-A"], env);
  if (remove.length > 0) gitRaw(root, ["update-index", "-z", "--force-remove", "--stdin"], env, Buffer.concat(remove.flatMap((p) => [p, Buffer.of(0)])));
  return gitRaw(root, ["write-tree"], env).toString().trim();
}

/** `git ls-tree -r -z` of a tree: path (latin1 string of the bytes, so any byte survives) -> "mode oid". */
function flatten(root: string, tree: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rec of gitRaw(root, ["ls-tree", "-r", "-z", "--full-tree", tree]).toString("latin1").split("\0")) {
    if (rec === "") continue;
    const tab = rec.indexOf("\t");
    const [mode, , oid] = rec.slice(0, tab).split(" ");
    out.set(rec.slice(tab + 1), `${mode} ${oid}`);
  }
  return out;
}

/** Paths git ignores in the work tree now, the outermost of each ignored folder (`--directory`), as latin1 strings. */
function ignoredNow(root: string): string[] {
  return gitRaw(root, ["ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory"])
    .toString("latin1")
    .split("\0")
    .filter(Boolean)
    .map((p) => (p.endsWith("/") ? p.slice(0, -1) : p));
}

/** Files over the cap in the work tree that git would see (not under a nested repository). */
function bigFiles(root: string): Buffer[] {
  return listAll(root)
    .filter((e) => e.kind === "f" && (lstatOrNull(abs(root, e.path))?.size ?? 0) > CAP)
    .map((e) => e.path);
}

const latin = (b: Buffer): string => b.toString("latin1");
const isUnder = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);

class World {
  readonly root: string;
  readonly outside: string;
  private readonly random: () => number;
  /** Submodule git dirs made so far (`.git/modules/m<N>`). */
  private modules = 0;
  constructor(seed: number) {
    this.random = seededRandom(seed);
    this.root = makeRepo({}, { commit: false });
    this.outside = makeTempDir("ralph-diff-outside-");
    writeFileSync(join(this.outside, "secret.txt"), "outside the repository\n");
    mkdirSync(join(this.outside, "dir"));
    writeFileSync(join(this.outside, "dir", "inner.txt"), "inner\n");
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  /** A relative path of 1-3 name pieces. */
  newPath(): Buffer {
    const depth = 1 + Math.floor(this.random() * 3);
    const parts: Buffer[] = [];
    for (let i = 0; i < depth; i++) parts.push(this.pick(NAMES));
    return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from("/"), p])));
  }
  existing(kind?: "f" | "d" | "l"): Buffer | null {
    const all = listAll(this.root).filter((e) => kind === undefined || e.kind === kind);
    return all.length === 0 ? null : this.pick(all).path;
  }
  /** Makes the folders above `rel` real folders (removing files or symlinks in the way). */
  prepare(rel: Buffer): void {
    const parts = latin(rel).split("/");
    let cur = "";
    for (let i = 0; i < parts.length - 1; i++) {
      cur = cur === "" ? (parts[i] as string) : `${cur}/${parts[i]}`;
      const p = abs(this.root, Buffer.from(cur, "latin1"));
      const st = lstatOrNull(p);
      if (st && !st.isDirectory()) unlinkSync(p);
      if (!st || !st.isDirectory()) mkdirSync(p);
    }
    const st = lstatOrNull(abs(this.root, rel));
    if (st) rmSync(abs(this.root, rel), { recursive: true, force: true });
  }
  content(): Buffer {
    const big = this.chance(0.08);
    const size = big ? CAP + 1 + Math.floor(this.random() * 500) : Math.floor(this.random() * 40);
    return Buffer.from(Array.from({ length: size }, () => 97 + Math.floor(this.random() * 26)));
  }
  step(): string {
    const r = this.random();
    const root = this.root;
    if (r < 0.3) {
      const rel = this.chance(0.5) ? (this.existing("f") ?? this.newPath()) : this.newPath();
      this.prepare(rel);
      writeFileSync(abs(root, rel), this.content());
      if (this.chance(0.2)) chmodSync(abs(root, rel), 0o755);
      return `write ${JSON.stringify(latin(rel))}`;
    }
    if (r < 0.38) {
      const rel = this.existing("f");
      if (rel) rmSync(abs(root, rel));
      return `delete ${rel ? JSON.stringify(latin(rel)) : "nothing"}`;
    }
    if (r < 0.44) {
      const rel = this.existing("f");
      if (rel) chmodSync(abs(root, rel), lstatSync(abs(root, rel)).mode & 0o100 ? 0o644 : 0o755);
      return `chmod ${rel ? JSON.stringify(latin(rel)) : "nothing"}`;
    }
    if (r < 0.52) {
      const rel = this.newPath();
      this.prepare(rel);
      const target = this.pick(["a", "../a", "src", join(this.outside, "secret.txt"), join(this.outside, "dir"), "missing/nowhere", "../../.."]);
      symlinkSync(target, abs(root, rel));
      return `symlink ${JSON.stringify(latin(rel))} -> ${target}`;
    }
    if (r < 0.58) {
      // A folder replaced by a symlink (to a folder inside or outside), or a symlink replaced by a folder with a file.
      const dir = this.existing("d");
      if (dir && this.chance(0.6)) {
        rmSync(abs(root, dir), { recursive: true, force: true });
        symlinkSync(this.chance(0.5) ? join(this.outside, "dir") : "..", abs(root, dir));
        return `folder ${JSON.stringify(latin(dir))} -> symlink`;
      }
      const link = this.existing("l");
      if (link) {
        unlinkSync(abs(root, link));
        mkdirSync(abs(root, link));
        writeFileSync(abs(root, Buffer.concat([link, Buffer.from("/inner.txt")])), "back to a folder\n");
        return `symlink ${JSON.stringify(latin(link))} -> folder`;
      }
      return "no folder or symlink";
    }
    if (r < 0.62) {
      const rel = this.newPath();
      this.prepare(rel);
      mkdirSync(abs(root, rel));
      return `empty folder ${JSON.stringify(latin(rel))}`;
    }
    if (r < 0.72) {
      const dir = this.chance(0.4) ? null : this.existing("d");
      const lines = Array.from({ length: 1 + Math.floor(this.random() * 4) }, () => this.pick(PATTERNS));
      const file = dir === null ? Buffer.from(".gitignore") : Buffer.concat([dir, Buffer.from("/.gitignore")]);
      writeFileSync(abs(root, file), `${lines.join("\n")}\n`);
      return `gitignore ${JSON.stringify(latin(file))}: ${JSON.stringify(lines)}`;
    }
    if (r < 0.76) {
      const lines = Array.from({ length: 1 + Math.floor(this.random() * 3) }, () => this.pick(PATTERNS));
      writeFileSync(join(root, ".git", "info", "exclude"), `${lines.join("\n")}\n`);
      return `info/exclude: ${JSON.stringify(lines)}`;
    }
    if (r < 0.82) {
      gitRaw(root, ["add", "-A"]);
      gitRaw(root, ["commit", "-q", "--allow-empty", "-m", "user commit"]);
      return "git add -A && git commit";
    }
    if (r < 0.86) {
      const rel = this.existing("f");
      if (rel) gitRaw(root, ["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", latin(rel)], {}); // -r: the index may hold a folder there
      return `git rm --cached ${rel ? JSON.stringify(latin(rel)) : "nothing"}`;
    }
    if (r < 0.92) {
      // A nested repository (its own .git folder), or a submodule's shape (a `gitdir:` file into .git/modules),
      // at a name that may not be valid UTF-8; tracked as a gitlink half the time.
      const rel = this.pick(NESTED);
      this.prepare(Buffer.concat([rel, Buffer.from("/x")]));
      const staging = makeTempDir("ralph-diff-nested-");
      git(staging, ["init", "-q", "-b", "main"]);
      writeFileSync(join(staging, "inside.txt"), this.content());
      git(staging, ["add", "-A"]);
      git(staging, ["commit", "-q", "-m", "nested"]);
      const dir = abs(root, rel);
      rmSync(dir, { recursive: true, force: true }); // prepare() left a folder there, maybe with files
      renameSync(staging, dir);
      let shape = "nested repository";
      if (this.chance(0.4)) {
        const moduleDir = join(root, ".git", "modules", `m${this.modules++}`);
        mkdirSync(join(root, ".git", "modules"), { recursive: true });
        renameSync(Buffer.concat([dir, Buffer.from("/.git")]), moduleDir);
        writeFileSync(Buffer.concat([dir, Buffer.from("/.git")]), `gitdir: ${moduleDir}\n`);
        shape = "submodule";
      }
      if (this.chance(0.5)) {
        gitRaw(root, ["add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"], {}, Buffer.concat([rel, Buffer.of(0)])); // -f: an ignored folder may be tracked too
        shape += " (tracked)";
      }
      return `${shape} ${JSON.stringify(latin(rel))}`;
    }
    if (r < 0.95) {
      // A commit inside a nested repository or submodule: its HEAD, and so its gitlink, moves.
      const repos = listAll(root).filter((e) => e.kind === "d" && existsSync(abs(root, Buffer.concat([e.path, Buffer.from("/.git")]))));
      if (repos.length === 0) return "no nested repository to commit in";
      const rel = this.pick(repos).path;
      const dir = abs(root, rel);
      writeFileSync(Buffer.concat([dir, Buffer.from("/inside.txt")]), this.content());
      gitIn(dir, ["add", "-A"]);
      gitIn(dir, ["commit", "-q", "--allow-empty", "-m", "nested change"]);
      return `commit in ${JSON.stringify(latin(rel))}`;
    }
    return "nothing";
  }
}

/** Asserts the checkpoint of the work tree equals git's tree (minus files over the cap). */
function expectSameAsGit(store: CheckpointStore, world: World, history: string[]): { oid: string; treeOid: string } {
  const result = store.checkpoint({ loop, kind: "manual" }, { sizeCapBytes: CAP });
  for (const s of result.skipped) expect(s.sizeBytes, `skipped ${s.path}`).toBeGreaterThan(CAP);
  const expected = gitTree(world.root, bigFiles(world.root));
  if (result.treeOid !== expected) {
    const diff = gitRaw(world.root, ["diff-tree", "-r", "--no-renames", result.treeOid, expected]).toString();
    expect.fail(`ralph's tree differs from git's after:\n${history.join("\n")}\n(ralph -> git)\n${diff}`);
  }
  return { oid: result.oid, treeOid: result.treeOid };
}

describe(`differential: checkpoints equal git add -A (seed ${SEED}, ${ROUNDS} rounds of ${STEPS} steps)`, () => {
  for (let round = 0; round < ROUNDS; round++) {
    it(`round ${round}`, { timeout: 120_000 }, () => {
      const world = new World(SEED * 1000 + round);
      const history: string[] = [];
      for (let i = 0; i < 4; i++) history.push(world.step());
      gitRaw(world.root, ["add", "-A"]);
      gitRaw(world.root, ["commit", "-q", "--allow-empty", "-m", "initial"]);
      const store = CheckpointStore.open(world.root);
      const checkpoints = [expectSameAsGit(store, world, history)];
      for (let step = 0; step < STEPS; step++) {
        if (step > 2 && world.chance(0.2)) {
          const target = world.pick(checkpoints);
          const before = ignoredNow(world.root);
          const outcome = store.revert({ ...target, label: target.oid.slice(0, 12) }, { loop, force: true, sizeCapBytes: CAP });
          history.push(`revert to ${target.oid.slice(0, 12)}: wrote ${outcome.written.length}, removed ${outcome.removed.length}, left ${JSON.stringify(outcome.skipped)}`);
          // The work tree as git reads it equals the target, except where the restore left a path alone
          // (and nested repositories, ignored files and files over the cap, which it never touches).
          const left = outcome.skipped.map((s) => latin(encodePath(s.path)));
          const got = flatten(world.root, gitTree(world.root, bigFiles(world.root)));
          const want = flatten(world.root, target.treeOid);
          const gitlinks = [...got, ...want].filter(([, v]) => v.startsWith("160000")).map(([p]) => p);
          const explained = (p: string): boolean =>
            left.some((l) => isUnder(p, l) || isUnder(l, p)) ||
            gitlinks.some((g) => isUnder(p, g)) ||
            before.some((b) => isUnder(p, b)) ||
            (lstatOrNull(abs(world.root, Buffer.from(p, "latin1")))?.size ?? 0) > CAP;
          for (const path of new Set([...got.keys(), ...want.keys()])) {
            if (got.get(path) !== want.get(path) && !explained(path)) {
              expect.fail(`after:\n${history.join("\n")}\n${JSON.stringify(path)} is ${got.get(path) ?? "absent"} on disk, ${want.get(path) ?? "absent"} in the target`);
            }
          }
          // The restored checkpoint is git's view minus what was ignored before the restore (unless the target holds it).
          const restoredTree = store.readCheckpoint(store.readLoopRef(loop, "head") as string).treeOid;
          const wantKeys = [...want.keys()];
          const protectedPaths = before.filter((b) => !wantKeys.some((p) => isUnder(p, b)));
          const gitView = [...flatten(world.root, gitTree(world.root, bigFiles(world.root))).keys()].filter((p) => protectedPaths.some((b) => isUnder(p, b)));
          const expected = gitTree(world.root, [...bigFiles(world.root), ...gitView.map((p) => Buffer.from(p, "latin1"))]);
          if (restoredTree !== expected) {
            expect.fail(`restored checkpoint differs from git's view after:\n${history.join("\n")}\n${gitRaw(world.root, ["diff-tree", "-r", restoredTree, expected]).toString()}`);
          }
        }
        history.push(world.step());
        checkpoints.push(expectSameAsGit(store, world, history));
      }
      fsck(world.root);
    });
  }
});
