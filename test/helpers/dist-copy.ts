/**
 * A private snapshot of the built CLI for tests. Others rebuild dist while
 * tests run (the build script deletes dist first), so tests run a copy:
 * made once, checked complete (every relative import resolves inside the
 * copy, and `cli.js --help` exits 0), with `grammars`, `node_modules` and
 * `package.json` linked beside it so relative lookups still work. No vitest
 * import: test/helpers/global-setup.ts runs this in vitest's main process.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** Chunk imports of one bundle file that do not resolve beside it. */
function missingImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const missing: string[] = [];
  // esbuild's chunk references: "./chunks/<name>-<HASH>.js" from cli.js, "./<name>-<HASH>.js" between chunks.
  for (const m of text.matchAll(/(?:from\s*|import\s*\(?\s*)"(\.\/(?:chunks\/)?[\w.-]+-[A-Z0-9]{8}\.js)"/g)) {
    const target = resolve(dirname(file), m[1] as string);
    if (!existsSync(target)) missing.push(target);
  }
  return missing;
}

/** Whether every cli.js and chunk import in `distDir` resolves inside it. */
function isCompleteBundle(distDir: string): boolean {
  try {
    const files = [
      join(distDir, "cli.js"),
      ...readdirSync(join(distDir, "chunks"))
        .filter((f) => f.endsWith(".js"))
        .map((f) => join(distDir, "chunks", f)),
    ];
    return files.every((f) => missingImports(f).length === 0);
  } catch {
    return false;
  }
}

/** A checked copy of the bundle: `root` (a temporary folder, the caller removes it) holds `dist/`; `cli` is its cli.js. */
export interface BuiltCliCopy {
  root: string;
  cli: string;
}

/**
 * Copies the folder of `builtCli` (dist) into a new temporary folder and checks it, retrying every 200 ms while dist
 * is missing, incomplete or changes under the copy, for at most `waitMs` ms. Returns null when no complete copy was
 * made in that time (nothing is left behind then).
 */
export function copyBuiltCli(builtCli: string, projectRoot: string, waitMs: number): BuiltCliCopy | null {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (existsSync(builtCli) && isCompleteBundle(dirname(builtCli))) {
      const root = mkdtempSync(join(tmpdir(), "ralph-cli-"));
      chmodSync(root, 0o755); // readable by the unprivileged uid of the permission tests
      try {
        cpSync(dirname(builtCli), join(root, "dist"), { recursive: true });
        const copied = join(root, "dist", "cli.js");
        if (isCompleteBundle(join(root, "dist")) && spawnSync(process.execPath, [copied, "--help"], { encoding: "utf8", timeout: 20_000 }).status === 0) {
          for (const name of ["grammars", "node_modules", "package.json"]) {
            if (existsSync(join(projectRoot, name))) symlinkSync(join(projectRoot, name), join(root, name));
          }
          return { root, cli: copied };
        }
      } catch {
        /* dist changed while copying: try again */
      }
      rmSync(root, { recursive: true, force: true });
    }
    if (Date.now() > deadline) return null;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
