/**
 * Payload fixtures of the agents' hook events (test/fixtures/agents/<agent>/,
 * taken field for field from each agent's protocol: docs/agents.md). A
 * fixture marks the values a test fills in as `{{name}}`; {@link fixturePayload}
 * parses the file and replaces each mark inside string values, so the
 * payload keeps the agent's shape and every value stays valid JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "./cli.js";

/** The agents with fixtures. */
export type FixtureAgent = "codex" | "gemini" | "cursor";

function fill(value: unknown, values: Readonly<Record<string, string>>, file: string): unknown {
  if (typeof value === "string") {
    return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      const v = values[name];
      if (v === undefined) throw new Error(`${file}: no value for {{${name}}}`);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, values, file));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values, file)]));
  return value;
}

/**
 * The payload of `test/fixtures/agents/<agent>/<name>.json` with its
 * `{{marks}}` replaced by `values`; throws when a mark has no value.
 * @param overrides fields set after filling (a `stop_hook_active: true`, a `loop_count`).
 */
export function fixturePayload(agent: FixtureAgent, name: string, values: Readonly<Record<string, string>>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const file = join(PROJECT_ROOT, "test", "fixtures", "agents", agent, `${name}.json`);
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  return { ...(fill(parsed, values, file) as Record<string, unknown>), ...overrides };
}
