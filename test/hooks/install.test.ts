/**
 * `ralph install --claude` / `ralph uninstall` / `ralph doctor` through the
 * built CLI: ralph's entries merge into existing settings without touching
 * other hooks, installing twice changes nothing, uninstall removes exactly
 * ralph's entries, and doctor runs each installed command.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLAUDE_EVENTS } from "../../src/hooks/claude-payload.js";
import { addRalphHooks, hookCommand, installedRalphCommands, removeRalphHooks, INSTALL_TAG } from "../../src/hooks/claude-settings.js";
import { cliPathForTests, parseJsonOutput, runRalph, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

const OTHER_SETTINGS = {
  permissions: { allow: ["Bash(npm test:*)"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./scripts/guard.sh", timeout: 5 }] }],
    Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send claude" }] }],
  },
};

describe("Claude settings merge (unit)", () => {
  it("adds one tagged entry per event, keeps others, and is idempotent", () => {
    const once = addRalphHooks(structuredClone(OTHER_SETTINGS), "/usr/bin/node", "/opt/ralph/dist/cli.js");
    const twice = addRalphHooks(structuredClone(once), "/usr/bin/node", "/opt/ralph/dist/cli.js");
    expect(twice).toEqual(once);
    expect([...installedRalphCommands(once).keys()].sort()).toEqual([...CLAUDE_EVENTS].sort());
    expect((once.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(2);
    expect(removeRalphHooks(once)).toEqual({ settings: OTHER_SETTINGS, removed: CLAUDE_EVENTS.length });
  });

  it("quotes paths with spaces and shell characters", () => {
    expect(hookCommand("/opt/my node/node", '/a "b"/$x/cli.js', "Stop")).toBe(`"/opt/my node/node" "/a \\"b\\"/\\$x/cli.js" hook claude Stop ${INSTALL_TAG}`);
  });

  it("removing from settings without ralph entries changes nothing", () => {
    expect(removeRalphHooks(structuredClone(OTHER_SETTINGS))).toEqual({ settings: OTHER_SETTINGS, removed: 0 });
    expect(removeRalphHooks({})).toEqual({ settings: {}, removed: 0 });
  });
});

describe("ralph install / uninstall / doctor (the first case through the built CLI, the others in-process)", () => {
  it("installs into .claude/settings.json keeping other hooks; doctor sees every hook answer; uninstall restores the file's content", () => {
    const root = makeRepo({ "README.md": "# x\n" });
    mkdirSync(join(root, ".claude"));
    const path = join(root, ".claude", "settings.json");
    writeFileSync(path, `${JSON.stringify(OTHER_SETTINGS, null, 2)}\n`);

    const installed = runRalph(root, ["install", "--claude", "--json"]);
    expect(installed.status, installed.stderr).toBe(0);
    const first = readFileSync(path, "utf8");
    expect(runRalph(root, ["install", "--claude"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(first);
    const settings = JSON.parse(first) as { hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]> };
    const pre = settings.hooks.PreToolUse?.find((g) => g.hooks.some((h) => h.command.includes(INSTALL_TAG)));
    expect(pre?.matcher).toBe("Bash|Write|Edit|MultiEdit|NotebookEdit");
    for (const event of CLAUDE_EVENTS) {
      const entry = settings.hooks[event]?.flatMap((g) => g.hooks).find((h) => h.command.includes(INSTALL_TAG));
      expect(entry?.command).toContain(`"${process.execPath}" "${cliPathForTests()}" hook claude ${event}`);
      expect(entry?.timeout).toBeGreaterThan(0);
    }

    const doctor = parseJsonOutput<{ ok: boolean; checks: { event: string; status: string }[] }>(runRalph(root, ["doctor", "--json"]));
    expect(doctor.checks.map((c) => [c.event, c.status])).toEqual(CLAUDE_EVENTS.map((e) => [e, "ok"]));
    expect(doctor.ok).toBe(true);
    // Doctor's synthetic calls leave nothing behind: no checkpoints, no logs.
    expect(runRalph(root, ["loops", "--json"]).stdout).not.toContain("ralph-doctor");

    const removed = parseJsonOutput<{ removed: number }>(runRalph(root, ["uninstall", "--json"]));
    expect(removed.removed).toBe(CLAUDE_EVENTS.length);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(OTHER_SETTINGS);
  });

  it("--local writes settings.local.json; doctor reports a moved install as failed, not silently", async () => {
    const root = makeRepo({ "README.md": "# x\n" });
    expect((await runRalphInProcess(root, ["install", "--claude", "--local"])).status).toBe(0);
    const path = join(root, ".claude", "settings.local.json");
    const moved = readFileSync(path, "utf8").replaceAll(cliPathForTests(), "/nonexistent/ralph/dist/cli.js");
    writeFileSync(path, moved);
    const run = await runRalphInProcess(root, ["doctor", "--json"]);
    const doctor = parseJsonOutput<{ ok: boolean; problems: number; checks: { status: string; detail: string }[] }>(run);
    expect(doctor.ok).toBe(false);
    expect(doctor.problems).toBe(CLAUDE_EVENTS.length);
    expect(doctor.checks[0]?.detail).toMatch(/exit 1/);
    // Hooks that do not answer are something the user must fix: exit 2.
    expect(run.status).toBe(2);
  });

  it("doctor fails a pre-push hook git would ignore (not executable), and exits 0 when hooks are merely absent", async () => {
    const root = makeRepo({ "README.md": "# x\n" });
    expect((await runRalphInProcess(root, ["doctor"])).status).toBe(0);
    expect((await runRalphInProcess(root, ["install", "--git-hooks"])).status).toBe(0);
    const hook = join(root, ".git", "hooks", "pre-push");
    chmodSync(hook, 0o644);
    const run = await runRalphInProcess(root, ["doctor", "--json"]);
    expect(run.status).toBe(2);
    expect(parseJsonOutput<{ git_hooks: { status: string; detail: string } }>(run).git_hooks).toMatchObject({ status: "failed", detail: expect.stringContaining("not executable") });
  });

  it("doctor without an install says what to run; install without --claude is a usage error", async () => {
    const root = makeRepo({ "README.md": "# x\n" });
    const doctor = await runRalphInProcess(root, ["doctor"]);
    expect(doctor.stdout).toContain("ralph install --claude");
    expect((await runRalphInProcess(root, ["install"])).status).toBe(2);
  });

  it("install refuses to overwrite a settings file that is not JSON", async () => {
    const root = makeRepo({ ".claude/settings.json": "{ broken" });
    const result = await runRalphInProcess(root, ["install", "--claude"]);
    expect(result.status).toBe(2);
    expect(readFileSync(join(root, ".claude/settings.json"), "utf8")).toBe("{ broken");
  });

  it("doctor reports what is installed and what is not as information: only git hooks -> one Claude line, no 'absent' per event, exit 0; only Claude hooks -> the missing git hook is named", async () => {
    const gitOnly = makeRepo({ "README.md": "# x\n" });
    expect((await runRalphInProcess(gitOnly, ["install", "--git-hooks"])).status).toBe(0);
    const doctor = await runRalphInProcess(gitOnly, ["doctor"]);
    expect(doctor.status).toBe(0);
    expect(doctor.stdout).not.toMatch(/absent/);
    expect(doctor.stdout.split("\n").filter((l) => /Claude Code/.test(l))).toEqual([expect.stringMatching(/not installed \(information\).*ralph install --claude/)]);
    expect(doctor.stdout).toMatch(/ok\s+git pre-push/);
    expect(doctor.stdout).toContain("every installed hook answered (1)");
    expect(parseJsonOutput<{ ok: boolean; problems: number }>(await runRalphInProcess(gitOnly, ["doctor", "--json"]))).toMatchObject({ ok: true, problems: 0 });
    const claudeOnly = makeRepo({ "README.md": "# x\n" });
    expect((await runRalphInProcess(claudeOnly, ["install", "--claude"])).status).toBe(0);
    const second = await runRalphInProcess(claudeOnly, ["doctor"]);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/git pre-push\s+not installed \(information\).*ralph install --git-hooks/);
    expect(second.stdout).toContain(`every installed hook answered (${CLAUDE_EVENTS.length})`);
  });

  it("uninstall removes a .claude/settings.json (and .claude folder) that install created once nothing else is in it; a file the user had, or added to, stays", async () => {
    const fresh = makeRepo({ "README.md": "# x\n" });
    expect((await runRalphInProcess(fresh, ["install", "--claude"])).status).toBe(0);
    expect((await runRalphInProcess(fresh, ["uninstall"])).status).toBe(0);
    expect(existsSync(join(fresh, ".claude"))).toBe(false);
    const added = makeRepo({ "README.md": "# x\n" });
    expect((await runRalphInProcess(added, ["install", "--claude"])).status).toBe(0);
    const path = join(added, ".claude", "settings.json");
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), permissions: { allow: ["Read"] } }));
    expect((await runRalphInProcess(added, ["uninstall"])).status).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ permissions: { allow: ["Read"] } });
    const own = makeRepo({ ".claude/settings.json": "{}\n" });
    expect((await runRalphInProcess(own, ["install", "--claude"])).status).toBe(0);
    expect((await runRalphInProcess(own, ["uninstall"])).status).toBe(0);
    expect(readFileSync(join(own, ".claude", "settings.json"), "utf8")).toBe("{}\n");
  });
});
