import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { factsHash } from "./scripts/facts-hash.mjs";

export default defineConfig({
  // The same facts-cache key the build injects (scripts/build.mjs), computed by the same function.
  define: { RALPH_FACTS_HASH: JSON.stringify(factsHash()) },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // vitest's default for `run` is one worker fewer than the cores: a single worker on these 2 cores. Most test files
    // spend their time waiting on the git and ralph processes they spawn (one worker kept the CPUs about 50% busy), so
    // one worker more than the cores overlaps that waiting: the whole suite went from 420 s to 279 s on 2 cores (load
    // average 5-8, issue 12). Override with --maxWorkers.
    maxWorkers: availableParallelism() + 1,
    // One worker process runs many test files, keeping the modules it has loaded (src/ through vite's transform,
    // @babel/parser, web-tree-sitter and its grammars) instead of loading them again for each of the ~136 files:
    // 279 s -> 155 s for the whole suite and a quarter less CPU (issue 12). This relies on what the code already
    // guarantees: no test mocks modules or stubs globals, and src/ reads no process globals (test/boundary/process-globals)
    // so nothing one file sets leaks into the next. Run with --isolate to check a suspected leak between files.
    isolate: false,
    // One private copy of dist/cli.js for the whole run (test/helpers/global-setup.ts).
    globalSetup: ["test/helpers/global-setup.ts"],
  },
});
