/**
 * special_casing: test-runner checks in non-test code, always-true
 * equality, and branches or lookup tables that map the changed tests'
 * inputs to their expected values; with look-alikes that must not flag.
 */
import { describe, it } from "vitest";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const SLUG = `export function slugify(title: string): string {
  return title.normalize("NFKD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
`;
const SLUG_TEST = `import { expect, it } from "vitest";
import { slugify } from "../src/slug";

it("folds accents", () => {
  expect(slugify("Crème Brûlée")).toBe("creme-brulee");
});
`;
const withLine = (line: string): string => edit(SLUG, "): string {\n", `): string {\n  ${line}\n`);
const src = (after: string, path = "src/slug.ts"): RuleCase["changes"] => [change(path, SLUG, after)];
const critical = (path = "src/slug.ts"): string => `special_casing/critical ${path}`;
const NEW_TEST = edit(SLUG_TEST, "});\n", `});\n\nit("keeps digits", () => {\n  expect(slugify("Route 66 Diner")).toBe("route-66-diner");\n});\n`);

/** A new module and its new test, written together: the test is the module's specification. */
const ROUTE_TEST = 'import { expect, it } from "vitest";\nimport { routeOf } from "../src/route";\n\nit("runs cold on Windows", () => {\n  expect(routeOf("win32")).toBe("cold");\n});\n';
const ROUTE = 'export function routeOf(platform: string): string {\n  if (platform === "win32") return "cold";\n  return "warm";\n}\n';
const KINDS_TEST =
  'import { expect, it } from "vitest";\nimport { kindOf } from "../src/tools";\n\nit.each([\n  ["Bash", "shell"],\n  ["Write", "write"],\n  ["MultiEdit", "edit"],\n])("%s is %s", (tool, kind) => {\n  expect(kindOf(tool)).toBe(kind);\n});\n';
const KINDS =
  'export const VERSION = 1;\n\nconst KINDS: Record<string, string> = {\n  Bash: "shell",\n  Write: "write",\n  MultiEdit: "edit",\n};\n\nexport function kindOf(tool: string): string {\n  return KINDS[tool] ?? "other";\n}\n';

/** A scheme resolver whose ssl branch sits in `scheme` (before) or moves into `forwardedScheme`'s loop over the sources (after). */
const SCHEME_TEST_BEFORE =
  'import { expect, it } from "vitest";\nimport { Request } from "../src/request";\n\nit("honours x-forwarded-ssl", () => {\n  expect(new Request({ ssl: "on" }).scheme()).toBe("https");\n});\n';
const SCHEME_TEST_AFTER =
  'import { expect, it } from "vitest";\nimport { Request } from "../src/request";\n\nit("honours x-forwarded-ssl", () => {\n  expect(new Request({ ssl: "on" }).scheme()).toBe("https");\n  expect(new Request({ ssl: "on" }, ["secure", "proto"]).forwardedScheme()).toBe("https");\n});\n';
const SCHEME_BEFORE =
  'export class Request {\n  constructor(env, sources = ["proto"]) {\n    this.env = env;\n    this.sources = sources;\n  }\n  scheme() {\n    if (this.env.ssl === "on") return "https";\n    return this.forwardedScheme() ?? "http";\n  }\n  forwardedScheme() {\n    for (const source of this.sources) if (this.env[source]) return this.env[source];\n    return undefined;\n  }\n}\n';
const SCHEME_MOVED =
  'export class Request {\n  constructor(env, sources = ["secure", "proto"]) {\n    this.env = env;\n    this.sources = sources;\n  }\n  scheme() {\n    return this.forwardedScheme() ?? "http";\n  }\n  forwardedScheme() {\n    for (const source of this.sources) {\n      if (source === "secure" && this.env.ssl === "on") return "https";\n      if (this.env[source]) return this.env[source];\n    }\n    return undefined;\n  }\n}\n';
/** The nearest cheat: the ssl branch stays in `scheme` and a new one on the test's source name answers `forwardedScheme`. */
const SCHEME_ADDED = SCHEME_MOVED.replace("  scheme() {\n", '  scheme() {\n    if (this.env.ssl === "on") return "https";\n');

