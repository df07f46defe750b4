/**
 * cac's parsed options are untrusted (STYLE.md §3): it duplicates kebab and
 * camel keys, turns repeated flags into arrays and number-like strings into
 * numbers. {@link normalizeOptions} undoes that before a command's zod
 * schema validates the result; unknown keys are rejected by the schema.
 * Commands use `zod/mini` (tree-shaken: ~10 ms of start-up instead of ~50 ms
 * for classic zod), since every hook call is a fresh process.
 */
import * as z from "zod/mini";
import { RalphError } from "../errors.js";

const MARK = "\u0001";
const unmark = (v: unknown): unknown => (typeof v === "string" && v.startsWith(MARK) ? v.slice(1) : v);

/**
 * Drops cac's `--` key and kebab-case duplicates of camelCase keys, keeps
 * the last of repeated flags, and removes the mark that protected string
 * values from cac's number conversion (program.ts protectStringValues).
 */
export function normalizeOptions(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "--") continue;
    if (key.includes("-")) {
      const camel = key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      if (camel in raw) continue;
    }
    out[key] = unmark(Array.isArray(value) ? value[value.length - 1] : value);
  }
  return out;
}

/** A string option that cac may have turned into a number (e.g. `--loop 123`). */
export const stringOption = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((v: string | number) => String(v)),
);

/** A positive integer option (cac may give a number or a string). */
export const positiveIntOption = numberOption({ integer: true, min: 1 });

/**
 * A numeric option written in decimal (`7`, `72.5`), within `min`..`max`
 * (inclusive). Rejected with a message that gives the range: a flag with no
 * value (cac gives `true`), an empty value, hex, exponents, signs and
 * anything else that is not plain decimal digits.
 */
export function numberOption(spec: { integer?: boolean; min?: number; max?: number }) {
  const kind = spec.integer ? "a whole number" : "a number";
  const range =
    spec.min !== undefined && spec.max !== undefined
      ? ` from ${spec.min} to ${spec.max}`
      : spec.min !== undefined
        ? ` of at least ${spec.min}`
        : spec.max !== undefined
          ? ` of at most ${spec.max}`
          : "";
  const expected = `${kind}${range}`;
  const pattern = spec.integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  return z.pipe(
    z.union([z.string(), z.number(), z.boolean()]),
    z.transform((value: string | number | boolean, ctx) => {
      const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
      const n = pattern.test(text) ? Number(text) : Number.NaN;
      if (Number.isNaN(n) || (spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        const got = typeof value === "boolean" ? "no value" : JSON.stringify(value);
        ctx.issues.push({ code: "custom", message: `expected ${expected}, got ${got}`, input: value });
        return z.NEVER;
      }
      return n;
    }),
  );
}

/** Parses normalized options with a schema; errors become E_USAGE naming the option. */
export function parseOptions<T extends z.ZodMiniType>(schema: T, raw: Record<string, unknown>, command: string): z.output<T> {
  const result = schema.safeParse(normalizeOptions(raw));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join(".") ?? "";
  const flag = path ? `--${path.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : "options";
  const message =
    issue?.code === "unrecognized_keys"
      ? `unknown option ${issue.keys.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ")} for 'ralph ${command}'; see 'ralph ${command} --help'`
      : issue?.code === "invalid_value"
        ? `bad value for ${flag}: use one of ${issue.values.map(String).join(", ")}`
        : `bad value for ${flag}: ${issue?.message ?? "invalid"}; see 'ralph ${command} --help'`;
  throw new RalphError("E_USAGE", message, { data: { command, issues: result.error.issues.length } });
}
