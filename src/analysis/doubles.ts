/**
 * Test doubles of the code under test (issue 9: an agent that cannot make a
 * test pass replaces the function the test checks with a double answering
 * what the test expects, then the check checks the double). A check whose
 * subject calls a name its test stubs, spies with a canned answer or mocks
 * is no check of the product any more: its AssertionFact gets `doubled`
 * (and `unreachable`, so the assertion rules count it as lost).
 *
 * Read from the source text, per language (each framework's own spelling):
 * - JS/TS: `jest.mock(path, factory)` / `vi.mock(path, factory)` (file-wide,
 *   the factory's object keys that are functions), `jest.mock(path)` alone
 *   (automock: every import from it), `jest.spyOn(obj, "m").mockReturnValue`
 *   / `mockImplementation` / `mockResolvedValue` (and `vi.spyOn`),
 *   `sinon.stub(obj, "m").returns` / `resolves` / `callsFake`;
 * - Python: `mock.patch("pkg.mod.f", …)` / `patch(…)` / `mocker.patch(…)`
 *   as a decorator or `with` (not `wraps=`), `patch.object(obj, "f", …)`,
 *   `monkeypatch.setattr(obj, "f", …)` / `monkeypatch.setattr("pkg.mod.f", …)`.
 *   A dotted target doubles `mod.f(…)`; a bare `f` imported before the patch
 *   still calls the real function (unittest.mock "Where to patch").
 * - Java (Mockito): `doReturn(v).when(x).m(…)`, `doAnswer(…).when(x).m(…)`,
 *   `when(x.m(…)).thenReturn(…)` / `thenAnswer`;
 * - C#: Moq `mock.Setup(s => s.M(…)).Returns(…)` (subject
 *   `mock.Object.M(…)`), NSubstitute `x.M(…).Returns(…)`, FakeItEasy
 *   `A.CallTo(() => x.M(…)).Returns(…)`;
 * - Ruby: `allow(x).to receive(:m).and_return(…)` (also `expect(x).to
 *   receive`, `and_call_original` excluded), minitest `x.stub(:m, v)`;
 * - PHP (PHPUnit): `$x->method('m')->willReturn(…)` / `->will(…)`.
 *
 * Checks of the double itself (call counts and arguments: `toHaveBeenCalled`,
 * `assert_called_once_with`, `verify(x).m()`, `received`) are what a double
 * is for and are left alone. A double of another name than the check's
 * subject (a dependency stubbed, the unit run for real) is ordinary mocking.
 */

import { hashText, type AssertionFact, type FileFacts } from "./facts.js";
import { bracketed } from "./text-blocks.js";

/** One double: the name it replaces, the receiver or module it replaces it on (as written), and where it applies. */
export interface TestDouble {
  /** The member or function name replaced (`total`, `formatCurrency`). */
  name: string;
  /** What the name is called on in a check of the double: `cart`, `wrap`, `mock.Object`; null when it is called bare (an import of a mocked JS module). */
  receiver: string | null;
  /** 1-based line of the statement that makes the double. */
  line: number;
  /** True when the double holds for the whole file (jest.mock/vi.mock are hoisted); else from its line to the end of its test. */
  isFileWide: boolean;
}

/** Matchers that check a double's calls, not a value the product computes. */
const CALL_CHECKS = /Called|called|[Vv]erify|Received|received|have_received|toHaveBeen|assert_has_calls|assert_any_call|expect_call/;

/** The 1-based line of a character offset. */
function lineAt(content: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < content.length; i++) if (content.charCodeAt(i) === 10) line++;
  return line;
}

