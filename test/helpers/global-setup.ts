/**
 * vitest's global setup (vitest.config.ts): one private copy of the built CLI for the whole run
 * (test/helpers/dist-copy.ts), handed to the test files as `inject("ralphCliPath")` and removed when the run ends.
 * Copying the 18 MB dist once instead of once per test file saves the copy and its `--help` check in each of the ~60
 * files that run the binary. When dist is missing or incomplete at the start (a run of unit tests without a build, a
 * rebuild under way), nothing is provided and each file makes its own copy on first use (test/helpers/cli.ts), waiting
 * for the build as before.
 */
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { copyBuiltCli } from "./dist-copy.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's private copy of dist/cli.js, or "" when none was made. */
    ralphCliPath: string;
  }
}

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Makes the copy (RALPH_TEST_CLI set: none, the tests run that bundle) and returns the teardown that removes it. */
export default function setup(project: TestProject): () => void {
  const copy = process.env.RALPH_TEST_CLI ? null : copyBuiltCli(join(PROJECT_ROOT, "dist", "cli.js"), PROJECT_ROOT, 2_000);
  project.provide("ralphCliPath", copy?.cli ?? "");
  return () => {
    if (copy) rmSync(copy.root, { recursive: true, force: true });
  };
}