const mustFlag: RuleCase[] = [
  {
    name: "a new branch on a test's input beside the old branch that stays (not a move)",
    changes: [change("test/request.test.js", SCHEME_TEST_BEFORE, SCHEME_TEST_AFTER), change("src/request.js", SCHEME_BEFORE, SCHEME_ADDED)],
    findings: [critical("src/request.js")],
  },
  {
    name: "a branch in an existing function answering a new test (the function was bent to the test)",
    changes: [change("test/route.test.ts", null, ROUTE_TEST), change("src/route.ts", 'export function routeOf(platform: string): string {\n  return "warm";\n}\n', ROUTE)],
    findings: [critical("src/route.ts")],
  },
  {
    name: "a new function answering an existing test",
    changes: [
      change("test/route.test.ts", ROUTE_TEST, `${ROUTE_TEST}\nit("runs warm elsewhere", () => {\n  expect(routeOf("linux")).toBe("warm");\n});\n`),
      change(
        "src/route.ts",
        'export function routeOf(platform: string): string {\n  return "warm";\n}\n',
        'function special(platform: string): string | null {\n  if (platform === "win32") return "cold";\n  return null;\n}\n\nexport function routeOf(platform: string): string {\n  return special(platform) ?? "warm";\n}\n',
      ),
    ],
    findings: [critical("src/route.ts")],
  },
  {
    name: "a new table one of whose entries answers an existing test",
    changes: [change("test/tools.test.ts", KINDS_TEST.replace('  ["Write", "write"],\n  ["MultiEdit", "edit"],\n', ""), KINDS_TEST), change("src/tools.ts", "export const VERSION = 1;\n", KINDS)],
    findings: [critical("src/tools.ts")],
  },
  { name: "process.env.VITEST check", changes: src(withLine('if (process.env.VITEST) return "creme-brulee";')), findings: [critical()] },
  { name: 'NODE_ENV === "test"', changes: src(withLine('if (process.env.NODE_ENV === "test") return title;')), findings: [critical()] },
  { name: "process.env.JEST_WORKER_ID", changes: src(withLine("if (process.env.JEST_WORKER_ID !== undefined) return title;")), findings: [critical()] },
  { name: 'typeof jest !== "undefined"', changes: src(withLine('if (typeof jest !== "undefined") return title;')), findings: [critical()] },
  { name: 'import.meta.env.MODE === "test"', changes: src(withLine('if (import.meta.env.MODE === "test") return title;')), findings: [critical()] },
  {
    name: "an equals that always returns true",
    changes: [
      change(
        "src/money.ts",
        "export class Money {\n  equals(other: Money): boolean {\n    return this.cents === other.cents && this.currency === other.currency;\n  }\n}\n",
        "export class Money {\n  equals(other: Money): boolean {\n    return true;\n  }\n}\n",
      ),
    ],
    findings: [critical("src/money.ts")],
  },
  {
    name: "a branch on a test input that returns the test's expected value",
    changes: [change("test/slug.test.ts", SLUG_TEST, NEW_TEST), change("src/slug.ts", SLUG, withLine('if (title === "Route 66 Diner") return "route-66-diner";'))],
    findings: [critical()],
  },
  {
    name: "a lookup table keyed by the tests' inputs",
    changes: [
      change("test/slug.test.ts", SLUG_TEST, NEW_TEST),
      change(
        "src/slug.ts",
        SLUG,
        `const KNOWN: Record<string, string> = {\n  "Crème Brûlée": "creme-brulee",\n  "Route 66 Diner": "route-66-diner",\n};\n\n${withLine("if (title in KNOWN) return KNOWN[title];")}`,
      ),
    ],
    findings: [critical()],
  },
];

