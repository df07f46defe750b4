/**
 * The cheat suite (issue 9): every case under fixtures/cheats/<lang>/<case>/ runs through
 * analyzeChanges as `ralph check` judges a change (changed files, the files identical on both
 * sides read on demand, and both trees for the runners' configs). A cheat meets its expectation when it is caught with the right
 * finding type (a critical/high finding of a type listed in the case's expected.json, on its file
 * when one is named, and a BLOCK verdict); a legitimate look-alike meets it when it is not blocked.
 * The issue's bar is every case meeting it (at least 95% of the cheats, no look-alike blocked).
 * Until then fixtures/cheats/open.json names the cases that do not, and this test is a ratchet:
 * every other case must meet its expectation, and a listed case that starts to meet it fails the
 * test until it leaves the list, so the list only shrinks. The scoring is
 * scripts/cheats/score.mjs, shared with `node scripts/cheats.mjs`, which runs the same cases
 * through a built cli on real git repositories and prints the score per language and class.
 */
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { analyzeChanges } from "../../src/analysis/index.js";
import { readFileSync } from "node:fs";
import { judgeCase, listCases, type CaseOutcome, type CheatCase } from "../../scripts/cheats/score.mjs";
import { diffFolders, expectedSchema, folderTree, unchangedInFolders } from "../helpers/fixture-trees.js";

const SUITE = resolve(dirname(fileURLToPath(import.meta.url)), "../../fixtures/cheats");
const LANGUAGES = ["csharp", "go", "java", "javascript", "php", "python", "ruby", "rust"] as const;
const MIN_CHEATS_PER_LANGUAGE = 8;

/** A cheat-suite expected.json: the fixture-tree fields plus the case's kind and class. */
const cheatExpectedSchema = expectedSchema.extend({
  kind: z.enum(["cheat", "legit"]),
  class: z.string().min(1),
});

const cases = listCases(SUITE);

/** fixtures/cheats/open.json: the cases that do not meet their expectation yet, with the outcome last seen. */
const openSchema = z.object({
  about: z.string(),
  measured: z.object({ cheats: z.number(), caught: z.number(), legit: z.number(), blocked: z.number() }),
  cases: z.record(z.string(), z.enum(["missed", "wrong-type", "blocked"])),
});
const open = openSchema.parse(JSON.parse(readFileSync(join(SUITE, "open.json"), "utf8")));

/** True when a judged case does what its kind promises: a cheat caught with the right type, a look-alike not blocked. */
function meetsExpectation(result: Judged): boolean {
  return result.expected.kind === "cheat" ? result.outcome === "caught" : result.outcome !== "blocked";
}

interface Judged {
  lang: string;
  name: string;
  expected: CheatCase["expected"];
  outcome: CaseOutcome;
  verdict: string;
  blocking: { type: string; severity: string; file: string; message: string }[];
}

/** One line per case for a failure message: outcome, case, class and what blocked. */
function describeCase(result: Judged): string {
  const blocking = result.blocking.map((finding) => `${finding.severity} ${finding.type} ${finding.file}`).join("; ");
  return `${result.outcome} ${result.lang}/${result.name} [${result.expected.class}] ${result.verdict}${blocking ? `: ${blocking}` : ""}`;
}

describe("cheat suite", () => {
  it("has at least 8 cheats in every language and as many look-alikes as cheats", () => {
    for (const lang of LANGUAGES) {
      const cheats = cases.filter((testCase) => testCase.lang === lang && testCase.expected.kind === "cheat");
      expect(cheats.length, `${lang} cheats`).toBeGreaterThanOrEqual(MIN_CHEATS_PER_LANGUAGE);
    }
    const cheats = cases.filter((testCase) => testCase.expected.kind === "cheat").length;
    const legit = cases.filter((testCase) => testCase.expected.kind === "legit").length;
    expect(legit).toBeGreaterThanOrEqual(cheats);
  });

  it.each(cases.map((testCase) => [`${testCase.lang}/${testCase.name}`, testCase] as const))("%s has a valid expected.json and a change", (_, testCase) => {
    const expected = cheatExpectedSchema.parse(testCase.expected);
    expect(expected.verdict).toBe(expected.kind === "cheat" ? "BLOCK" : "PASS");
    expect(expected.findings.length > 0).toBe(expected.kind === "cheat");
    expect(diffFolders(join(testCase.dir, "before"), join(testCase.dir, "after")).length).toBeGreaterThan(0);
  });

  describe("scored on analyzeChanges", () => {
    const results: Judged[] = [];

    beforeAll(async () => {
      for (const testCase of cases) {
        const before = join(testCase.dir, "before");
        const after = join(testCase.dir, "after");
        const analysis = await analyzeChanges(diffFolders(before, after), { allow: [], unchanged: unchangedInFolders(before, after), trees: { before: folderTree(before), after: folderTree(after) } });
        const judged = judgeCase(testCase.expected, analysis);
        results.push({ lang: testCase.lang, name: testCase.name, expected: testCase.expected, verdict: analysis.verdict, ...judged });
      }
    }, 600_000);

    it("every case outside open.json meets its expectation", () => {
      const failing = results.filter((result) => !(`${result.lang}/${result.name}` in open.cases) && !meetsExpectation(result)).map(describeCase);
      expect(failing, `cases that no longer meet their expectation:\n${failing.join("\n")}`).toEqual([]);
    });

    it("every case in open.json exists and is still open (a fixed case leaves the list)", () => {
      const byId = new Map(results.map((result) => [`${result.lang}/${result.name}`, result]));
      const unknown = Object.keys(open.cases).filter((id) => !byId.has(id));
      expect(unknown, "open.json names cases the suite does not have").toEqual([]);
      const fixed = Object.keys(open.cases).filter((id) => meetsExpectation(byId.get(id) as Judged));
      expect(fixed, `these cases now meet their expectation: remove them from fixtures/cheats/open.json`).toEqual([]);
    });
  });
});
