/**
 * `ralph install --codex | --gemini | --cursor` and uninstall: ralph's
 * entries merge into settings the project already has (every other key and
 * hook kept), installing twice changes nothing, uninstall gives back the
 * file's bytes from before install, and a file ralph created goes again
 * with the folder it created (no empty file left behind).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addAgentHooks, AGENT_INSTALLS, agentHookCommand, installedAgentHooks, INSTALL_AGENTS, removeAgentHooks, type InstallAgent } from "../../src/hooks/agent-settings.js";
import { INSTALL_TAG } from "../../src/hooks/claude-settings.js";
import { tomlHasHooksTable } from "../../src/cli/commands/agent-install.js";
import { codexHookKey } from "../../src/hooks/codex-trust.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { cliPathForTests, parseJsonOutput, runRalph } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";
import { stripJsonComments } from "../../src/hooks/settings-file.js";

/** Settings each agent's project file may already hold (the agent's own keys, a hook of the user's). */
const EXISTING: Record<InstallAgent, Record<string, unknown>> = {
  codex: { hooks: { PreToolUse: [{ matcher: "^Bash$", hooks: [{ type: "command", command: "./scripts/policy.sh", timeout: 5 }] }] } },
  gemini: {
    theme: "GitHub",
    tools: { enableHooks: true },
    hooks: { BeforeTool: [{ matcher: "write_file", hooks: [{ name: "secret-scan", type: "command", command: "./scan.sh", timeout: 5000 }] }], disabled: ["old-hook"] },
  },
  cursor: { version: 1, hooks: { afterFileEdit: [{ command: "./format.sh" }], beforeReadFile: [{ command: "./redact.sh" }] } },
};

describe("agent settings merge (unit)", () => {
  it.each(INSTALL_AGENTS)("%s: one tagged entry per event, others kept, idempotent, removable", (agent) => {
    const once = addAgentHooks(agent, structuredClone(EXISTING[agent]), "/usr/bin/node", "/opt/ralph/dist/cli.js", { stopTimeoutSec: 900, loopLimit: 20 });
    expect(addAgentHooks(agent, structuredClone(once), "/usr/bin/node", "/opt/ralph/dist/cli.js", { stopTimeoutSec: 900, loopLimit: 20 })).toEqual(once);
    const installed = installedAgentHooks(agent, once);
    expect(installed.map((h) => h.event).sort()).toEqual(AGENT_INSTALLS[agent].plan.map((p) => p.event).sort());
    for (const hook of installed) expect(hook.command).toBe(agentHookCommand("/usr/bin/node", "/opt/ralph/dist/cli.js", agent, hook.event));
    expect(removeAgentHooks(agent, once)).toEqual({ settings: EXISTING[agent], removed: installed.length });
  });

  it("writes each agent's timeout unit and fields", () => {
    const codex = addAgentHooks("codex", {}, "/n", "/c", { stopTimeoutSec: 900 }) as { hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>> };
    expect(codex.hooks.Stop?.[0]?.hooks[0]).toEqual({ type: "command", command: `"/n" "/c" hook codex Stop ${INSTALL_TAG}`, timeout: 900 });
    expect(codex.hooks.PreToolUse?.[0]?.matcher).toBe("^(Bash|apply_patch)$");
    const gemini = addAgentHooks("gemini", {}, "/n", "/c", { stopTimeoutSec: 10 }) as typeof codex;
    // Gemini's timeout is in milliseconds; the stop entry gets at least 600 s.
    expect(gemini.hooks.AfterAgent?.[0]?.hooks[0]).toMatchObject({ name: "ralph-AfterAgent", timeout: 600_000 });
    expect(gemini.hooks.BeforeTool?.[0]?.hooks[0]).toMatchObject({ timeout: 30_000 });
    const cursor = addAgentHooks("cursor", {}, "/n", "/c", { stopTimeoutSec: 700, loopLimit: 20 }) as { version: number; hooks: Record<string, Array<Record<string, unknown>>> };
    expect(cursor.version).toBe(1);
    expect(cursor.hooks.stop).toEqual([{ command: `"/n" "/c" hook cursor stop ${INSTALL_TAG}`, timeout: 700, loop_limit: 20 }]);
    expect(cursor.hooks.beforeShellExecution).toEqual([{ command: `"/n" "/c" hook cursor beforeShellExecution ${INSTALL_TAG}`, timeout: 30 }]);
  });

  it("records the group and handler index Codex keys its trust state with", () => {
    const settings = addAgentHooks("codex", structuredClone(EXISTING.codex), "/n", "/c");
    expect(installedAgentHooks("codex", settings).find((h) => h.event === "PreToolUse")).toMatchObject({ groupIndex: 1, handlerIndex: 0 });
  });

  it.each<[string, boolean]>([
    ["[hooks]\n", true],
    ['[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n', true],
    ['model = "o3"\n[hooks.state]\n', true],
    ["[projects]\nhooks = 1\n", false],
    ["# [hooks]\n", false],
  ])("tomlHasHooksTable(%j) is %s", (text, expected) => {
    expect(tomlHasHooksTable(text)).toBe(expected);
  });
});

