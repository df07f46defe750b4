/**
 * Differential test of the warm path (issue 12, "File watching"): a warm
 * process (RALPH_DAEMON=require) holds the work tree's watcher and hands its
 * dirty set to the checkpoints it serves (src/daemon/server.ts,
 * src/store/warm-scan.ts). After each seeded random edit
 * (test/helpers/random-edits.ts) a checkpoint through the warm process must
 * store the tree a cold full scan finds (the stat cache moved aside for it,
 * so a wrong entry cannot agree with itself), and more than a third of the
 * checkpoints must have gone through the dirty set (RALPH_DEBUG's snapshot
 * line), so the test cannot pass by always scanning in full.
 * Longer runs: `RALPH_WATCH_SEEDS=1,2,3 RALPH_WATCH_STEPS=100 npx vitest run test/daemon/watcher-differential.test.ts`.
 * Run `npm run build` first.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ObjectDatabase } from "../../src/store/odb.js";
import { openRepository } from "../../src/store/repo.js";
import { snapshotWorkTree, statCachePath } from "../../src/store/snapshot.js";
import { parseJsonOutput, runRalph, seededRandom } from "../helpers/cli.js";
import { fsck, makeRepo } from "../helpers/git.js";
import { randomEdit } from "../helpers/random-edits.js";

const SEEDS = (process.env.RALPH_WATCH_SEEDS ?? "1").split(",").map(Number);
const STEPS = Number(process.env.RALPH_WATCH_STEPS ?? "30");
const WARM: NodeJS.ProcessEnv = { RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON: "require", RALPH_DAEMON_IDLE_MS: "60000", RALPH_DEBUG: "1" };

/** The tree of the work tree by a full scan that trusts no cache (the stat cache is moved aside and put back). */
function coldTree(root: string): string {
  const repo = openRepository(root);
  const odb = new ObjectDatabase(join(repo.commonDir, "objects"));
  const path = statCachePath(repo);
  const saved = readFileSync(path);
  rmSync(path);
  try {
    return snapshotWorkTree(repo, odb, { anchored: false }).treeOid;
  } finally {
    writeFileSync(path, saved);
  }
}

describe("checkpoints through the warm process, fed by its watcher", () => {
  for (const seed of SEEDS) {
    it(`equal a cold full scan after every random edit (seed ${seed}, ${STEPS} steps)`, () => {
      const files: Record<string, string> = { ".gitignore": "*.log\nbuild/\n" };
      for (let i = 0; i < 30; i++) files[`d${i % 4}/s${i % 3}/f${i}.txt`] = `file ${i}\n`;
      const root = makeRepo(files);
      try {
        const checkpoint = (): { tree: string; dirty: boolean; stderr: string } => {
          const result = runRalph(root, ["checkpoint", "--json"], { env: WARM });
          expect(result.status, result.stderr).toBe(0);
          const out = parseJsonOutput<{ tree: string }>(result);
          return { tree: out.tree, dirty: /snapshot \(\d+ dirty paths\)/.test(result.stderr), stderr: result.stderr };
        };
        checkpoint(); // starts the warm process; its watcher's first take is a full scan
        const rand = seededRandom(seed);
        const done: string[] = [];
        let dirtyScans = 0;
        for (let step = 0; step < STEPS; step++) {
          done.push(randomEdit(root, rand, step));
          const warm = checkpoint();
          if (warm.dirty) dirtyScans++;
          expect(warm.tree, `seed ${seed} step ${step} (${warm.dirty ? "dirty" : "full"}): ${done.slice(-3).join("; ")}\n${warm.stderr}`).toBe(coldTree(root));
        }
        expect(dirtyScans).toBeGreaterThan(STEPS / 3);
        fsck(root);
      } finally {
        runRalph(root, ["daemon", "stop"], { env: WARM });
        rmSync(root, { recursive: true, force: true });
      }
    }, 180_000);
  }
});
