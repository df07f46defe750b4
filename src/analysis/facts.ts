/**
 * Facts: what a language adapter extracts from one file, before any
 * comparison. Facts are plain JSON (no class instances, no undefined-only
 * meaning, no Maps) so they can be cached; the cache key must include
 * {@link EXTRACTOR_VERSION}, the blob oid and the path (the path decides the
 * language and whether a file counts as a test file).
 */

import { createHash } from "node:crypto";
import type { CollectionRules } from "./languages/collection.js";

/** Injected at build time (scripts/build.mjs) and by vitest.config.ts: scripts/facts-hash.mjs factsHash(). */
declare const RALPH_FACTS_HASH: string;

/**
 * Version of the facts shape and of every extractor's behaviour: a hash of
 * the files that determine facts (src/analysis/** minus rules/, verdict.ts
 * and display.ts; the grammars' queries, manifest and wasm sizes), computed
 * by scripts/facts-hash.mjs when the build runs, so any change to extraction
 * gets a new key and cached facts from another ralph are never reused.
 * "unbuilt" when the sources run without the build's or vitest's `define`.
 */
export const EXTRACTOR_VERSION: string = typeof RALPH_FACTS_HASH === "string" ? RALPH_FACTS_HASH : "unbuilt";

/** The flags that take a test out of the run, or focus the run on it. */
export interface TestFlags {
  /**
   * Never run: `.skip`, `xit`, `{ skip: true }`, `t.skip()`, Playwright `test.skip()`, an enclosing skipped suite,
   * a skip or an always-false assumption in a helper the test calls, in its fixture or its setup
   * (`setUp`, `@Before`, `beforeEach`, an autouse fixture), `skipif(True)`.
   */
  skipped: boolean;
  /**
   * Not run when a condition holds (and not {@link skipped}): `skipIf(cond)`, `runIf(cond)`,
   * `@pytest.mark.skipif(cond)`, `@unittest.skipUnless(cond)`, `if runtime.GOOS == "windows" { t.Skip() }`,
   * `test.skip(cond, reason)`, `Assume.assumeTrue(cond)`, `@DisabledOnOs(...)`, `#[cfg_attr(windows, ignore)]`,
   * `pytest.importorskip("mod")`, or such a skip in a helper, fixture or setup the test goes through.
   * Dropping the condition (`skipif(WIN)` -> `skip`) sets `skipped`: a test_disabled.
   */
  conditional: boolean;
  /** `.only`, `fit`, `fdescribe`, `{ only: true }`, or inside a focused suite: the other tests stop running. */
  focused: boolean;
  /** A placeholder: `.todo`, `{ todo: true }`, `t.todo()`, a mocha `it("title")` without a body. */
  todo: boolean;
  /** Expected to fail, so a failure passes: `.fails`, `.failing`, Playwright `test.fail()`. */
  failing: boolean;
}

/** Name of one flag of {@link TestFlags}. */
export type TestFlag = keyof TestFlags;

/** Every flag, in the order extractors read marks (the reason of a test is that of its first marked flag here). */
export const TEST_FLAG_ORDER: readonly TestFlag[] = ["skipped", "conditional", "todo", "failing", "focused"];

/** Flags with none set. */
export function noFlags(): TestFlags {
  return { skipped: false, conditional: false, focused: false, todo: false, failing: false };
}

/**
 * Drops `conditional` from flags (and its via) when `skipped` is set too: a
 * test that never runs is not also skipped under a condition. Mutates and
 * returns `flags`.
 */
export function settleFlags(flags: TestFlags, flagVia?: Partial<Record<TestFlag, string>>): TestFlags {
  if (flags.skipped && flags.conditional) {
    flags.conditional = false;
    if (flagVia) delete flagVia.conditional;
  }
  return flags;
}

/**
 * True when a test ran none of its checks before a change: todo, expected
 * to fail (`test.failing`, `xfail`: its checks decided no pass), or skipped
 * by a declaration that holds wherever it runs (`test.skip`, `xit`,
 * `@pytest.mark.skip`, `@Disabled`, `[Fact(Skip = …)]`). Not a skip that
 * CI can lift (a build constraint such as `//go:build integration`, run
 * with `-tags`; Rust's `#[ignore]`, run with `-- --ignored`), nor a skip
 * called at run time (`t.Skip()`, `pytest.skip()`, `ctx.skip()`), which may
 * come after checks that did run. Read from TestCase.flagVia.
 */
