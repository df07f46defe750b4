/**
 * What files tell about whether Codex runs ralph's project hooks
 * (src/hooks/codex-trust.ts): the TOML reader on the shapes Codex's user
 * config has, the state keys Codex gives hooks, and the report over a
 * temporary CODEX_HOME.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCodexTrust, codexEventLabel, codexHookKey, readToml } from "../../src/hooks/codex-trust.js";

describe("readToml", () => {
  it("reads tables, quoted and dotted keys, arrays of tables and scalars", () => {
    const text = [
      'model = "gpt-5.1-codex" # a comment',
      "[features]",
      "hooks = false",
      "",
      '[projects."/home/me/repo"]',
      "trust_level = 'trusted'",
      '[hooks.state."/home/me/repo/.codex/hooks.json:pre_tool_use:0:0"]',
      'trusted_hash = "sha256:abc"',
      "enabled = true",
      "[[hooks.PreToolUse]]",
      'matcher = "^Bash$"',
      "[[hooks.PreToolUse]]",
      'matcher = "^apply_patch$"',
      "answer.value = 42",
      'escaped = "a\\"b\\u00e9"',
    ].join("\n");
    expect(readToml(text)).toEqual({
      model: "gpt-5.1-codex",
      features: { hooks: false },
      projects: { "/home/me/repo": { trust_level: "trusted" } },
      hooks: {
        state: { "/home/me/repo/.codex/hooks.json:pre_tool_use:0:0": { trusted_hash: "sha256:abc", enabled: true } },
        PreToolUse: [{ matcher: "^Bash$" }, { matcher: "^apply_patch$", answer: { value: 42 }, escaped: 'a"b\u00e9' }],
      },
    });
  });

  it("skips values it cannot read instead of guessing, multi-line ones included", () => {
    const text = ["list = [", '  "a",', "]", 'multi = """', "[not a table]", '"""', "inline = { a = 1 }", "after = 1"].join("\n");
    expect(readToml(text)).toEqual({ after: 1 });
  });
});

describe("Codex hook keys", () => {
  it.each([
    ["PreToolUse", "pre_tool_use"],
    ["UserPromptSubmit", "user_prompt_submit"],
    ["Stop", "stop"],
    ["SessionStart", "session_start"],
  ])("%s -> %s", (event, label) => {
    expect(codexEventLabel(event)).toBe(label);
  });

  it("names the file, event, group and handler", () => {
    expect(codexHookKey("/r/.codex/hooks.json", { event: "PostToolUse", groupIndex: 2, handlerIndex: 0 })).toBe("/r/.codex/hooks.json:post_tool_use:2:0");
  });
});

describe("checkCodexTrust", () => {
  const repo = "/home/me/work/repo";
  const hooksJson = `${repo}/.codex/hooks.json`;
  const installed = [
    { event: "PreToolUse", command: "x", groupIndex: 1, handlerIndex: 0 },
    { event: "Stop", command: "x", groupIndex: 0, handlerIndex: 0 },
  ];
  const home = (config: string | null): NodeJS.ProcessEnv => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-codex-home-"));
    if (config !== null) writeFileSync(join(dir, "config.toml"), config);
    return { CODEX_HOME: dir };
  };

  it("finds nothing wrong when the project (through a parent) and every entry are trusted", () => {
    const config = [
      '[projects."/home/me/work"]',
      'trust_level = "trusted"',
      `[hooks.state."${hooksJson}:pre_tool_use:1:0"]`,
      'trusted_hash = "sha256:1"',
      `[hooks.state."${hooksJson}:stop:0:0"]`,
      'trusted_hash = "sha256:2"',
    ].join("\n");
    const report = checkCodexTrust(repo, hooksJson, installed, home(config));
    expect(report).toMatchObject({ featureEnabled: null, projectTrust: "trusted", problems: [] });
    expect(report.hooks.map((h) => h.state)).toEqual(["recorded", "recorded"]);
  });

  it("reports the feature off, an untrusted project, entries without trust and disabled ones", () => {
    const config = ["[features]", "codex_hooks = false", `[projects."${repo}"]`, 'trust_level = "untrusted"', `[hooks.state."${hooksJson}:stop:0:0"]`, "enabled = false"].join("\n");
    const report = checkCodexTrust(repo, hooksJson, installed, home(config));
    expect(report.featureEnabled).toBe(false);
    expect(report.hooks.map((h) => [h.event, h.state])).toEqual([
      ["PreToolUse", "untrusted"],
      ["Stop", "disabled"],
    ]);
    expect(report.problems).toEqual([
      expect.stringContaining("hooks are turned off"),
      expect.stringContaining('trust_level = "untrusted"'),
      expect.stringContaining("PreToolUse"),
      expect.stringContaining("disabled"),
    ]);
  });

  it("treats a missing config as nothing trusted", () => {
    const report = checkCodexTrust(repo, hooksJson, installed, home(null));
    expect(report.projectTrust).toBeNull();
    expect(report.problems).toHaveLength(2);
  });
});
