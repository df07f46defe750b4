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
  },
});