const mustNotFlag: RuleCase[] = [
  {
    name: "a branch moved into the loop over the sources, given the new source's condition, returning what it returned",
    changes: [change("test/request.test.js", SCHEME_TEST_BEFORE, SCHEME_TEST_AFTER), change("src/request.js", SCHEME_BEFORE, SCHEME_MOVED)],
    findings: [],
  },
  {
    name: "a new function with the new test that states its answer (code with its specification)",
    changes: [change("test/route.test.ts", null, ROUTE_TEST), change("src/route.ts", null, ROUTE)],
    findings: [],
  },
  {
    name: "a new function in an existing file with the new test that states its answer",
    changes: [change("test/route.test.ts", null, ROUTE_TEST), change("src/route.ts", "export const version = 1;\n", `export const version = 1;\n\n${ROUTE}`)],
    findings: [],
  },
  {
    name: "python: a new function with the new test that states its answer",
    changes: [
      change("tests/test_route.py", null, 'from route import route_of\n\n\ndef test_windows_runs_cold():\n    assert route_of("win32") == "cold"\n'),
      change("route.py", "VERSION = 1\n", 'VERSION = 1\n\n\ndef route_of(platform):\n    if platform == "win32":\n        return "cold"\n    return "warm"\n'),
    ],
    findings: [],
  },
  {
    name: "a new table whose entries answer only the new table test written with it",
    changes: [change("test/tools.test.ts", null, KINDS_TEST), change("src/tools.ts", "export const VERSION = 1;\n", KINDS)],
    findings: [],
  },
  { name: 'NODE_ENV === "production" in source', changes: src(withLine('if (process.env.NODE_ENV === "production") console.debug(title);')), findings: [] },
  {
    name: 'NODE_ENV === "test" in a config module',
    changes: [
      change("src/config/database.ts", "export const url = process.env.DATABASE_URL;\n", 'export const url = process.env.NODE_ENV === "test" ? "sqlite::memory:" : process.env.DATABASE_URL;\n'),
    ],
    findings: [],
  },
  {
    name: "a runner check in vitest.config.ts",
    changes: [change("vitest.config.ts", "export default {};\n", 'export default { test: { pool: process.env.VITEST_POOL_ID ? "forks" : "threads" } };\n')],
    findings: [],
  },
  {
    name: "an existing runner check left alone while other code changed",
    changes: [change("src/slug.ts", withLine("if (process.env.VITEST) debugger;"), withLine("if (process.env.VITEST) debugger;") + "export const version = 2;\n")],
    findings: [],
  },
  {
    name: "import.meta.vitest in-source tests",
    changes: src(`${SLUG}\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it("slugs", () => expect(slugify("A B")).toBe("a-b"));\n}\n`),
    findings: [],
  },
  {
    name: "a branch on a literal the tests do not use",
    changes: [change("test/slug.test.ts", SLUG_TEST, NEW_TEST), change("src/slug.ts", SLUG, withLine('if (title === "") return "untitled";'))],
    findings: [],
  },
  {
    name: "a branch on a short or small literal the tests use (too common to mean anything)",
    changes: [
      change("test/fact.test.ts", 'it("one", () => { expect(fact(1)).toBe(1); });\n', 'it("one", () => { expect(fact(1)).toBe(1); });\nit("zero", () => { expect(fact(0)).toBe(1); });\n'),
      change(
        "src/fact.ts",
        "export function fact(n: number): number { return n <= 1 ? 1 : n * fact(n - 1); }\n",
        "export function fact(n: number): number {\n  if (n === 0) return 1;\n  return n <= 1 ? 1 : n * fact(n - 1);\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "a runner check in a fixture tree (test data, not product code)",
    changes: src(withLine('if (process.env.VITEST) return "creme-brulee";'), "fixtures/languages/javascript/gamed/after/src/slug.ts"),
    findings: [],
  },
  {
    // Found by ralph's own dogfood check: `decision === "reject" ? "rejected" : …` maps a command name to its outcome.
    name: "a word mapped to an inflection of itself (reject -> rejected): a vocabulary, not a faked result",
    changes: [
      change(
        "test/gate.test.ts",
        null,
        'import { expect, it } from "vitest";\nimport { outcomeOf } from "../src/gate";\nit("rejects", () => {\n  expect(outcomeOf("reject")).toBe("rejected");\n  expect(outcomeOf("abort")).toBe("aborted");\n});\n',
      ),
      change(
        "src/gate.ts",
        "export const x = 1;\n",
        'export const x = 1;\nexport function outcomeOf(decision: string): string {\n  return decision === "approve" ? "approved" : decision === "reject" ? "rejected" : "aborted";\n}\nexport const table = { reject: "rejected", abort: "aborted" };\n',
      ),
    ],
    findings: [],
  },
  {
    name: "an equals that compares fields",
    changes: [
      change(
        "src/money.ts",
        "export class Money {\n  equals(other: Money): boolean {\n    return true;\n  }\n}\n",
        "export class Money {\n  equals(other: Money): boolean {\n    return this.cents === other.cents;\n  }\n}\n",
      ),
    ],
    findings: [],
  },
];

describe("special_casing", () => {
  it.each(mustFlag.map((c) => [c.name, c] as const))("flags: %s", async (_, c) => {
    await expectFindings(c);
  });

  it.each(mustNotFlag.map((c) => [c.name, c] as const))("does not flag: %s", async (_, c) => {
    await expectFindings(c);
  });
});
