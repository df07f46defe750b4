/**
 * The Stop hook's installed timeout against the loop's completion timeout
 * (issue 10, "The session can be held"): Claude Code kills a hook at its
 * `timeout`, so `ralph install` writes a Stop timeout that covers the
 * configured stop (completion, quality and metric commands, plus ralph's
 * own work), and `ralph start --completion-timeout` above the installed
 * one is refused with what to do. Units, then the commands.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneDefaultConfig } from "../../src/config/schema.js";
import { addRalphHooks, installedStopTimeoutSec } from "../../src/hooks/claude-settings.js";
import { STOP_OVERHEAD_MS, stopHookBudgetMs } from "../../src/loop/settings.js";
import { parseJsonOutput, runRalph, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

describe("the Stop hook's budget (unit)", () => {
  it("covers the completion command, the quality and metric commands configured, and ralph's own work", () => {
    const config = cloneDefaultConfig();
    expect(stopHookBudgetMs(config, 60_000)).toBe(60_000 + STOP_OVERHEAD_MS);
    config.loop.quality_command = "node q.mjs";
    config.metrics.typescript.command = "npx tsc --noEmit";
    expect(stopHookBudgetMs(config, 900_000)).toBe(900_000 + config.loop.quality_timeout_ms + config.metrics.typescript.timeout_ms + STOP_OVERHEAD_MS);
  });

  it("writes the Stop timeout it is given, 600 s at the least, and reads it back", () => {
    const settings = addRalphHooks({}, "/usr/bin/node", "/opt/ralph/cli.js", { stopTimeoutSec: 1_020 });
    expect(installedStopTimeoutSec(settings)).toBe(1_020);
    expect(installedStopTimeoutSec(addRalphHooks({}, "/usr/bin/node", "/opt/ralph/cli.js"))).toBe(600);
    expect(installedStopTimeoutSec({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done", timeout: 5 }] }] } })).toBeNull();
  });
});

function stopTimeoutOf(repo: string): number | null {
  return installedStopTimeoutSec(JSON.parse(readFileSync(join(repo, ".claude", "settings.json"), "utf8")) as Record<string, unknown>);
}

describe("ralph install and ralph start (the first case through the built CLI, the others in-process)", () => {
  it("install sizes the Stop timeout to cover loop.completion_timeout_ms", () => {
    const repo = makeRepo({ "aiwg.yml": "agent_persistence:\n  loop:\n    completion_timeout_ms: 900000\n" });
    const r = runRalph(repo, ["install", "--claude", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(stopTimeoutOf(repo)).toBe(Math.ceil((900_000 + STOP_OVERHEAD_MS) / 1000));
    expect(parseJsonOutput<{ stop_timeout_sec: number }>(r).stop_timeout_sec).toBe(stopTimeoutOf(repo));
  });

  it("start refuses a --completion-timeout the installed Stop hook does not cover, and says what to do", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect((await runRalphInProcess(repo, ["install", "--claude"])).status).toBe(0);
    expect(stopTimeoutOf(repo)).toBe(600);
    const refused = await runRalphInProcess(repo, ["start", "the task", "--completion", "npm test", "--completion-timeout", "900000", "--json"]);
    expect(refused.status).toBe(2);
    const error = parseJsonOutput<{ error: { code: string; message: string } }>(refused).error;
    expect(error.code).toBe("E_USAGE");
    expect(error.message).toMatch(/600 s/);
    expect(error.message).toMatch(/ralph install --claude/);
    // Nothing was started.
    expect((await runRalphInProcess(repo, ["status", "--json"])).stdout).not.toContain('"running"');
    const fits = await runRalphInProcess(repo, ["start", "the task", "--completion", "npm test", "--completion-timeout", String(600_000 - STOP_OVERHEAD_MS), "--json"]);
    expect(fits.status, fits.stderr).toBe(0);
  });

  it("a larger loop.completion_timeout_ms written after install is refused too, and install again makes it fit", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect((await runRalphInProcess(repo, ["install", "--claude"])).status).toBe(0);
    writeFileSync(join(repo, "aiwg.yml"), "agent_persistence:\n  loop:\n    completion_timeout_ms: 1200000\n");
    expect((await runRalphInProcess(repo, ["start", "the task", "--completion", "npm test"])).status).toBe(2);
    expect((await runRalphInProcess(repo, ["install", "--claude"])).status).toBe(0);
    const r = await runRalphInProcess(repo, ["start", "the task", "--completion", "npm test"]);
    expect(r.status, r.stderr).toBe(0);
  });

  it("without Claude hooks installed, any --completion-timeout is accepted (a shell-driven loop has no hook timeout)", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect((await runRalphInProcess(repo, ["start", "the task", "--completion", "npm test", "--completion-timeout", "900000"])).status).toBe(0);
  });
});
