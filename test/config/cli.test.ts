/**
 * `ralph config` (in-process, runCli) in real repositories: defaults
 * without aiwg.yml, values and sources with one, aiwg.yaml, env overrides,
 * warnings on stderr, and an invalid file as E_CONFIG (exit 2).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type RalphConfig } from "../../src/config/schema.js";
import { parseJsonOutput, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo, writeFiles } from "../helpers/git.js";

interface ConfigJson {
  config: RalphConfig;
  sources: Record<string, string>;
  warnings: { path: string; message: string; line: number | null }[];
  file: string | null;
}

const AIWG = `# other tools' sections are not ralph's business
frameworks:
  sdlc-complete: {enabled: true}
agent_persistence:
  recovery:
    max_retries: 5
  reinforcement:
    quality_plateau_threshold: 10
  loop:
    completion_command: npm test
`;

describe("ralph config", () => {
  it("without aiwg.yml: every default, every source 'default', no warnings", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const r = await runRalphInProcess(root, ["config", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const out = parseJsonOutput<ConfigJson>(r);
    expect(out.config).toEqual(DEFAULT_CONFIG);
    expect(out.file).toBeNull();
    expect(out.warnings).toEqual([]);
    expect(new Set(Object.values(out.sources))).toEqual(new Set(["default"]));
    expect(out.sources["recovery.max_retries"]).toBe("default");
  });

  it("with aiwg.yml: its values with their lines, warnings in the JSON only", async () => {
    const root = makeRepo({ "aiwg.yml": AIWG, "src/x.ts": "export const x = 1;\n" });
    const r = await runRalphInProcess(join(root, "src"), ["config", "--json"]); // from a subfolder: the work-tree root's file
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const out = parseJsonOutput<ConfigJson>(r);
    expect(out.file).toBe(join(root, "aiwg.yml"));
    expect(out.config.recovery.max_retries).toBe(5);
    expect(out.config.reinforcement.quality_plateau_threshold).toBe(0.1);
    expect(out.config.loop.completion_command).toBe("npm test");
    expect(out.config.loop.max_iterations).toBe(20);
    expect(out.sources["recovery.max_retries"]).toBe("aiwg.yml:6");
    expect(out.sources["loop.completion_command"]).toBe("aiwg.yml:10");
    expect(out.sources["loop.max_iterations"]).toBe("default");
    expect(out.warnings).toEqual([{ path: "reinforcement.quality_plateau_threshold", line: 8, message: "10 read as 10% (0.1); write a fraction from 0 to 1" }]);
  });

  it("text: one 'path = value  (source)' line per leaf, warnings on stderr", async () => {
    const root = makeRepo({ "aiwg.yml": AIWG });
    const r = await runRalphInProcess(root, ["config"], { env: { RALPH_AUTO_REVERT: "1" } });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe(`# ${join(root, "aiwg.yml")}, section agent_persistence`);
    expect(lines).toContain("recovery.max_retries = 5  (aiwg.yml:6)");
    expect(lines).toContain("recovery.auto_revert = true  (env:RALPH_AUTO_REVERT)");
    expect(lines).toContain('loop.completion_command = "npm test"  (aiwg.yml:10)');
    expect(lines).toContain('hooks.pre_tool_decision = "deny"  (default)');
    expect(lines.filter((l) => / = .* {2}\(/.test(l))).toHaveLength(37);
    expect(r.stderr).toBe("ralph: warning: aiwg.yml:8: agent_persistence.reinforcement.quality_plateau_threshold: 10 read as 10% (0.1); write a fraction from 0 to 1\n");
  });

  it("aiwg.yaml is read when there is no aiwg.yml", async () => {
    const root = makeRepo({ "aiwg.yaml": "agent_persistence:\n  hooks:\n    pre_tool_decision: ask\n" });
    const out = parseJsonOutput<ConfigJson>(await runRalphInProcess(root, ["config", "--json"]));
    expect(out.file).toBe(join(root, "aiwg.yaml"));
    expect(out.config.hooks.pre_tool_decision).toBe("ask");
    expect(out.sources["hooks.pre_tool_decision"]).toBe("aiwg.yaml:3");
  });

  it("--check: exit 0 with a verdict line, warnings on stderr", async () => {
    const root = makeRepo({ "aiwg.yml": AIWG });
    const r = await runRalphInProcess(root, ["config", "--check"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("aiwg.yml: valid (1 warning)\n");
    expect(r.stderr).toMatch(/^ralph: warning: aiwg\.yml:8: /);
    const none = await runRalphInProcess(makeRepo({}), ["config", "--check"]);
    expect(none.status).toBe(0);
    expect(none.stdout).toBe("no aiwg.yml: every value is a default\n");
  });

  it("an invalid file: exit 2, E_CONFIG naming the line and the path", async () => {
    const root = makeRepo({ "aiwg.yml": "agent_persistence:\n  recovery:\n    max_retrys: 4\n" });
    for (const args of [["config"], ["config", "--check"]]) {
      const r = await runRalphInProcess(root, args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe("ralph: aiwg.yml:3: agent_persistence.recovery.max_retrys: unknown key (did you mean max_retries?); rename it to max_retries\n");
    }
    const json = await runRalphInProcess(root, ["config", "--check", "--json"]);
    expect(json.status).toBe(2);
    const error = parseJsonOutput<{ error: { code: string; message: string; data: { line: number; path: string } } }>(json).error;
    expect(error.code).toBe("E_CONFIG");
    expect(error.data).toMatchObject({ file: "aiwg.yml", line: 3, path: "agent_persistence.recovery.max_retrys" });
  });

  it("a YAML syntax error: exit 2, E_CONFIG with the line", async () => {
    const root = makeRepo({});
    writeFiles(root, { "aiwg.yml": "agent_persistence:\n  enabled: true\n  enabled: false\n" });
    const r = await runRalphInProcess(root, ["config", "--json"]);
    expect(r.status).toBe(2);
    const error = parseJsonOutput<{ error: { code: string; message: string } }>(r).error;
    expect(error.code).toBe("E_CONFIG");
    expect(error.message).toMatch(/^aiwg\.yml:3: .*; fix the YAML syntax$/);
  });
});
