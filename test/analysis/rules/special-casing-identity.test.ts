/**
 * Found by running ralph on its own change: `env.X === "ask" ? "ask" : "deny"`
 * (a setting validated against its allowed values) was reported as
 * special_casing because a test passes "ask" and expects "ask". A branch
 * that returns the very literal it compared is a whitelist, not a faked
 * result; the same branch returning a different expected value still flags.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const SETTINGS = `export function decisionFrom(env: Record<string, string | undefined>): "deny" | "ask" {
  return "deny";
}
`;
const SETTINGS_TEST = `import { expect, it } from "vitest";
import { decisionFrom } from "../src/settings";

it("asks when configured", () => {
  expect(decisionFrom({ MODE: "ask" })).toBe("ask");
});
`;

describe("special_casing: a branch that returns the literal it compared", () => {
  it("does not flag a whitelist (the compared literal is the returned one)", async () => {
    await expectFindings({
      name: "whitelist",
      changes: [change("test/settings.test.ts", null, SETTINGS_TEST), change("src/settings.ts", SETTINGS, SETTINGS.replace('return "deny";', 'return env.MODE === "ask" ? "ask" : "deny";'))],
      findings: [],
    });
  });

  it("still flags a branch on a test input that returns a different expected value", async () => {
    await expectFindings({
      name: "faked result",
      changes: [
        change("test/settings.test.ts", null, SETTINGS_TEST.replace('toBe("ask")', 'toBe("ask-human")')),
        change("src/settings.ts", SETTINGS, SETTINGS.replace('return "deny";', 'if (env.MODE === "ask") return "ask-human";\n  return "deny";')),
      ],
      findings: ["special_casing/critical src/settings.ts"],
    });
  });
});
