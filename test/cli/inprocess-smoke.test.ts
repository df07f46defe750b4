/**
 * The in-process runner and the built binary agree on the same command
 * lines (the in-process path is what most CLI tests use).
 */
import { describe, expect, it } from "vitest";
import { runRalph, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

describe("runRalphInProcess", () => {
  it("gives the binary's stdout, stderr and exit code for a checkpoint, a log and an error", async () => {
    for (const args of [["checkpoint", "--json"], ["log", "--json"], ["revert", "no-such-checkpoint"], ["--version"]]) {
      const binaryRepo = makeRepo({ "a.txt": "a\n" });
      const inProcessRepo = makeRepo({ "a.txt": "a\n" });
      const binary = runRalph(binaryRepo, args);
      const inProcess = await runRalphInProcess(inProcessRepo, args);
      expect(inProcess.status, args.join(" ")).toBe(binary.status);
      const scrub = (text: string) => text.replaceAll(binaryRepo, "REPO").replaceAll(inProcessRepo, "REPO").replace(/"(\w*(?:uration|_ms|Ms))": [\d.]+/g, '"$1": 0');
      expect(scrub(inProcess.stdout), args.join(" ")).toBe(scrub(binary.stdout));
      expect(scrub(inProcess.stderr), args.join(" ")).toBe(scrub(binary.stderr));
    }
  });
});