describe("ralph install / uninstall for Codex, Gemini, Cursor (built CLI)", () => {
  it.each(INSTALL_AGENTS)("%s: merges into the existing file, idempotent; uninstall brings back its bytes", (agent) => {
    const root = makeRepo({ "README.md": "# x\n" });
    const file = join(root, ...AGENT_INSTALLS[agent].file.split("/"));
    mkdirSync(join(file, ".."), { recursive: true });
    // Formatting of the user's own: 4 spaces, no final newline. It must come back byte for byte.
    const original = JSON.stringify(EXISTING[agent], null, 4);
    writeFileSync(file, original);

    const installed = runRalph(root, ["install", `--${agent}`, "--json"]);
    expect(installed.status, installed.stderr).toBe(0);
    const report = JSON.parse(installed.stdout) as { installed: string; agents: Record<string, { settings: string; events: string[] }> };
    expect(report.installed).toBe(agent);
    expect(report.agents[agent]?.settings).toBe(file);
    const first = readFileSync(file, "utf8");
    expect(runRalph(root, ["install", `--${agent}`]).status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(first);
    const settings = JSON.parse(first) as Record<string, unknown>;
    for (const [key, value] of Object.entries(EXISTING[agent])) if (key !== "hooks") expect(settings[key]).toEqual(value);
    const hooks = installedAgentHooks(agent, settings);
    expect(hooks.map((h) => h.event).sort()).toEqual(AGENT_INSTALLS[agent].plan.map((p) => p.event).sort());
    for (const hook of hooks) expect(hook.command).toContain(`"${process.execPath}" "${cliPathForTests()}" hook ${agent} ${hook.event}`);

    const removed = parseJsonOutput<{ removed: number; files: Array<{ settings: string; restored?: boolean }> }>(runRalph(root, ["uninstall", `--${agent}`, "--json"]));
    expect(removed.removed).toBe(hooks.length);
    expect(removed.files).toEqual([{ settings: file, removed: hooks.length, restored: true }]);
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it.each(INSTALL_AGENTS)("%s: a file and folder ralph created are gone after uninstall", (agent) => {
    const root = makeRepo({ "README.md": "# x\n" });
    const file = join(root, ...AGENT_INSTALLS[agent].file.split("/"));
    expect(runRalph(root, ["install", `--${agent}`]).status).toBe(0);
    expect(existsSync(file)).toBe(true);
    const removed = parseJsonOutput<{ files: Array<{ deleted?: boolean }> }>(runRalph(root, ["uninstall", "--json"]));
    expect(removed.files).toContainEqual(expect.objectContaining({ settings: file, deleted: true }));
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(file, ".."))).toBe(false);
  });

  it("keeps a user's edit made after install, and removes only ralph's entries", () => {
    const root = makeRepo({ "README.md": "# x\n" });
    mkdirSync(join(root, ".gemini"));
    const file = join(root, ".gemini", "settings.json");
    writeFileSync(file, `${JSON.stringify(EXISTING.gemini, null, 2)}\n`);
    expect(runRalph(root, ["install", "--gemini"]).status).toBe(0);
    const edited = { ...(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>), theme: "Dracula" };
    writeFileSync(file, JSON.stringify(edited));
    expect(runRalph(root, ["uninstall", "--gemini"]).status).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ ...EXISTING.gemini, theme: "Dracula" });
  });

  it("says so when .codex/config.toml has a [hooks] table too, and refuses a settings file that is not JSON", () => {
    const root = makeRepo({ "README.md": "# x\n", ".codex/config.toml": '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "say done"\n' });
    const installed = runRalph(root, ["install", "--codex", "--json"]);
    expect(installed.status, installed.stderr).toBe(0);
    const notes = (JSON.parse(installed.stdout) as { agents: { codex: { notes: string[] } } }).agents.codex.notes;
    expect(notes.some((n) => n.includes("[hooks] table"))).toBe(true);
    expect(existsSync(join(root, ".codex", "config.toml"))).toBe(true);

    const broken = makeRepo({ "README.md": "# x\n", ".cursor/hooks.json": "{ not json" });
    const refused = runRalph(broken, ["install", "--cursor", "--json"]);
    expect(refused.status).toBe(2);
    expect(readFileSync(join(broken, ".cursor", "hooks.json"), "utf8")).toBe("{ not json");
  });

  it("doctor runs every installed agent entry, and says when Codex will skip them (feature off, project or hooks untrusted)", () => {
    const root = makeRepo({ "README.md": "# x\n" });
    expect(runRalph(root, ["install", "--codex", "--gemini", "--cursor"]).status).toBe(0);
    const codexHome = mkdtempSync(join(tmpdir(), "ralph-codex-home-"));
    const env = { CODEX_HOME: codexHome, HOME: codexHome };
    type Doctor = { ok: boolean; agent_checks: Array<{ agent: string; event: string; status: string }>; agent_problems: string[]; codex_trust: { hooks: Array<{ state: string }> } };
    const untrusted = runRalph(root, ["doctor", "--json"], { env });
    expect(untrusted.status).toBe(2);
    const first = JSON.parse(untrusted.stdout) as Doctor;
    for (const agent of INSTALL_AGENTS) {
      expect(first.agent_checks.filter((c) => c.agent === agent).map((c) => [c.event, c.status])).toEqual(AGENT_INSTALLS[agent].plan.map((p) => [p.event, "ok"]));
    }
    expect(first.agent_problems).toEqual([expect.stringContaining("project is not trusted"), expect.stringContaining("no trust recorded")]);
    expect(runRalph(root, ["doctor"], { env }).stdout).toContain("will not run");

    // Trust the project and each of ralph's entries the way Codex records it: doctor is satisfied.
    const file = join(root, ".codex", "hooks.json");
    const hooks = installedAgentHooks("codex", JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>);
    const config = [`[projects."${root}"]`, 'trust_level = "trusted"', ...hooks.flatMap((h) => [`[hooks.state."${codexHookKey(file, h)}"]`, 'trusted_hash = "sha256:0"'])].join("\n");
    writeFileSync(join(codexHome, "config.toml"), config);
    const trusted = runRalph(root, ["doctor", "--json"], { env });
    expect(trusted.status, trusted.stdout).toBe(0);
    const second = JSON.parse(trusted.stdout) as Doctor;
    expect(second.ok).toBe(true);
    expect(second.codex_trust.hooks.map((h) => h.state)).toEqual(hooks.map(() => "recorded"));

    // Gemini's hooks.disabled naming ralph's entries is a problem too.
    const gemini = join(root, ".gemini", "settings.json");
    const settings = JSON.parse(readFileSync(gemini, "utf8")) as { hooks: Record<string, unknown> };
    settings.hooks.disabled = ["ralph-BeforeTool"];
    writeFileSync(gemini, JSON.stringify(settings));
    const disabled = JSON.parse(runRalph(root, ["doctor", "--json"], { env }).stdout) as Doctor;
    expect(disabled.agent_problems).toEqual([expect.stringContaining("ralph-BeforeTool")]);
  });

  // Found by helper "breaker" (2026-12-02): these values were replaced by ralph's arrays, and uninstall left "{}".
  it.each([
    ["codex", '{"hooks":{"Stop":"x"}}', '"hooks"."Stop" is "x"'],
    ["gemini", '{"hooks":{"AfterAgent":{"not":"an array"}}}', '"hooks"."AfterAgent" is {"not":"an array"}'],
    ["codex", '{"hooks":[]}', '"hooks" is []'],
    ["cursor", '{"version":1,"hooks":[]}', '"hooks" is []'],
    ["claude", '{"hooks":{"PreToolUse":7}}', '"hooks"."PreToolUse" is 7'],
  ] as const)("%s with %s: install refuses (exit 2, one line naming the file and the value, file untouched)", (agent, content, named) => {
    const root = makeRepo({ "a.txt": "a\n" });
    const path = join(root, ...(agent === "claude" ? ".claude/settings.json" : AGENT_INSTALLS[agent].file).split("/"));
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, content);
    const install = runRalph(root, ["install", `--${agent}`]);
    expect(install.status).toBe(2);
    const lines = install.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path);
    expect(lines[0]).toContain(named);
    expect(readFileSync(path, "utf8")).toBe(content);
  });

  // Found by helper "breaker" (2026-12-02): Cursor's file came back as {"version":1}.
  it.each(INSTALL_AGENTS)("%s: install into an empty file, then uninstall: the file is empty again", (agent) => {
    const root = makeRepo({ "a.txt": "a\n" });
    const path = join(root, ...AGENT_INSTALLS[agent].file.split("/"));
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "");
    expect(runRalph(root, ["install", `--${agent}`]).status).toBe(0);
    expect(runRalph(root, ["uninstall", `--${agent}`]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe("");
  });

  // Found by helper "breaker" (2026-12-02): refused as "not valid JSON", though Gemini CLI strips comments (strip-json-comments).
  it("gemini: a settings.json with comments is installed into with its comments kept, and uninstall gives its bytes back", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".gemini"));
    const path = join(root, ".gemini", "settings.json");
    const original = '{\n  // the team theme\n  "theme": "GitHub" /* dark */\n}\n';
    writeFileSync(path, original);
    const install = runRalph(root, ["install", "--gemini"]);
    expect(install.status, install.stderr).toBe(0);
    const installed = readFileSync(path, "utf8");
    expect(installed).toContain("// the team theme");
    expect(installed).toContain("/* dark */");
    const settings = JSON.parse(stripJsonComments(installed)) as Record<string, unknown>;
    expect(settings.theme).toBe("GitHub");
    expect(installedAgentHooks("gemini", settings).map((h) => h.event)).toEqual(AGENT_INSTALLS.gemini.plan.map((p) => p.event));
    expect(runRalph(root, ["install", "--gemini"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(installed);
    expect(runRalph(root, ["uninstall", "--gemini"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
  });

  it("gemini: with comments and a user's edit after install, uninstall removes only the hooks and keeps the comments", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".gemini"));
    const path = join(root, ".gemini", "settings.json");
    writeFileSync(path, '{\n  // keep me\n  "theme": "GitHub",\n  "hooks": {"disabled": []}\n}\n');
    expect(runRalph(root, ["install", "--gemini"]).status).toBe(0);
    writeFileSync(path, readFileSync(path, "utf8").replace('"GitHub"', '"Dracula"'));
    expect(runRalph(root, ["uninstall", "--gemini"]).status).toBe(0);
    const after = readFileSync(path, "utf8");
    expect(after).toContain("// keep me");
    expect(JSON.parse(stripJsonComments(after))).toEqual({ theme: "Dracula", hooks: { disabled: [] } });
  });

  it("gemini: with comments, CRLF line ends and a comment after the last member, install writes CRLF and keeps the comment; uninstall gives the bytes back", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".gemini"));
    const path = join(root, ".gemini", "settings.json");
    const original = '{\r\n    "theme": "X" // last\r\n}';
    writeFileSync(path, original);
    expect(runRalph(root, ["install", "--gemini"]).status).toBe(0);
    const installed = readFileSync(path, "utf8");
    expect(installed.replace(/\r\n/g, "")).not.toContain("\n");
    expect(installed).toContain('"theme": "X", // last');
    expect(installedAgentHooks("gemini", JSON.parse(stripJsonComments(installed)) as Record<string, unknown>)).toHaveLength(AGENT_INSTALLS.gemini.plan.length);
    expect(runRalph(root, ["uninstall", "--gemini"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
  });

  it("gemini: a comment inside hooks is refused with one line (it could not be kept), the file untouched", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".gemini"));
    const path = join(root, ".gemini", "settings.json");
    const original = '{"hooks": {\n  // mine\n  "disabled": []\n}}\n';
    writeFileSync(path, original);
    const install = runRalph(root, ["install", "--gemini"]);
    expect(install.status).toBe(2);
    expect(install.stderr).toContain('comments inside "hooks"');
    expect(readFileSync(path, "utf8")).toBe(original);
  });
});

describe("stripJsonComments (unit)", () => {
  it("blanks // and /* */ comments, keeps strings holding them, keeps offsets and line breaks, keeps trailing commas", () => {
    const text = '{"a": "//not", /* b\n c */ "d": 1, // e\r\n"f": "/*x*/",}';
    const out = stripJsonComments(text);
    expect(out).toHaveLength(text.length);
    expect(out).toBe('{"a": "//not",' + " ".repeat(5) + "\n" + " ".repeat(6) + '"d": 1,' + " ".repeat(5) + '\r\n"f": "/*x*/",}');
  });
});
