import { describe, expect, it } from "vitest";
import { parseAllowTrailer } from "../../src/loop/check.js";

describe("Ralph-Allow trailers", () => {
  const table: [string, ReturnType<typeof parseAllowTrailer>][] = [
    ["test_deletion feature X was removed", { type: "test_deletion", reason: "feature X was removed" }],
    ["test_disabled path=fixtures/** fixture trees hold deliberate .only cases", { type: "test_disabled", path: "fixtures/**", reason: "fixture trees hold deliberate .only cases" }],
    ["* path=src/legacy.ts rewritten", { type: "*", path: "src/legacy.ts", reason: "rewritten" }],
    ["test_deletion", { type: "test_deletion", reason: "(no reason given)" }],
    ["not_a_type because", null],
  ];
  for (const [value, expected] of table) it(value, () => expect(parseAllowTrailer(value)).toEqual(expected));
});
