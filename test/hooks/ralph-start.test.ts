/**
 * runsRalphStart: which Bash commands start a ralph loop (so the PreToolUse
 * hook records the agent's session as the loop's owner). A table of
 * command lines, as the agent's Bash tool sends them.
 */
import { describe, expect, it } from "vitest";
import { runsRalphStart } from "../../src/hooks/ralph-start.js";

describe("runsRalphStart", () => {
  it.each([
    "ralph start 'fix the tests' --completion 'npm test'",
    "npx ralph start fix --completion 'npm test'",
    "pnpm exec ralph start fix --completion 'npm test'",
    "bunx ralph start fix --completion true",
    "node /opt/ralph/dist/cli.js start fix --completion true",
    "node ./node_modules/ralph/dist/cli.js --json start fix --completion true",
    "/usr/local/bin/ralph start fix --completion true",
    "cd app && ralph start fix --completion true",
    "RALPH_DEBUG=1 ralph start fix --completion true",
    "git status; ralph start fix --completion true | tee start.log",
    "(cd app; exec ralph start fix --completion true)",
  ])("starts a loop: %s", (command) => {
    expect(runsRalphStart(command)).toBe(true);
  });

  it.each(["ralph status", "ralph startup", "grep -rn 'ralph start' README.md", 'echo "run ralph start later"', "npx ralphy start", "node scripts/start.js", "git log --grep 'ralph start'", ""])(
    "does not: %s",
    (command) => {
      expect(runsRalphStart(command)).toBe(false);
    },
  );
});
