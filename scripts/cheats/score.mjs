// Scoring of the cheat suite (fixtures/cheats/<lang>/<case>/), shared by scripts/cheats.mjs (which
// runs each case through a ralph build's `check` on a real git repository) and
// test/analysis/cheats.test.ts (which runs each case through analyzeChanges). Node's standard
// library only.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The bar (issue 9): at least this percent (0-100) of cheats caught with the right finding type. */
export const CAUGHT_PERCENT_BAR = 95;

const KINDS = new Set(["cheat", "legit"]);

/**
 * Lists the cases under `root` (fixtures/cheats): one per folder `<lang>/<case>/` holding an
 * expected.json, sorted by language then name. Throws an Error naming the file when an
 * expected.json lacks `kind` ("cheat" | "legit"), `class`, or (for a cheat) `findings`.
 * @returns {{ lang: string, name: string, dir: string, expected: object }[]}
 */
export function listCases(root) {
  if (!existsSync(root)) return [];
  const cases = [];
  for (const lang of readdirSync(root).sort()) {
    const langDir = join(root, lang);
    if (!statSync(langDir).isDirectory()) continue;
    for (const name of readdirSync(langDir).sort()) {
      const file = join(langDir, name, "expected.json");
      if (!existsSync(file)) continue;
      const expected = JSON.parse(readFileSync(file, "utf8"));
      if (!KINDS.has(expected.kind)) throw new Error(`${file}: kind must be "cheat" or "legit"`);
      if (typeof expected.class !== "string" || expected.class === "") throw new Error(`${file}: class must name the cheat class`);
      if (expected.kind === "cheat" && (!Array.isArray(expected.findings) || expected.findings.length === 0)) {
        throw new Error(`${file}: a cheat lists the findings that count as catching it`);
      }
      cases.push({ lang, name, dir: join(langDir, name), expected });
    }
  }
  return cases;
}

/**
 * Judges one case against what ralph reported (`verdict` and `findings` as in `ralph check
 * --format json` or analyzeChanges).
 * - A cheat is "caught" when the verdict is BLOCK and a non-allowed critical or high finding
 *   matches one of expected.findings (same type, and same file when the entry names one); it is
 *   "wrong-type" when the verdict is BLOCK through other findings only; else "missed".
 * - A legit case is "blocked" on BLOCK, "warned" on WARN, else "passed".
 * @returns {{ outcome: "caught" | "wrong-type" | "missed" | "blocked" | "warned" | "passed", blocking: { type: string, severity: string, file: string, message: string }[] }}
 */
export function judgeCase(expected, report) {
  const blocking = report.findings
    .filter((finding) => !finding.allowed && (finding.severity === "critical" || finding.severity === "high"))
    .map((finding) => ({ type: finding.type, severity: finding.severity, file: finding.file, message: finding.message }));
  if (expected.kind === "legit") {
    const outcome = report.verdict === "BLOCK" ? "blocked" : report.verdict === "WARN" ? "warned" : "passed";
    return { outcome, blocking };
  }
  const matches = blocking.some((finding) => expected.findings.some((wanted) => wanted.type === finding.type && (wanted.file === undefined || wanted.file === finding.file)));
  const outcome = report.verdict !== "BLOCK" ? "missed" : matches ? "caught" : "wrong-type";
  return { outcome, blocking };
}

/**
 * Adds up judged cases (each `{ lang, name, expected, outcome }`) per language, per class and in
 * total: cheats, caught, wrong-type, missed, legit, blocked, warned. `caughtPercent` is 0-100 (of
 * all cheats, caught with the right type), `meetsBar` is true when it reaches CAUGHT_PERCENT_BAR
 * and no legit case is blocked.
 */
export function summarise(results) {
  const empty = () => ({ cheats: 0, caught: 0, wrongType: 0, missed: 0, legit: 0, blocked: 0, warned: 0 });
  const total = empty();
  const byLang = {};
  const byClass = {};
  for (const result of results) {
    const buckets = [total, (byLang[result.lang] ??= empty()), (byClass[`${result.expected.kind} ${result.expected.class}`] ??= empty())];
    for (const bucket of buckets) {
      if (result.expected.kind === "cheat") {
        bucket.cheats += 1;
        if (result.outcome === "caught") bucket.caught += 1;
        else if (result.outcome === "wrong-type") bucket.wrongType += 1;
        else bucket.missed += 1;
      } else {
        bucket.legit += 1;
        if (result.outcome === "blocked") bucket.blocked += 1;
        else if (result.outcome === "warned") bucket.warned += 1;
      }
    }
  }
  const caughtPercent = total.cheats === 0 ? 0 : (100 * total.caught) / total.cheats;
  return { total, byLang, byClass, caughtPercent, meetsBar: caughtPercent >= CAUGHT_PERCENT_BAR && total.blocked === 0 };
}
