import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "@babel/parser";
import { describe, expect, it } from "vitest";
import { canonicalJson, HASH_SKIP_KEYS } from "../../src/analysis/languages/javascript.js";

/** The definition canonicalJson must match byte for byte: body hashes stay what they were. */
const reference = (node: unknown): string => JSON.stringify(node, (key, value: unknown) => (HASH_SKIP_KEYS.has(key) ? undefined : value)) ?? "";

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe("canonicalJson", () => {
  it("is the JSON.stringify-with-replacer text of every statement of ralph's own sources", () => {
    const files = sourceFiles(join(__dirname, "../../src/analysis"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const ast = parse(readFileSync(file, "utf8"), { sourceType: "module", plugins: ["typescript"], attachComment: true });
      for (const statement of ast.program.body) expect(canonicalJson(statement as never)).toBe(reference(statement));
    }
  });

  it("matches on values JSON treats specially: non-finite numbers, -0, undefined in arrays and objects, escapes, toJSON", () => {
    const odd = {
      type: "X",
      nan: Number.NaN,
      inf: -Infinity,
      negZero: -0,
      big: 1e21,
      small: 5e-7,
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 2, Symbol("s"), null, 'q"\u2028\n'],
      start: 3,
      loc: { line: 1 },
      nested: { extra: { raw: "1" }, value: 1, leadingComments: [] },
      date: new Date(0),
      withToJson: { toJSON: () => ({ start: 1, kept: true }) },
    };
    expect(canonicalJson(odd as never)).toBe(reference(odd));
    expect(canonicalJson(null)).toBe("");
  });
});
