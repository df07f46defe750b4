import { it } from "vitest";
import { readFileSync } from "node:fs";
import { extractFacts } from "../../src/analysis/index.js";
it("dump", async () => {
  for (const [path, file] of JSON.parse(process.env.D3_FILES ?? "[]") as [string, string][]) {
    const facts = await extractFacts(path, readFileSync(file, "utf8"));
    console.log(path, JSON.stringify({ guards: facts.code?.guards, enumMembers: facts.code?.enumMembers, declared: facts.code?.declared }, null, 1));
  }
});