export function ranNoChecks(test: Pick<TestCase, "flags" | "flagVia">): boolean {
  if (test.flags.todo || test.flags.failing) return true;
  if (!test.flags.skipped) return false;
  const via = test.flagVia?.skipped ?? "";
  if (/^\/\/\s*(go:build|\+build)|^#\[ignore|\bignore\b.*\]$/.test(via)) return false;
  // A call made while the test runs (`t.Skip()`, `self.skipTest("…")`, `markTestSkipped()`), not a decorator or attribute.
  if (/^[\w$.]+\(.*\)$/s.test(via) && !/^[@[#]/.test(via)) return false;
  return true;
}

/** How a test that {@link ranNoChecks} was kept from running, for messages: `skipped (test.skip)`, `expected to fail (@pytest.mark.xfail)`, `todo`. */
export function describeNotRun(test: Pick<TestCase, "flags" | "flagVia">): string {
  if (test.flags.todo) return test.flagVia?.todo ? `todo (${test.flagVia.todo})` : "todo";
  if (test.flags.skipped) return `skipped (${test.flagVia?.skipped ?? "skipped"})`;
  return `expected to fail (${test.flagVia?.failing ?? "failing"})`;
}

/**
 * One test case as the runner would see it. A parametrised test
 * (`test.each(table)(title, fn)`) is one case with its title template;
 * `eachRows` then says how many rows its literal table has (null when the
 * table is not a literal).
 */
/**
 * One assertion inside a test case, in a language-neutral shape so the
 * comparison rules (assertion_removal, assertion_weakening,
 * expectation_changed) work the same for every language.
 */
export interface AssertionFact {
  /** 1-based line of the assertion. */
  line: number;
  /** The framework's name for it: "toBe", "toEqual", "assertEqual", "assert ==", "assert_eq!", "assertThat.isEqualTo". */
  matcher: string;
  /**
   * How much it checks, per framework (DESIGN.md assertion_weakening):
   * 3 exact equality (toBe/toEqual/toStrictEqual, assertEqual, assert a == b, assert_eq!, assertEquals, Is.EqualTo);
   * 2 partial or structural (toMatchObject/toContain, assertIn, contains, raises(SpecificError));
   * 1 truthiness or existence (toBeTruthy/toBeDefined, assertTrue(x), assert x, assert!(x), assertNotNull, raises(Exception));
   * 0 checks nothing (a tautology).
   */
  strength: 0 | 1 | 2 | 3;
  /** True when it can never fail: `expect(true).toBe(true)`, `assert True`, `assert!(true)`, `assertEquals(1, 1)`. */
  tautology: boolean;
  /** Normalised source of the expected value, when the matcher has one. */
  expected?: string;
  /** Normalised source of the value under test. */
  actual?: string;
  /**
   * When `actual` is a local name bound just before the assertion (Go's
   * `if got := Sum(in); got != want`, `got := Sum(in)`): the expression it
   * was bound to, normalised like `actual`, so the check's subject is the
   * call under test with its arguments (analysis/checks).
   */
  actualValue?: string;
  /**
   * When `actual` is a local name that the check keeps as its subject (C#,
   * Java, PHP, Rust: `var found = provider.GetService<T>(); Assert.NotNull(found)`):
   * the expression it was declared with just before, normalised like
   * `actual`. Read only to tell a local renamed (the same value under
   * another name) from a check of another value (checks/likeness.ts).
   */
  localValue?: string;
  /**
   * For a subject-less error check (Go's `if err != nil { t.Errorf(…) }`):
   * the call that `err` was bound to (`NewVersion ( tc . v1 )`), normalised
   * like `actual`. A product wrapper that panics on that call's error
   * (`MustParse`) makes the same check when the test calls it instead
   * (rules/assertions.ts).
   */
  errorOf?: string;
  /**
   * For a comparison of two locals (Go's `if id1 != id2 { t.Errorf(…) }`):
   * the calls each was bound to in the test (`NewFromReader ( r )`,
   * `NewFromReader ( r2 )`), normalised like `actual`; absent unless both
   * are calls. Two results of one function compared: a check that it
   * answers alike, which a function made stateful no longer does by design
   * (rules/assertions.ts).
   */
  comparedValues?: [string, string];
  /**
   * When `actual` reads a member or an index of a bare local (`params["a"]`,
   * `config.port`, `p.keys`) bound just before the assertion: that local and
   * the expression it was bound to, normalised like `actual` (tree-sitter
   * languages). A field check through a local is then a part of what an
   * equality of that expression checks whole (rules/assertions.ts).
   */
  actualBase?: { local: string; value: string };
  /**
   * Like `actualValue`, for `expected`: when it is a local name bound just before the
   * assertion (`let expected = vec![A, B]; assert_eq!(all, expected)`), the
   * expression it was bound to, normalised like `expected`. Read to tell an
   * equality that pins a value from one comparing two computations of it
   * (`assert_eq!(all, again)` with `again` bound to the same call).
   */
  expectedValue?: string;
  /** Negated (`.not.`, assertNotEqual): a negated check is weaker than the positive one of the same matcher. */
  negated?: boolean;
  /** True when the assertion can never run: it follows an unconditional `return` in the test body, or it checks a double ({@link AssertionFact.doubled}). */
  unreachable?: boolean;
  /**
   * When the assertion's subject calls a name its test replaced with a double
   * (a stub, a spy with a canned answer, a mocked module: analysis/doubles.ts),
   * that double as `receiver.name` (or the bare name): the check checks the
   * double, not the product.
   */
  doubled?: string;
  /**
   * True when the assertion runs only when an earlier early-return guard of
   * its function does not fire (`if (x) return;` above it in a helper's
   * body); for a helper call, when every assertion of the helper is so.
   */
  gated?: boolean;
  /** The message or pattern an error or warning check requires (`pytest.raises(E, match="bad")`, `assertRaisesRegex(E, "bad")`), normalised like `expected`. */
  message?: string;
  /**
   * When the assertion runs in a loop over a table of rows: each field read
   * of the loop's row (`test.expect`, `tc.input`) mapped to its column,
   * `row.$<position>` (the field's position in the row type, 0-based), so
   * two loops that name the row and its fields differently (`test.expect`,
   * `testCase.expected`) read the same columns (checks/coverage.ts).
   */
  rowColumns?: Record<string, string>;
  /**
   * When the assertion runs in a loop over rows of a named struct type the
   * file does not declare (Go: `for _, tc := range testCases` with
   * `testCases []testCase` and `type testCase struct` in another file of
   * the package): the loop's row name and the type's name, so the row's
   * columns are read from the file that declares it (row-types.ts).
   */
  rowType?: { row: string; type: string };
  /**
   * When the assertion runs in loops of its test over literal collections
   * only (`foreach (array('A', 'B') as $class)`, `for x in ["a", "b"]`,
   * `for (String s : List.of("a", "b"))`, the collection inline or bound to
   * a local of the test just before): how many times it runs, the product
   * of the collections' sizes. Absent when it runs in no loop, or in one
   * whose runs are not known (any other collection, a range, a spread).
   * Read by rules/assertions.ts: one check in such a loop is that many
   * checks of the values it goes through (assertions folded into a loop).
   */
  loopRows?: number;
  /**
   * The tolerance argument of an approximate equality as written, normalised
   * like `expected`: the delta of testify `InDelta`/`InEpsilon`, JUnit
   * `assertEquals(a, b, delta)`, PHPUnit `assertEqualsWithDelta`, minitest
   * `assert_in_delta`/`assert_in_epsilon`; the digits of Jest's
   * `toBeCloseTo(x, digits)` and xUnit's `Assert.Equal(a, b, precision)`.
   * What it means (absolute, relative, digits) follows from `matcher`
   * (analysis/checks/tolerance.ts). Absent when the framework's default applies.
   */
  tolerance?: string;
  /**
   * The conditions of the branches the assertion runs in within its test
   * (or helper) body, outermost first, each as canonical source
   * (checks/normalise.ts canonicalText): an `if`/`elif`/`?:`/`&&` arm's
   * condition as written, an `else` arm's negated (normalise.ts
   * negatedCondition: `a==b` -> `a!=b`, `x` -> `!x`, else `!(…)`; an
   * `elif`'s `else` adds the negation of each condition before it; Ruby's
   * `unless c` is `c` negated). `if (isWindows) { t.is(code, "EPERM") } else
   * { t.is(code, undefined) }` gives `["isWindows"]` and `["!isWindows"]`. Absent when
   * it runs in every environment its test does. Read by
   * rules/assertions.ts: a check of one branch whose subject the other
   * branch's check, kept unconditionally, still pins is re-expected, not
   * removed.
   */
  conditions?: string[];
}

/** A test's call of an imported function that may assert (TestCase.importedHelperCalls). */
export interface ImportedHelperCall {
  /** The import specifier as written (`./_utils.js`). */
  source: string;
  /** The name the module exports it under. */
  name: string;
  /** The call as the helper receives it, `name(args)` (an ava macro: `name(t, …data)`), normalised source. */
  actual: string;
  /** The call with its plain local arguments written as what they were bound to, when that differs (AssertionFact.actualValue). */
  actualValue?: string;
  /** 1-based line of the call. */
  line: number;
}

/**
 * A function of a file that declares one test running the function or
 * block it is given: a project's `deprecated(title, fn)` calling `test`
 * with the title "${title} (deprecated)" and a function that awaits
 * `fn(t)`, a spec helper's `def self.deprecated(a, &block)` calling
 * `it("#{a} (deprecated)") { …; instance_exec(&block) }`. Its one declaration is a
 * statement of the function's body (no condition picks it), and the
 * argument runs unconditionally inside it (not under a `catch`/`rescue`,
 * an `if` or a loop): a call of it is a test with the call's body
 * ({@link HelperTestFact}, analysis/defined-tests.ts). The declaration
 * itself is no test of its file.
 */
export interface TestDefinerFact {
  /** The function's name as callers call it (`deprecated`). */
  name: string;
  /** 1-based line of the function. */
  line: number;
  /** 0-based index of the parameter the declared title is made from. */
  titleParam: number;
  /** 0-based index of the parameter the test runs, or "block" for a Ruby block parameter (`&block`, `yield`). */
  bodyParam: number | "block";
  /** The declared title with `{}` where the title parameter's value goes (`{} (deprecated)`; `{}` when the parameter is the title). */
  title: string;
  /** Flags the declaration sets itself (`test.skip`, `xit`), with the construct: every test defined through the function has them. */
  flagVia?: Partial<Record<TestFlag, string>>;
  /**
   * 0-based index of the parameter holding the list the function declares
   * one test per element of (`for (const browser of browsers) test(…)`):
   * a call passing an empty list there (`[]`, HelperTestFact.emptyArguments)
   * defines no test. Absent when the test is declared once.
   */
  eachParam?: number;
}

/**
 * A call outside any test that passes a title and a body to a function
 * that may declare a test with them ({@link TestDefinerFact}): a function
 * of the same file, imported from a relative module (JS/TS), or defined by
 * a file the test file loads (Ruby). `test` is the test the call defines
 * when it does, read as a declaration's test would be: its name is the
 * title argument's text, its body the call's function or block. It is one
 * of its file's tests only once the function is found to define tests
 * (analysis/defined-tests.ts); until then it is none.
 */
export interface HelperTestFact {
  /** The function called, as the module defining it names it. */
  helper: string;
  /** JS/TS: the import specifier that binds it (`./helpers.js`); absent when the file defines it or (Ruby) a loaded file may. */
  source?: string;
  /** 0-based index of the title argument. */
  titleArgument: number;
  /** 0-based index of the function argument run as the body, or "block" for a Ruby block. */
  bodyArgument: number | "block";
  /** 0-based indexes of the arguments that are empty lists (`[]`): a definer declaring a test per element of one of them declares none (TestDefinerFact.eachParam). */
  emptyArguments?: number[];
  test: TestCase;
}

export interface TestCase {
  /** File-independent identity: suitePath and name joined with " > ". */
  id: string;
  /** The title as written: literal text, a template's raw text, or the title expression's source. */
  name: string;
  /** Titles of the enclosing suites (and parent tests, for node:test subtests), outermost first. */
  suitePath: string[];
  /** 1-based line of the call that declares the test. */
  line: number;
  /** Effective flags, including those inherited from enclosing suites. */
  flags: TestFlags;
  /** For each set flag, the construct that set it, e.g. `it.skip`, `describe.skip on suite "total"`, `t.skip()`. */
  flagVia?: Partial<Record<TestFlag, string>>;
  /** Text explaining a skip/todo: a reason string, or the comments around the skipping statement. */
  skipReason?: string;
  /**
   * For a conditional skip, its condition as source text when the extractor
   * reads it (`cbor2 is None`, `sys.platform == "win32"`, `!(RUBY_VERSION >=
   * "3.2")` for `skip unless …`); judged by checks/skip-condition.ts.
   */
  skipCondition?: string;
  /** Assertions inside this test's body (not counting nested subtests). */
  assertionCount: number;
  /** sha1 of the test body's syntax tree with positions and comments dropped, so a moved or re-indented test keeps its hash. */
  bodyHash: string;
  /**
   * Rows the test runs with: those of its literal `.each`/`.for`/parametrize
   * table (JS/TS: inline, or an array literal the file binds to a name by
   * `const`, spreads of such names expanded), times the rows of enclosing
   * `describe.each` suites; null when a table is not a literal (imported,
   * computed, changed in place); absent for ordinary tests.
   */
  eachRows?: number | null;
  /** One short hash (12 hex) per literal table row (per combination of rows under a `describe.each`), in order, so removed rows can be told apart from edited ones. */
  eachRowHashes?: string[];
  /** Each assertion of the test body, in source order (languages fill this as they grow; absent = not extracted). */
  assertionsDetail?: AssertionFact[];
  /** Assertion-looking lines inside comments of the test body (a body commented out keeps its assertions here). */
  commentedAssertions?: number;
  /** Literals the test feeds to the code (normalised: strings JSON-quoted, numbers as written), outside expected values and tables. */
  inputLiterals?: string[];
  /** Literals inside the expected values of its assertions (same normalisation as inputLiterals). */
  expectedLiterals?: string[];
  /** Imported names the test body uses (the local names of its file's imports), sorted. */
  references?: string[];
  /**
   * The product code the test declares it covers, by short name (no
   * namespace), sorted, unique: PHPUnit `#[CoversClass(X::class)]`,
   * `#[CoversFunction('f')]`, `#[CoversMethod(X::class, 'm')]` (the method),
   * `@covers X`, `@covers ::m`, `@coversDefaultClass X` on the test or its
   * class; NUnit `[TestOf(typeof(X))]` and `[TestFixture(TestOf =
   * typeof(X))]`. Absent when it declares none.
   */
  covers?: string[];
  /**
   * Its calls of functions imported from another module that may assert
   * (JS/TS: an ava macro imported or built by an imported factory, a helper
   * given the test context), in order. analysis/imported-helpers.ts resolves
   * each against that module's {@link FileFacts.assertionHelpers}: one that
   * asserts becomes a helper check of the test, as a local helper's call is.
   */
  importedHelperCalls?: ImportedHelperCall[];
  /**
   * What the test goes through that another file may define, sorted, unique
   * (languages where that reaches across files; absent elsewhere): Go, the
   * functions it calls by bare name (its package's helpers); Python, the
   * fixtures it requests (its parameter names, a conftest.py may define them).
   */
  calls?: string[];
  /** Every literal of the body (strings JSON-quoted, numbers as written), in order: what a merge into a parametrised test must keep as a row (tree-sitter languages). */
  literals?: string[];
  /**
   * The literals of the file's other functions the test calls (through
   * helpers calling helpers, by name), normalised like `literals`: what a
   * test still feeds the code when its arrange code moved into a helper
   * (tree-sitter languages; absent when none).
   */
  helperLiterals?: string[];
  /**
   * How many calls the test makes outside its assertions (product code,
   * helpers, set-up in its body; a Python test's fixtures): 0 for a test that
   * runs nothing but its checks, so one whose checks are all tautologies can
   * never fail. Absent = not counted.
   */
  callCount?: number;
  /**
   * For a test with no real check (none, or only tautologies), which still
   * guards that its calls do not throw: per statement holding a call outside
   * its assertions, what it depends on, as checkNames (the test's locals
   * and set-up resolved, the settings written on them included). A test whose every call depends on retired code
   * went with that code (rules/features.ts). Absent otherwise.
   */
  callNames?: string[][];
  /**
   * What the test body runs at its top level whatever happens, as source
   * text (at most 64 entries of at most 400 characters): each top-level
   * expression statement or declaration, and each call in one outside
   * nested functions, conditional and short-circuit branches, optional
   * chains and handlers (a `try`, `rescue`, a promise's `catch`, a Go
   * `recover`). An error any of them raises fails the test, so each is an
   * implicit "does not throw" check (checks/index.ts findDirectCallCover).
   * Absent when none is read.
   */
  directCalls?: string[];
  /**
   * True when the test declares that it exercises deprecated code: PHP
   * `@group legacy` / `#[Group('legacy')]` (the Symfony PHPUnit Bridge's
   * convention for tests of deprecated behaviour) and PHPUnit's
   * `#[IgnoreDeprecations]`; Java `@SuppressWarnings("deprecation")` or
   * `@Deprecated` on the test; Rust `#[allow(deprecated)]` on the test.
   * Absent otherwise (deprecations.ts checksDeprecation reads it).
   */
  exercisesDeprecated?: true;
  /** True when the test has no title of its own and is named by its body (RSpec `example { … }`, `it { is_expected.to … }`): editing the body renames it, so such tests pair by their order among the untitled ones of their suite (compare.ts). */
  untitled?: boolean;
  /** The literals of each parametrised row, in row order, normalised like `literals` (tree-sitter languages). */
  eachRowLiterals?: string[][];
  /**
   * The elements of each table row, in row order, as normalised source text
   * (a keyed element with its key: `less: func(x, y int) int { return x - y }`),
   * so a row's inputs can be found again in another table (a rejection row
   * whose input the change starts accepting). Languages fill this as they
   * grow (Go today); absent = not extracted.
   */
  eachRowElements?: string[][];
  /**
   * For each entry of assertionsDetail, in the same order: the names its
   * check depends on (its statement, the conditions and loop headers it runs
   * under, closed over the test's local bindings and the file's class bases),
   * sorted (parsers/tree-sitter-subjects.ts; JS/TS: the names of its subject
   * and expected value), then its other tokens (dependency-tokens.ts): literals
   * it feeds (`"ipc"`), calls with their argument counts (`Scheduler/1`) and,
   * tree-sitter languages, the settings it writes on what it builds (`Name=`:
   * `cfg.AllowAdditiveTypeMapCreation = true`, `Config(allow_additive=True)`,
   * a C# initializer's `Name = v`, a named argument, `config.setStrict(true)`
   * as `Strict=` and `strict=`, reaching each check that reads the local they
   * were written on). Read to tell a test whose checks all depended on
   * removed code from one that also checked surviving code (rules/features.ts).
   * Absent = not extracted.
   */
  checkNames?: string[][];
  /**
   * Set on a test case that a class collects from elsewhere (tree-level
   * resolution, analysis/inheritance.ts): a test method it inherits from a
   * base class, or a whole test class imported into this module (pytest
   * collects it again there). `line` of the test case is then the class's
   * (or the import's) line in its own file; this names where the method is
   * declared. Absent for a test declared where it is collected.
   */
  declaredAt?: DeclarationSite;
}

/** Where an inherited or imported test method is declared (see {@link TestCase.declaredAt}). */
export interface DeclarationSite {
  /** Repo-relative path of the file that declares the method. */
  file: string;
  /** Name path of the declaring class in that file (enclosing classes first). */
  suitePath: string[];
  /** 1-based line of the method in that file. */
  line: number;
  /** "inherited": from a base class; "imported": the collecting class is itself bound by an import. */
  reach: "inherited" | "imported";
  /**
   * True when the same class is also collected in the module that defines it,
   * so this instance is a second run of the very same test (pytest collects
   * an imported `Test*` class again in the importing module). Listed by
   * `ralph tests`, never judged: its loss loses no test.
   */
  isRepeat?: boolean;
}

/** One flag a marker sets, with the construct that set it and its reason (tree-sitter languages). */
export interface MarkFact {
  flag: TestFlag;
  /** `@pytest.mark.skip`, `@unittest.skip on class TestA`, `pytest.skip()`, `@pytest.mark.xfail on pytestmark`. */
  via: string;
  reason?: string;
}

/** A test method of a {@link ClassFact}: its test case (flags from its own marks only) and those marks. */
export interface MethodFact {
  test: TestCase;
  /** Marks on the method itself and runtime skips in its body, at most one per flag (the first wins). */
  marks: MarkFact[];
}

/**
 * One class of a file, as inheritance needs it (Python): pytest collects the
 * `test*` methods of a class's whole MRO, so a class's tests may be declared
 * in another file. Recorded for every class of a file that has classes with
 * bases or test methods; rules read nothing else from it.
 */
export interface ClassFact {
  /** Name path: enclosing classes, then the class's own name. */
  suitePath: string[];
  line: number;
  /** Base-class expressions as written, keyword arguments left out: `Base`, `mod.Base`, `unittest.TestCase`. */
  bases: string[];
  /** The `metaclass=` keyword of the class statement, as written (`ABCMeta`, `abc.ABCMeta`). */
  metaclass?: string;
  /** Class decorators and a `pytestmark` in the class body, in precedence order. */
  marks: MarkFact[];
  /** Every name the class body binds (defs, assignments, nested classes), in source order, unique. */
  members: string[];
  /** Names of methods decorated with `@abstractmethod` (the class is abstract while one is not overridden). */
  abstractMethods?: string[];
  /** `__test__ = True` / `__test__ = False` in the body (pytest: False stops collection, True collects whatever the name). */
  testAttribute?: boolean;
  /** `test*` methods defined in the body (the last definition of a name), in source order. */
  methods: MethodFact[];
}

/**
 * What tree-level test resolution needs from a file that declares classes:
 * its classes, the imports that bind names (to find a base class in another
 * file) and the marks every test collected in the file gets.
 */
export interface ClassScope {
  classes: ClassFact[];
  /**
   * Imports that bind names, with 1-based lines. Python: `from a.b import C as D`
   * -> source "a.b", names [{imported "C", local "D"}]; `import a.b` -> source
   * "a.b", [{imported null, local "a"}]; `import a.b as m` -> [{imported null,
   * local "m"}] with `isAlias` true; `from . import x` -> source "."; `from m import *`
   * -> [{imported "*", local "*"}].
   */
  imports: ImportFact[];
  /** Marks of the module (pytest's module-level `pytestmark`), applied to every test the file collects. */
  marks: MarkFact[];
}

/**
 * A function or method of a test file that the runner does not collect: its
 * name and body hash (computed like the language's TestCase.bodyHash), so a
 * test renamed or un-annotated out of discovery (`test_x` -> `x`, `TestX` ->
 * `testX`, `#[test]`/`@Test` removed) is told apart from a deleted one.
 */
export interface NonTestFunctionFact {
  name: string;
  /** Enclosing classes/modules, outermost first. */
  suitePath: string[];
  line: number;
  bodyHash: string;
}

/** A module the file imports, with the names it binds (`imported` null for default/namespace/whole-module bindings). */
export interface ImportFact {
  source: string;
  names: { imported: string | null; local: string }[];
  /** 1-based line of the import statement (recorded where a language needs it: {@link ClassScope}). */
  line?: number;
  /** Python `import a.b as m`: the local name is bound to the module `a.b` itself, not to the top package `a`. */
  isAlias?: boolean;
}

/**
 * One exported symbol of a file. `hash` is a short hash of its declaration
 * body, so a rename can be told from a removal. Names are written the
 * language's way: `total`, `Money` (a type), `Money.parse` (Java, C#),
 * `Money::parse` (PHP, Rust), `Shop::Money#parse` (Ruby).
 */
export interface ExportFact {
  name: string;
  line: number;
  hash?: string;
}

/**
 * A guard in non-test code: a check that throws or returns an error
 * (`if (x < 0) throw new RangeError(...)`, `if (!ok) return err(...)`,
 * `assert(x)`, `invariant(x, ...)`). `action` is the normalised throw/return
 * expression, `condition` the normalised condition; `function` the
 * enclosing function's name path ("" at module level).
 */
export interface GuardFact {
  function: string;
  line: number;
  condition: string;
  action: string;
  /** Identifiers the condition reads, sorted. */
  names: string[];
  /**
   * True for a function's fall-through exit rather than a checked condition:
   * its last statement throws or returns the error unconditionally, reached
   * when no earlier return took the call (`if (ok) return v; throw new
   * Error(…)`, a helper that ends in the throw its caller's guard had).
   * `condition` is "" and `names` empty. It keeps a removed guard with the
   * same throw alive, and is never reported removed itself: a stub's `throw
   * new Error("not implemented")` given a body is no bypass.
   */
  fallthrough?: true;
  /**
   * True for the exit of a failed lookup or conversion handled by raising
   * an error of its own rather than a condition written out: Python
   * `try: v = t[k] except KeyError: raise E(m)`, C# `catch
   * (KeyNotFoundException) { throw new E(m); }`, Java `catch
   * (NumberFormatException e) { throw new E(m, e); }` and
   * `opt.orElseThrow(() -> new E(m))`, Ruby `t.fetch(k) { raise E, m }`
   * and `rescue KeyError`, PHP `catch (\OutOfBoundsException $e)`, Rust
   * `.ok_or(E)?`; only handlers of the errors a lookup or conversion raises
   * count (a `catch (Exception)` around a body is a wrapper, no check).
   * `condition` is the guarded code (the `try` body, the looked-up value),
   * `names` its identifiers. It keeps a removed guard as any guard does (the
   * EAFP spelling of `if k not in t: raise E(m)` refuses the same inputs
   * with the same error), and is never reported removed itself: a lookup
   * left to raise its own error still refuses.
   */
  handler?: true;
  /**
   * For a guard inside an error handler whose exit passes the caught error
   * on (`except RuntimeError as e: if m != str(e): raise`, `catch (e) { if
   * (!gone(e)) throw e; }`, Ruby `raise unless …` in a `rescue`): what that
   * handler catches, as {@link CatchFact.caught} writes it ("*" for
   * everything). Such a guard refuses no input, it filters which errors the
   * handler lets through: removed with its handler, every error goes
   * through, which is stricter. Absent for any other guard.
   */
  rethrown?: string;
  /**
   * For a throw of messages collected from a table of validators (`throw new
   * Error(messages.join("\\n"))`, `new AggregateError(errors)`): the string
   * literals of its function (template parts joined by U+FFFC), where the
   * messages of the guards it took over are written. Absent otherwise.
   */
  collected?: string[];
}

/**
 * A constant of non-test code with a boolean literal value, where build
 * variants set it (Go's `const supportX = false` in a file under a build
 * tag, Rust's `#[cfg(…)] const X: bool`, C#'s `const bool` under `#if`,
 * Java's `static final boolean`): a guard on it is dead in every build where
 * no definition makes it fire.
 */
export interface ConstantFact {
  /** The constant's own name (no qualifier). */
  name: string;
  /** "true" or "false". */
  value: "true" | "false";
  line: number;
}

/** A named function of non-test code: its size, its calls, and what it returns when it is a single constant return. */
export interface FunctionFact {
  /** Name path: `name`, `Class.method`, `object.method`. */
  name: string;
  line: number;
  statementCount: number;
  /** Normalised literal when the body is only `return <literal>` (or an arrow with a literal body). */
  constantReturn?: string;
  /** Names of the functions it calls directly (last member name for `a.b()`), sorted, unique. */
  calls: string[];
  /** sha1 (12 hex) of its body's text with whitespace collapsed (nested functions included): whether the change rewrote it. */
  bodyHash?: string;
  /**
   * State outside the call that it counts or toggles (`global calls; calls += 1`,
   * a module-level `let n` with `n++`, a static field, `solve.calls += 1` on
   * itself, Ruby `$n`/`@@n`/`@n`/`self.class.n`, PHP `static $n`/`self::$n`/
   * `$this->n`, Rust `static` atomics), sorted, unique; absent when none.
   */
  stateUpdates?: string[];
  /** Go: whether its results include an `error` (set for Go functions only): a guard on an error it no longer returns is dead. */
  returnsError?: boolean;
  /**
   * How many arguments it accepts (parsers/tree-sitter-subjects.ts arityOf):
   * `min` its parameters without a default, `max` all of them, null when
   * variadic; its own receiver (`self`, `&self`) not counted. An overload
   * or a parameter the change removed is an arity no longer accepted
   * (rules/dependencies.ts). Absent when not read (JS/TS, whose calls
   * accept any number of arguments).
   */
  arity?: { min: number; max: number | null };
  /**
   * The declared types of its parameters, by name as written (`$v` in PHP),
   * each split into the types of a union (`array|\Closure` -> ["array",
   * "Closure"], `?array` -> ["array", "null"]), leading `\` dropped
   * (parsers/tree-sitter-subjects.ts parameterTypesOf). Read for PHP
   * (enforced at call time), Java and C# (at compile time); absent when no
   * parameter declares a type.
   */
  parameterTypes?: Record<string, string[]>;
  /**
   * Local names it binds to an unsigned parse or conversion whose failure
   * reaches its caller, sorted, unique; absent when none: Go `v, err :=
   * strconv.ParseUint(…)` (the error kept, not `_`), Rust `let v: u64 =
   * s.parse()?`, `s.parse::<u64>()?`, `u64::try_from(x)?`, C# `uint.Parse(s)`,
   * `Convert.ToUInt32(s)`, Java `Integer.parseUnsignedInt(s)`. The call
   * rejects a negative input itself, so a sign check of the value (`v < 0`)
   * can no longer fire.
   */
  unsignedValues?: string[];
}

/** What a catch block does with the error. */
export type CatchBehaviour = "rethrows" | "returns_error" | "handles" | "swallows" | "returns_constant";

/**
 * One catch block of non-test code, keyed by its enclosing function and its
 * order there. Rust has no catch blocks: its facts are error-handling sites
 * (`call()?`, `let _ = call();`, `call().ok();`, a `match`/`if let` with an
 * `Err` arm) with the call in `subject`, compared per function and subject
 * (`index` is the order among that subject's sites), so `save()?` becoming
 * `let _ = save();` pairs up whatever else changed in the function.
 */
export interface CatchFact {
  function: string;
  index: number;
  /** The handled call's callee (`fs::write`), for sites keyed by what they handle. */
  subject?: string;
  line: number;
  behaviour: CatchBehaviour;
  /**
   * What the handler catches, as written (`ValueError`, `IOException | OSError`),
   * or "*" for everything (a bare `except:`, a JS `catch`, `catch (...)`, a
   * bare `rescue`); absent when not recorded (error-handling sites).
   */
  caught?: string;
  /** Names of the functions the guarded block (the `try` body) calls, sorted, unique; absent when not recorded. */
  guardedCalls?: string[];
}

/**
 * What a {@link SuppressionFact} silences, per language:
 * - JS/TS: `ts-ignore`, `ts-expect-error`, `ts-nocheck`, `eslint-disable` (comments); `as-any`, `as-unknown-as` (casts).
 * - Python: `type-ignore` (`# type: ignore[...]`), `noqa` (`# noqa[: X]`), `pyright-ignore` (`# pyright: ignore`),
 *   `mypy-ignore-errors` (`# mypy: ignore-errors`), `pylint-disable` (`# pylint: disable=`); `typing-cast` (a cast:
 *   `cast(T, x)` imported from typing, or `typing.cast(...)`).
 * - Go: `nolint` (`//nolint[:x]`), `lint-ignore` (staticcheck `//lint:ignore`, `//lint:file-ignore`).
 * - Rust: `allow` (`#[allow(...)]`, `#![allow(...)]`), `unsafe` (an `unsafe { ... }` block: the borrow and type checks turned off there).
 * - Java: `suppress-warnings` (`@SuppressWarnings(...)`).
 * - C#: `pragma-warning-disable` (`#pragma warning disable`), `suppress-message` (`[SuppressMessage(...)]`),
 *   `nullable-disable` (`#nullable disable`); `null-forgiving` (a cast: the postfix `x!`).
 * - Ruby: `rubocop-disable` (`# rubocop:disable|todo`, `# standard:disable`), `steep-ignore` (`# steep:ignore`).
 * - PHP: `phpstan-ignore` (`@phpstan-ignore`, `-line`, `-next-line`), `psalm-suppress` (`@psalm-suppress`),
 *   `phpcs-ignore` (`@codingStandardsIgnore*`, `phpcs:ignore`, `phpcs:disable`).
 */
export type SuppressionKind =
  | "ts-ignore"
  | "ts-expect-error"
  | "ts-nocheck"
  | "eslint-disable"
  | "as-any"
  | "as-unknown-as"
  | "type-ignore"
  | "noqa"
  | "pyright-ignore"
  | "mypy-ignore-errors"
  | "pylint-disable"
  | "typing-cast"
  | "nolint"
  | "lint-ignore"
  | "allow"
  | "unsafe"
  | "suppress-warnings"
  | "pragma-warning-disable"
  | "suppress-message"
  | "nullable-disable"
  | "null-forgiving"
  | "rubocop-disable"
  | "steep-ignore"
  | "phpstan-ignore"
  | "psalm-suppress"
  | "phpcs-ignore";

/**
 * Keywords of pydantic's `Field`, `con*` types and `StringConstraints` that
 * constrain the value (pydantic docs: Fields, "Constrained types"; v1
 * spellings `regex`, `min_items`, `max_items`, `unique_items`, `const` too).
 * One list for the Python schema extractor and the validation rule.
 */
export const PYDANTIC_CONSTRAINT_KEYWORDS: readonly string[] = [
  "gt",
  "ge",
  "lt",
  "le",
  "multiple_of",
  "max_digits",
  "decimal_places",
  "min_length",
  "max_length",
  "pattern",
  "regex",
  "min_items",
  "max_items",
  "unique_items",
  "const",
];

/** Kinds of {@link SuppressionKind} that are casts (an expression that tells the checker to trust it), not comments or attributes. */
export const CAST_KINDS: ReadonlySet<SuppressionKind> = new Set(["as-any", "as-unknown-as", "typing-cast", "null-forgiving"]);

/** A comment, attribute or cast that silences a checker: `@ts-ignore`, `eslint-disable…`, `as any`, `# noqa`, `#[allow(...)]` (see {@link SuppressionKind}). */
export interface SuppressionFact {
  kind: SuppressionKind;
  line: number;
  /** The normalised text (the comment, or the cast expression), for messages and multiset matching. */
  text: string;
}

/**
 * A validation schema field: `UserSchema.email` -> the chain's method names
 * (`string`, `email`, `optional`). A key may be recorded several times (a
 * field and its validators); the rule merges them.
 */
export interface SchemaFact {
  key: string;
  line: number;
  methods: string[];
  /** True when the chain wraps another schema by name (`z.optional(positiveInt)`), so its constraints live elsewhere. */
  opaque?: boolean;
  /**
   * `keyword` when `methods` are not a chain's methods but the constraint
   * names of a declared model (Python): pydantic's `Field`/`con*` keywords
   * (`min_length`, `gt`, `pattern`), constrained types (`EmailStr` ->
   * `email`), `nullable` (`Optional[...]`), `optional` + `nullable` (a `None` default),
   * `any`, validators (`validator`, `model_validator`), config
   * (`extra=forbid`, `extra=allow`, `strict`); marshmallow's `required`,
   * `validate` (one per validator), `validates`, `unknown=EXCLUDE`. Absent:
   * a chain (zod, yup, joi).
   */
  notation?: "keyword";
}

/**
 * A branch of non-test code that compares a value with literals and returns
 * a literal (`if (title === "Crème Brûlée") return "creme-brulee"`), or an
 * entry of a literal lookup table (`compared` = the key).
 */
export interface LiteralBranchFact {
  line: number;
  kind: "branch" | "table";
  compared: string[];
  returns?: string;
  /** Name path of the enclosing function ("" at module level); absent in facts of older extractors. */
  function?: string;
  /** Identifiers the branch's condition reads, sorted, unique (absent for case arms and table entries). */
  reads?: string[];
  /**
   * True when `returns` is not a literal but the compact source text of the
   * returned expression (at most 200 characters): a branch on state that
   * yields a computed answer (`if calls > 1: return n + 1`), kept for the
   * stateful-answer rule only; `compared` is then empty.
   */
  computed?: true;
  /**
   * True when `returns` is a value built from literals only, its source text
   * with whitespace removed (`date(1900,3,1)`, `newMoney(5,"EUR")`,
   * `Point{X:1,Y:2}` is not one: calls and `new` with literal arguments only):
   * an answer a test can expect as written, like a literal.
   */
  constructed?: true;
}

/**
 * A way out of the test run in non-test code (the harness-escape rule): a
 * call that ends the process (`sys.exit(0)`, `os._exit(0)`,
 * `process.exit()`, `os.Exit(0)`, `System.exit(0)`, `Environment.Exit(0)`,
 * `std::process::exit(0)`, Ruby `exit`/`exit!`, PHP `exit`/`die`), a forced
 * exit status (`process.exitCode = 0`), or a hook run at exit or on an
 * uncaught error (`atexit.register`, `sys.excepthook =`, `process.on("exit")`,
 * `at_exit`, `register_shutdown_function`, `addShutdownHook`).
 */
export interface EscapeFact {
  line: number;
  kind: "exit" | "exit_code" | "hook";
  /** The exit status as normalised literal text (`0`, `true`, `"EXIT_SUCCESS"` as `EXIT_SUCCESS`), null when none is given (the language's default: success), absent when not a literal. */
  code?: string | null;
  /** Name path of the enclosing function ("" at module level). */
  function: string;
  /** True inside a program entry point: `if __name__ == "__main__":`, `main()`, `Main()`. */
  isEntryPoint?: boolean;
  /** True inside the handler an exit hook runs (`atexit.register(lambda: ...)`). */
  isInHook?: boolean;
  /**
   * Compact texts of the conditions the exit runs under, innermost first,
   * within its function: an `if`'s condition when the exit is in its
   * consequence (not its else branch), a `case`/`when`/match arm's values,
   * the left side of an `&&`. Absent when it runs under none.
   */
  conditions?: string[];
  /** Compact source text, for messages and multiset matching. */
  text: string;
}

/** A check for the test runner in non-test code: `process.env.VITEST`, `NODE_ENV === "test"`, `typeof jest`. */
export interface RunnerCheckFact {
  line: number;
  text: string;
  /**
   * True when the check is the whole condition of a branch with no else
   * that holds nothing but assertions (`if cfg!(test) { debug_assert!(…) }`,
   * `if "pytest" in sys.modules: assert …`, `if (NODE_ENV === "test")
   * console.assert(…)`): under the runner the code checks more, it answers
   * nothing differently (rules/special-casing.ts).
   */
  onlyAsserts?: true;
}

/**
 * Facts about a file's code (as opposed to its tests), for the
 * validation_bypass, special_casing and feature_removal rules. Every field
 * is optional: a language fills what it can, and a rule skips what is absent.
 */
export interface CodeFacts {
  /** The deprecation notices the file announces, as trimmed source lines (deprecations.ts deprecationNotices); absent when none. */
  deprecations?: string[];
  /** The names those notices deprecate, sorted, unique (deprecations.ts deprecatedNames); absent when none. */
  deprecatedNames?: string[];
  imports?: ImportFact[];
  exports?: ExportFact[];
  guards?: GuardFact[];
  /** Boolean constants the file defines (see {@link ConstantFact}); absent when the language does not record them. */
  constants?: ConstantFact[];
  functions?: FunctionFact[];
  catches?: CatchFact[];
  suppressions?: SuppressionFact[];
  schemas?: SchemaFact[];
  literalBranches?: LiteralBranchFact[];
  runnerChecks?: RunnerCheckFact[];
  escapes?: EscapeFact[];
  /**
   * Names the file declares outside function bodies (types, functions,
   * methods, properties, fields, constants, enum members, Ruby attributes,
   * Python class attributes), sorted: what a
   * change can remove besides exports (parsers/tree-sitter-subjects.ts).
   * Absent = not extracted.
   */
  declared?: string[];
  /**
   * The file's plain string literals shaped like an option value, key, flag
   * or command word (`ipc`, `--verbose`, `rebase_to_min_level`), sorted,
   * unique, import paths left out: what a change can stop handling besides
   * names (rules/dependencies.ts). Absent when none or not extracted.
   */
  literals?: string[];
  /**
   * The enum members the file declares (Rust variants, C#/Java/PHP enum
   * members, a Python `Enum` class's names), sorted: a guard matching a
   * member the change removed can no longer fire (rules/validation.ts).
   * Absent when none or not extracted.
   */
  enumMembers?: string[];
  /**
   * The places the file writes outside its functions' locals: assignment
   * targets that are an element or a member of another object
   * (`ENV["TESTOPTS"]`, `os.environ["X"]`, `process.env.X`), as written with
   * whitespace dropped, sorted; the object's own state (`self.x`, `this.x`,
   * `@x`) left out. A check of a place the change stopped writing checked a
   * side effect that is gone (rules/dependencies.ts). Absent when none.
   */
  writes?: string[];
  /**
   * Module-level constants bound to a comparison of the running version
   * (`PY_3_10_PLUS = sys.version_info[:2] >= (3, 10)`): what a skip
   * condition naming them tests (analysis/support.ts). Absent when none.
   */
  versionFlags?: { name: string; condition: string }[];
  /**
   * Paths of the files this file declares as private child modules (Rust's
   * `mod x;` -> `src/x.rs`, `src/x/mod.rs`): the `pub` items there are the
   * crate's business, not its API, unless re-exported (`pub use`).
   */
  privateModules?: string[];
}

/**
 * One definition shadowing a framework assertion (FileFacts.assertionShadows,
 * analysis/assertion-shadows.ts): its name, 1-based line, and whether it can
 * still fail on the values it is given; `reason` says why not.
 */
export interface AssertionShadowFact {
  name: string;
  line: number;
  canFail: boolean;
  reason?: string;
}

/**
 * A function of a file that skips the tests going through it, recorded so a
 * test in another file that reaches it is judged too (analysis/indirection.ts):
 * a Go helper of the package or a `TestMain` without `m.Run()`, a pytest
 * fixture or autouse fixture of a conftest.py.
 */
export interface SkipProviderFact {
  /** "helper": the tests calling `name`; "fixture": the tests requesting `name`; "setup": every test in its reach (the package, the conftest's folder). */
  kind: "helper" | "fixture" | "setup";
  name: string;
  /** `skipped`, or `conditional` when it skips only under a condition; todo/failing for markTestIncomplete-style calls. */
  flag: TestFlag;
  /** The skip as written, for messages: `t.Skipf()`, `pytest.skip()`, `TestMain never calls m.Run()`. */
  via: string;
  reason?: string;
}

/**
 * A test-run entry point that reports success whatever the tests do (the
 * harness-escape rule, in test code): Go's `TestMain(m *testing.M)` ending
 * with `os.Exit(0)` (or another success status) rather than the status
 * `m.Run()` returns (the testing package's contract: TestMain must pass
 * m.Run's result to os.Exit, or return and let the package do so).
 */
export interface RunEscapeFact {
  /** 1-based line of the exit. */
  line: number;
  /** The harness function (`TestMain`). */
  function: string;
  /** The exit as written (`os.Exit(0)`), at most 200 characters. */
  text: string;
}

/** A JUnit suite's list of test classes (`@Suite.SuiteClasses`, `@SelectClasses`), by simple class name. */
export interface SuiteListFact {
  /** The annotated suite class. */
  suite: string;
  /** 1-based line of the annotation. */
  line: number;
  /** `SuiteClasses` or `SelectClasses`. */
  annotation: string;
  classes: string[];
}

/**
 * Everything extracted from one file. When `parseError` or `notAnalyzed` is
 * set, `tests` is empty and `assertions` is 0: the file's content is unknown
 * to ralph, which is not the same as "has no tests".
 */
export interface FileFacts {
  /** Id of the language module that produced these facts (see languages/index.ts). */
  language: string;
  /** True when the path looks like a test file, or the file declares tests. */
  isTestFile: boolean;
  /** Test cases in source order; duplicates (same id) are kept. */
  tests: TestCase[];
  /** Assertions anywhere in the file (tests, hooks, helpers). */
  assertions: number;
  /** Test frameworks seen in imports (e.g. "vitest", "node:test", "playwright"), sorted. */
  frameworks: string[];
  /** Syntax errors the parser recovered from; facts are still extracted. */
  recoveredErrorCount: number;
  /** Set when the file could not be parsed at all: the parser's one-line message. */
  parseError?: string;
  /** Set when the file was not parsed on purpose (binary, larger than 2 MB, minified): why. */
  notAnalyzed?: string;
  /** Facts about the file's code: imports, exports, guards, catches, suppressions, schemas (absent = not extracted). */
  code?: CodeFacts;
  /** True for a product file that also declares tests (Rust's inline `#[cfg(test)]` modules): `code` covers the product part only. */
  hasInlineTests?: boolean;
  /**
   * Top-level functions that hold assertions outside any test declaration
   * (test helpers such as `runScenario`), with how many (JS/TS; absent =
   * not extracted). A test that now calls one of them has moved its
   * assertions, not dropped them.
   */
  assertionHelpers?: AssertionHelperFact[];
  /** Struct types the file declares, by name, with their field names in order (Go): the rows of other files' table loops (AssertionFact.rowType). */
  rowStructs?: Record<string, string[]>;
  /** Functions and methods of a test file that the runner does not collect (tree-sitter languages; absent = not extracted). */
  nonTestFunctions?: NonTestFunctionFact[];
  /** Functions of the file that declare a test running what they are given (JS/TS, Ruby; absent when none). */
  testDefiners?: TestDefinerFact[];
  /** Calls outside tests that define a test through such a function when it is one (JS/TS, Ruby; absent when none); not yet in `tests`. */
  helperTests?: HelperTestFact[];
  /** Ruby: the files the file loads (`require_relative "../spec_helper"`, `require "spec_helper"`), as written; absent when none. */
  loads?: string[];
  /** JUnit suite lists the file declares (Java); absent when none. */
  suiteLists?: SuiteListFact[];
  /** JUnit 5 extensions the file applies to its test classes, by simple name (`@ExtendWith(X.class)`, `@RegisterExtension`); absent when none. */
  extensionsApplied?: string[];
  /** JUnit 5 ExecutionConditions the file declares that can disable a test, with whether they decide by the test's identity (languages/java-suites.ts); absent when none. */
  executionConditions?: { name: string; line: number; byIdentity: boolean }[];
  /** Functions of the file whose skip reaches tests of other files (Go helpers and TestMain, conftest fixtures); absent when none. */
  skipProviders?: SkipProviderFact[];
  /** Test-harness code that ends the test run with success whatever the tests report (Go's `TestMain` calling `os.Exit(0)`); absent when none. */
  runEscapes?: RunEscapeFact[];
  /** Definitions that take a framework assertion's name where tests resolve it (analysis/assertion-shadows.ts), in source order; absent when none. */
  assertionShadows?: AssertionShadowFact[];
  /**
   * The file's classes, imports and module marks, for resolving tests a class
   * inherits from another file (Python; absent = the file has no class with
   * bases or test methods, or the language does not record it). `tests`
   * already holds what the file alone resolves (its own classes and bases
   * defined in it); analysis/inheritance.ts resolves across files.
   */
  classScope?: ClassScope;
  /**
   * The runner-config collection rules the facts were extracted with (pytest
   * python_files / python_classes / python_functions; analysis/discovery.ts);
   * absent when the naming conventions hold. Cross-file resolution reads
   * them (languages/python-classes.ts).
   */
  collection?: CollectionRules;
}

/**
 * A function of a test file that asserts outside any test (a helper such as
 * `checkSum(t, in, want)` or `def check(x, y)`): how many assertions it
 * holds and, where the language records them, its parameter names and its
 * assertions, so a call `checkSum(t, []int{1}, 1)` resolves into the
 * helper's checks with the arguments in place (analysis/checks).
 */
export interface AssertionHelperFact {
  name: string;
  assertions: number;
  /** Parameter names in order (`t`, `in`, `want`). */
  params?: string[];
  /**
   * The default values of its parameters that have one, as written (Python
   * `def check(x, strict=True)`, Ruby `def line_tests(method_name: :gets)`
   * or `def check(x, n = 1)`): what a call that passes no argument for
   * them binds (analysis/checks bindParameters). Absent when none.
   */
  paramDefaults?: Record<string, string>;
  /** Its assertions in source order. */
  assertionsDetail?: AssertionFact[];
  /**
   * True when a parameter the call gives no argument (`macro(t, '1')` of
   * `(t, input, expected)`), or a name of an object pattern parameter that
   * the call's object literal leaves out with no default (`{expected:
   * 1}` for `{input, expected, error}`), is `undefined` (JavaScript): the
   * call then selects the branches on it (`if (error)` not taken), and
   * analysis/checks reads the helper's checks with that branch. Absent
   * (other languages): such a name stays unbound and its branches
   * conditional.
   */
  absentIsUndefined?: boolean;
  /**
   * Its branches on a parameter's truth (`if next { r.Version = "1.1" }`,
   * `if not strict:`, `unless quiet`): per arm, the parameter, the truth it
   * runs under and the literals it holds (normalised like TestCase.literals).
   * A call passing a boolean literal selects the arms: a helper inlined
   * into its test keeps what the call selected only when the test feeds the
   * selected arms' literals (analysis/checks). Absent when it has none.
   */
  paramArms?: ParamArm[];
  /**
   * Where it hands a parameter on under a name (`Runner{Encoder: enc}`,
   * `Runner(encoder=enc)`, `Runner { encoder: enc }`): the parameter and the
   * field or keyword it sets. A call passing a literal there sets that
   * field: a helper inlined into its test keeps what the call set only when
   * the test feeds the same literal, or the product no longer declares the
   * field (analysis/checks). Absent when it has none.
   */
  paramSinks?: ParamSink[];
}

/** A parameter a helper hands on under a name (AssertionHelperFact.paramSinks). */
export interface ParamSink {
  param: string;
  /** The field or keyword argument the parameter sets. */
  key: string;
}

/** One arm of a helper's branch on a parameter (AssertionHelperFact.paramArms). */
export interface ParamArm {
  param: string;
  /** The parameter's truth under which the arm runs. */
  when: boolean;
  literals: string[];
}

/** At most this many entries of TestCase.directCalls are kept per test, each at most {@link MAX_DIRECT_CALL_CHARS} characters. */
const MAX_DIRECT_CALLS = 64;
const MAX_DIRECT_CALL_CHARS = 400;

/** Source texts of what a test runs unconditionally as TestCase.directCalls keeps them: whitespace runs collapsed, unique, in order, longer ones dropped (a cut text would match nothing), at most 64. */
export function directCallTexts(texts: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const text of texts) {
    const collapsed = text.replace(/\s+/g, " ").trim();
    if (collapsed === "" || collapsed.length > MAX_DIRECT_CALL_CHARS) continue;
    kept.add(collapsed);
    if (kept.size === MAX_DIRECT_CALLS) break;
  }
  return [...kept];
}

/** True when facts were really extracted (no parse error, not skipped as binary/huge/minified). */
export function hasUsableFacts(facts: FileFacts): boolean {
  return facts.parseError === undefined && facts.notAnalyzed === undefined;
}

/** Facts for a file whose content ralph did not or could not read: no tests, with the reason. */
export function emptyFacts(language: string, isTestFile: boolean, problem: { parseError: string } | { notAnalyzed: string }): FileFacts {
  return { language, isTestFile, tests: [], assertions: 0, frameworks: [], recoveredErrorCount: 0, ...problem };
}

/** Hex sha1 of a string (UTF-8). Used for body hashes; not a security boundary. */
export function hashText(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}
