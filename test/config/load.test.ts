/**
 * loadConfig on real folders: which file is read, a missing file, a file
 * that is a folder, and the env override applied over a file.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { isRalphError } from "../../src/errors.js";
import { makeTempDir, writeFiles } from "../helpers/git.js";

describe("loadConfig", () => {
  it("no file: the defaults, file null, no warnings", async () => {
    const dir = makeTempDir();
    const loaded = await loadConfig(dir, { env: {} });
    expect(loaded.config).toEqual(DEFAULT_CONFIG);
    expect(loaded.file).toBeNull();
    expect(loaded.warnings).toEqual([]);
    expect(loaded.sources["enabled"]).toBe("default");
  });

  it("aiwg.yml wins over aiwg.yaml, with a warning naming the ignored one", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "aiwg.yml": "agent_persistence:\n  enabled: false\n", "aiwg.yaml": "agent_persistence:\n  enabled: true\n" });
    const loaded = await loadConfig(dir, { env: {} });
    expect(loaded.file).toBe(join(dir, "aiwg.yml"));
    expect(loaded.config.enabled).toBe(false);
    expect(loaded.sources["enabled"]).toBe("aiwg.yml:2");
    expect(loaded.warnings).toEqual([{ path: "", line: null, message: "aiwg.yaml ignored: aiwg.yml is read" }]);
  });

  it("a process that loads again (a warm process) sees every edit of the file and of the overrides, and gets its own copy", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "aiwg.yml": "agent_persistence:\n  recovery:\n    max_retries: 2\n" });
    const first = await loadConfig(dir, { env: {} });
    expect(first.config.recovery.max_retries).toBe(2);
    first.config.recovery.max_retries = 9; // a caller changing its copy
    expect((await loadConfig(dir, { env: {} })).config.recovery.max_retries).toBe(2);
    // Same size, same second: only the text differs.
    writeFiles(dir, { "aiwg.yml": "agent_persistence:\n  recovery:\n    max_retries: 4\n" });
    expect((await loadConfig(dir, { env: {} })).config.recovery.max_retries).toBe(4);
    expect((await loadConfig(dir, { env: { RALPH_AUTO_REVERT: "1" } })).config.recovery.auto_revert).toBe(true);
    expect((await loadConfig(dir, { env: {} })).config.recovery.auto_revert).toBe(false);
    writeFiles(dir, { "aiwg.yml": "agent_persistence:\n  recovery:\n    max_retries: 40\n" });
    await expect(loadConfig(dir, { env: {} })).rejects.toSatisfy((e: unknown) => isRalphError(e) && e.code === "E_CONFIG");
  });

  it("the env override beats the file", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "aiwg.yml": "agent_persistence:\n  recovery:\n    auto_revert: false\n" });
    const loaded = await loadConfig(dir, { env: { RALPH_AUTO_REVERT: "true" } });
    expect(loaded.config.recovery.auto_revert).toBe(true);
    expect(loaded.sources["recovery.auto_revert"]).toBe("env:RALPH_AUTO_REVERT");
  });

  it("an aiwg.yml that is a folder is E_CONFIG", async () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, "aiwg.yml"));
    const error = await loadConfig(dir, { env: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isRalphError(error, "E_CONFIG")).toBe(true);
    expect((error as Error).message).toBe("aiwg.yml is a folder, not a file; remove it or make it a YAML file");
  });
  it("many YAML aliases in another tool's section are fine; in ours they are a config error (exit 2), never an internal one", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "aiwg.yml": `x: &x 1\nagent_persistence:\n  loop: {max_iterations: *x}\nother: [${Array(120).fill("*x").join(", ")}]\n` });
    expect((await loadConfig(dir, { env: {} })).config.loop.max_iterations).toBe(1);
    writeFiles(dir, { "aiwg.yml": `x: &x {a: 1}\nagent_persistence:\n  detection:\n    severity: {}\n  junk: [${Array(120).fill("*x").join(", ")}]\n` });
    const error = await loadConfig(dir, { env: {} }).catch((e: unknown) => e);
    expect(isRalphError(error) && error.code).toBe("E_CONFIG");
    expect((error as Error).message).toMatch(/^aiwg\.yml:2: agent_persistence: .*use fewer YAML aliases there$/);
  });

  it("a second YAML document is named as such", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "aiwg.yml": "agent_persistence: {}\n---\nb: 1\n" });
    await expect(loadConfig(dir, { env: {} })).rejects.toThrow("aiwg.yml:2: the file holds more than one YAML document (a second '---'); fix the YAML syntax");
  });
});
