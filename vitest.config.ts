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
  },
});