/** `text` with regex metacharacters escaped. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The keys of the top level of an object literal's text that are bound to functions (`f: jest.fn(…)`, `f: (a) => …`, `f() {…}`, `f: function`). */
function functionKeys(objectText: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < objectText.length; i++) {
    const char = objectText[i] as string;
    if (char === '"' || char === "'" || char === "`") {
      for (i++; i < objectText.length && objectText[i] !== char; i++) if (objectText[i] === "\\") i++;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    if (depth !== 1 || !/[{,]/.test(char)) continue;
    const rest = objectText.slice(i + 1);
    const key =
      /^\s*(?:async\s+)?["']?([A-Za-z_$][\w$]*)["']?\s*(?::\s*(?:(?:jest|vi)\.fn\b|sinon\.\w+|(?:async\s*)?function\b|(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>)|\([^()]*\)\s*\{)/.exec(rest);
    if (key) keys.push(key[1] as string);
  }
  return keys;
}

/** The function keys ({@link functionKeys}) of the objects a module factory returns: `() => ({ … })` or a block's `return { … }`. */
function factoryKeys(callText: string): string[] {
  const keys: string[] = [];
  for (const match of callText.matchAll(/=>\s*\(\s*\{|\breturn\s*\{/g)) keys.push(...functionKeys(bracketed(callText, match.index + match[0].lastIndexOf("{"))));
  return keys;
}

/** Local names a JS/TS file imports from `source`, and the namespace names it binds to that module (`import * as m`, `const m = require(…)`). */
function jsImportsOf(content: string, source: string): { names: string[]; namespaces: string[] } {
  const names: string[] = [];
  const namespaces: string[] = [];
  const from = escaped(source);
  for (const match of content.matchAll(new RegExp(`import\\s+(?:type\\s+)?([^;]*?)\\s+from\\s*["']${from}["']`, "g"))) {
    const clause = match[1] as string;
    const star = /\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(clause);
    if (star) namespaces.push(star[1] as string);
    const braces = /\{([^}]*)\}/.exec(clause);
    for (const part of braces ? (braces[1] as string).split(",") : []) {
      const local = /(?:[\w$]+\s+as\s+)?([A-Za-z_$][\w$]*)\s*$/.exec(part.trim());
      if (local) names.push(local[1] as string);
    }
    const defaultName = /^([A-Za-z_$][\w$]*)\s*(?:,|$)/.exec(clause.trim());
    if (defaultName) namespaces.push(defaultName[1] as string);
  }
  for (const match of content.matchAll(new RegExp(`(?:const|let|var)\\s+(\\{[^}]*\\}|[A-Za-z_$][\\w$]*)\\s*=\\s*require\\(\\s*["']${from}["']\\s*\\)`, "g"))) {
    const target = match[1] as string;
    if (target.startsWith("{")) for (const part of target.slice(1, -1).split(",")) names.push((part.split(":").pop() ?? "").trim());
    else namespaces.push(target);
  }
  return { names: names.filter((name) => name !== ""), namespaces };
}

/** JS/TS doubles ({@link TestDouble}). */
function jsDoubles(content: string): TestDouble[] {
  const doubles: TestDouble[] = [];
  for (const match of content.matchAll(/\b(?:jest|vi)\.(?:mock|doMock|unstable_mockModule)\(\s*(["'`])([^"'`]+)\1\s*(,)?/g)) {
    const source = match[2] as string;
    const line = lineAt(content, match.index);
    const imports = jsImportsOf(content, source);
    // Automock: every export is a jest.fn() answering undefined.
    const names = match[3] ? factoryKeys(bracketed(content, match.index + match[0].indexOf("("))) : [...imports.names, "*"];
    for (const name of names) {
      if (name === "*") {
        for (const namespace of imports.namespaces) doubles.push({ name: "*", receiver: namespace, line, isFileWide: true });
        continue;
      }
      if (imports.names.includes(name)) doubles.push({ name, receiver: null, line, isFileWide: true });
      for (const namespace of imports.namespaces) doubles.push({ name, receiver: namespace, line, isFileWide: true });
    }
  }
  const spy =
    /\b(?:jest|vi)\.spyOn\(\s*([A-Za-z_$][\w$.]*)\s*,\s*["'`]([\w$]+)["'`]\s*\)\s*\.\s*mock(?:ReturnValue|ReturnValueOnce|ResolvedValue|ResolvedValueOnce|RejectedValue|Implementation|ImplementationOnce)\b|\bsinon\.stub\(\s*([A-Za-z_$][\w$.]*)\s*,\s*["'`]([\w$]+)["'`]\s*\)\s*\.\s*(?:returns|resolves|rejects|callsFake|throws)\b/g;
  for (const match of content.matchAll(spy)) {
    doubles.push({ name: (match[2] ?? match[4]) as string, receiver: (match[1] ?? match[3]) as string, line: lineAt(content, match.index), isFileWide: false });
  }
  return doubles;
}

/** Python doubles ({@link TestDouble}). */
function pythonDoubles(content: string): TestDouble[] {
  const doubles: TestDouble[] = [];
  const dotted = /\b(?:mock\.|mocker\.|unittest\.mock\.)?patch\(\s*(["'])([\w.]+)\1([^)\n]*)/g;
  for (const match of content.matchAll(dotted)) {
    if (/\bwraps\s*=/.test(match[3] as string)) continue;
    const parts = (match[2] as string).split(".");
    if (parts.length < 2) continue;
    doubles.push({ name: parts[parts.length - 1] as string, receiver: parts[parts.length - 2] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  const onObject = /\b(?:(?:mock\.|mocker\.|unittest\.mock\.)?patch\.object|monkeypatch\.setattr)\(\s*([A-Za-z_][\w.]*)\s*,\s*(["'])(\w+)\2([^)\n]*)/g;
  for (const match of content.matchAll(onObject)) {
    if (/\bwraps\s*=/.test(match[4] as string)) continue;
    const receiver = match[1] as string;
    doubles.push({ name: match[3] as string, receiver: receiver.slice(receiver.lastIndexOf(".") + 1), line: lineAt(content, match.index), isFileWide: false });
  }
  for (const match of content.matchAll(/\bmonkeypatch\.setattr\(\s*(["'])([\w.]+)\1/g)) {
    const parts = (match[2] as string).split(".");
    if (parts.length >= 2) doubles.push({ name: parts[parts.length - 1] as string, receiver: parts[parts.length - 2] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  return doubles;
}

/** Java (Mockito) doubles ({@link TestDouble}). */
function javaDoubles(content: string): TestDouble[] {
  const doubles: TestDouble[] = [];
  for (const match of content.matchAll(/\bdo(?:Return|Answer|Nothing|Throw|CallRealMethod)\([^;]*?\)\s*\.\s*when\(\s*([A-Za-z_$][\w$]*)\s*\)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/g)) {
    if (/^doCallRealMethod/.test(match[0])) continue;
    doubles.push({ name: match[2] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  for (const match of content.matchAll(/\bwhen\(\s*([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*)\s*\([^;]*?\)\s*\.\s*then(?:Return|Answer|Throw)\b/g)) {
    doubles.push({ name: match[2] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  return doubles;
}

/** C# doubles ({@link TestDouble}): Moq, NSubstitute, FakeItEasy. */
function csharpDoubles(content: string): TestDouble[] {
  const doubles: TestDouble[] = [];
  for (const match of content.matchAll(/\b([A-Za-z_]\w*)\s*\.\s*Setup\(\s*(\w+)\s*=>\s*\2\s*\.\s*(\w+)\b[^;]*?\)\s*\.\s*(?:Returns|ReturnsAsync|Throws)\b/g)) {
    doubles.push({ name: match[3] as string, receiver: `${match[1] as string}.Object`, line: lineAt(content, match.index), isFileWide: false });
  }
  for (const match of content.matchAll(/(?<![\w.])([A-Za-z_]\w*)\s*\.\s*([A-Z]\w*)\s*\([^;()]*(?:\([^;()]*\)[^;()]*)*\)\s*\.\s*Returns(?:ForAnyArgs)?\s*\(/g)) {
    doubles.push({ name: match[2] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  for (const match of content.matchAll(/\bA\.CallTo\(\s*\(\)\s*=>\s*([A-Za-z_]\w*)\s*\.\s*(\w+)\b[^;]*?\)\s*\.\s*Returns\b/g)) {
    doubles.push({ name: match[2] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  return doubles;
}

/** Ruby doubles ({@link TestDouble}): rspec-mocks and minitest's stub. */
function rubyDoubles(content: string): TestDouble[] {
  const doubles: TestDouble[] = [];
  for (const match of content.matchAll(/\b(?:allow|expect)\(\s*([A-Za-z_@][\w.:]*)\s*\)\s*\.\s*to\s+receive\(\s*:(\w+[?!]?)\s*\)([^\n]*)/g)) {
    const rest = match[3] as string;
    if (!/\band_(?:return|yield|raise)\b|\{/.test(rest) || /\band_call_original\b/.test(rest)) continue;
    doubles.push({ name: match[2] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  for (const match of content.matchAll(/\b([A-Za-z_@][\w.:]*)\s*\.\s*stub\(?\s*:(\w+[?!]?)\s*,/g)) {
    doubles.push({ name: match[2] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  return doubles;
}

/** PHP (PHPUnit) doubles ({@link TestDouble}). */
function phpDoubles(content: string): TestDouble[] {
  const doubles: TestDouble[] = [];
  for (const match of content.matchAll(/(\$[A-Za-z_]\w*(?:->\w+)?)\s*(?:->\s*expects\([^;]*?\))?\s*->\s*method\(\s*(["'])(\w+)\2\s*\)\s*->\s*(?:willReturn\w*|will)\s*\(/g)) {
    doubles.push({ name: match[3] as string, receiver: match[1] as string, line: lineAt(content, match.index), isFileWide: false });
  }
  return doubles;
}

/** The doubles a file of `language` (languages/index.ts id) makes. */
export function testDoubles(language: string, content: string): TestDouble[] {
  switch (language) {
    case "javascript":
      return jsDoubles(content);
    case "python":
      return pythonDoubles(content);
    case "java":
      return javaDoubles(content);
    case "csharp":
      return csharpDoubles(content);
    case "ruby":
      return rubyDoubles(content);
    case "php":
      return phpDoubles(content);
    default:
      return [];
  }
}

/** True when `subject` (an assertion's subject as extracted, whitespace ignored) calls `double`'s name on its receiver. */
export function callsDouble(subject: string, double: TestDouble): boolean {
  const text = subject.replace(/\s+/g, "");
  const name = double.name === "*" ? "[A-Za-z_$][\\w$]*[?!]?" : escaped(double.name);
  const receiver = double.receiver === null ? null : escaped(double.receiver.replace(/\s+/g, ""));
  const call = receiver === null ? `(?<![\\w$.>:])${name}\\(` : `(?<![\\w$.>:])${receiver}(?:\\.|->|::)${name}(?:\\(|(?![\\w$]))`;
  return new RegExp(call).test(text);
}

/** The first line of each test's region: its declaration, or the decorators and annotations right above it. */
function regionStart(lines: readonly string[], line: number): number {
  let start = line;
  while (start > 1 && /^\s*(?:@|\[[A-Z])/.test(lines[start - 2] ?? "")) start--;
  return start;
}

/**
 * `facts` with every test assertion whose subject calls a double its test
 * makes ({@link testDoubles}) marked `doubled` (the double, `receiver.name`)
 * and `unreachable`. A double made in a test body applies to the assertions
 * after it up to the next test; one made by a decorator or annotation, to
 * its test; jest.mock/vi.mock, to the whole file. A test with a doubled
 * check gets a bodyHash of its own (it no longer runs what it ran, even
 * where its body reads the same). Returns `facts` itself when nothing is
 * doubled.
 */
export function markDoubledChecks(facts: FileFacts, content: string): FileFacts {
  if (!facts.isTestFile || facts.tests.length === 0) return facts;
  const doubles = testDoubles(facts.language, content);
  if (doubles.length === 0) return facts;
  const lines = content.split("\n");
  const starts = [...new Set(facts.tests.map((test) => regionStart(lines, test.line)))].sort((a, b) => a - b);
  const regionEnd = (start: number): number => starts.find((candidate) => candidate > start) ?? Number.POSITIVE_INFINITY;
  let changed = false;
  const tests = facts.tests.map((test) => {
    const start = regionStart(lines, test.line);
    const end = regionEnd(start);
    const own = doubles.filter((double) => double.isFileWide || (double.line >= start && double.line < end));
    if (own.length === 0 || !test.assertionsDetail) return test;
    const detail = test.assertionsDetail.map((fact): AssertionFact => {
      const subject = fact.actualValue ?? fact.actual;
      if (subject === undefined || fact.unreachable || CALL_CHECKS.test(fact.matcher)) return fact;
      const double = own.find((candidate) => (candidate.isFileWide || candidate.line < start || candidate.line <= fact.line) && callsDouble(subject, candidate));
      if (!double) return fact;
      changed = true;
      return { ...fact, unreachable: true, doubled: double.receiver === null ? double.name : `${double.receiver}.${double.name}` };
    });
    const names = detail.flatMap((fact) => (fact.doubled === undefined ? [] : [fact.doubled]));
    if (names.length === 0) return test;
    // The body may read as before (a decorator or a file-wide jest.mock made the double): the test no longer runs the same code.
    return { ...test, assertionsDetail: detail, bodyHash: hashText(`${test.bodyHash}\u0000doubles ${[...new Set(names)].sort().join(",")}`) };
  });
  return changed ? { ...facts, tests } : facts;
}
