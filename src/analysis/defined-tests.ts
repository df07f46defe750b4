/**
 * Tests defined through a project's own function (issue 9: "tests judged
 * by what they check", wherever they are declared). A spec helper's
 * `def self.deprecated(a, &block)` that calls `it("#{a} (deprecated)") {
 * …; instance_exec(&block) }`, or a test module's `deprecated(title, fn)`
 * that calls `test(`…`, async (t) => { …; await fn(t) })`, turns each call
 * `deprecated "x" do … end` / `deprecated("x", () => { … })` into a test
 * with the call's body: moving a test under it moves no check anywhere.
 *
 * A language records the functions of a file that define tests so
 * (FileFacts.testDefiners) and the calls outside tests that may go through
 * one (FileFacts.helperTests, each with the test it would define); a call
 * becomes a test only once its function is found to be a definer with the
 * same title and body positions. A definer of the same file resolves at
 * extraction (test-definers.ts withOwnDefinedTests); one of another file once per
 * diff ({@link linkDefinedTests}): an imported module's (JS/TS), or one the
 * Ruby file loads (`require_relative`, `require`, and the conventional
 * `spec_helper.rb` / `test_helper.rb` of its folders and their loads). A
 * function that drops its body, runs it under a `rescue`/`catch` or a
 * condition, or defines no test is no definer: its calls stay no tests,
 * and a test moved under it is lost.
 */

import type { FactsPair } from "./compare.js";
import { hasUsableFacts, type FileFacts, type TestDefinerFact } from "./facts.js";
import { resolveCalls, withTests } from "./test-definers.js";
import type { UnchangedFiles } from "./inheritance.js";
import { resolveImport } from "./rules/context.js";
import { sharedFolders } from "./exercising.js";

/** Helper files a Ruby test file loads read at most, per file. */
const MAX_RUBY_LOADS = 12;

/** The files a Ruby test file's folders conventionally load first (`.rspec`'s `--require spec_helper`, minitest's test_helper). */
const RUBY_HELPER_NAMES: readonly string[] = ["spec_helper.rb", "test_helper.rb", "helper.rb"];

/** `a/b/c.rb` -> ["a/b", "a", ""]: the folders holding a path, nearest first. */
function foldersOf(path: string): string[] {
  const folders: string[] = [];
  let index = path.lastIndexOf("/");
  while (index !== -1) {
    folders.push(path.slice(0, index));
    index = path.lastIndexOf("/", index - 1);
  }
  folders.push("");
  return folders;
}

/**
 * Where a Ruby load can point: `require_relative "../spec_helper"` next to
 * the file; `require "spec_helper"` on the load path rspec and rake's test
 * task set up (`spec/`, `test/`, `lib/`, the repository root), and in the
 * file's own folders.
 */
function rubyLoadCandidates(from: string, load: string): string[] {
  const name = load.endsWith(".rb") ? load : `${load}.rb`;
  const join = (folder: string, rest: string): string => {
    const parts = (folder === "" ? rest : `${folder}/${rest}`).split("/");
    const out: string[] = [];
    for (const part of parts) {
      if (part === "..") out.pop();
      else if (part !== "." && part !== "") out.push(part);
    }
    return out.join("/");
  };
  const folder = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
  if (load.startsWith(".")) return [join(folder, name)];
  return [...["spec", "test", "lib", ""].map((root) => join(root, name)), ...foldersOf(from).map((dir) => join(dir, name))];
}

/** Reads a file's facts on one side of the diff, or null when it is not there. */
type SideFacts = (path: string) => Promise<FileFacts | null>;

/**
 * The definers a Ruby file can call: those of the files it loads and of the
 * conventional helpers of its folders, and those of their own loads, nearest
 * first, at most {@link MAX_RUBY_LOADS} files read.
 */
async function rubyDefiners(path: string, facts: FileFacts, exists: (path: string) => boolean, sideFacts: SideFacts): Promise<TestDefinerFact[]> {
  const queue: string[] = [];
  const seen = new Set<string>([path]);
  const push = (target: string | undefined): void => {
    if (target === undefined || seen.has(target) || !exists(target)) return;
    seen.add(target);
    queue.push(target);
  };
  const enqueue = (from: string, loads: readonly string[]): void => {
    for (const load of loads) push(rubyLoadCandidates(from, load).find((candidate) => !seen.has(candidate) && exists(candidate)));
  };
  enqueue(path, facts.loads ?? []);
  for (const folder of foldersOf(path)) for (const name of RUBY_HELPER_NAMES) push(folder === "" ? name : `${folder}/${name}`);
  const definers: TestDefinerFact[] = [];
  for (let read = 0; read < queue.length && read < MAX_RUBY_LOADS; read++) {
    const target = queue[read] as string;
    const loaded = await sideFacts(target);
    if (!loaded || !hasUsableFacts(loaded)) continue;
    definers.push(...(loaded.testDefiners ?? []));
    enqueue(target, loaded.loads ?? []);
  }
  return definers;
}

/**
 * Replaces, in place, each side's facts of `pairs` whose helper calls a
 * definer of another file resolves (see the module comment) by copies with
 * those tests added; facts objects are never mutated (they may be cached).
 * The definer's file is the same side's changed file, else the unchanged
 * tree's (`unchanged`; without it only changed files are looked in). Each
 * unchanged file is read and extracted at most once.
 */
export async function linkDefinedTests(pairs: FactsPair[], unchanged: UnchangedFiles | undefined, extract: (path: string, content: string) => Promise<FileFacts>): Promise<void> {
  const calling = (facts: FileFacts | null): boolean => (facts?.helperTests?.length ?? 0) > 0;
  if (!pairs.some((pair) => calling(pair.before) || calling(pair.after))) return;
  const changedPaths = new Set(pairs.map((pair) => pair.path));
  const texts = new Map<string, string | null>();
  const textOf = (path: string): string | null => {
    if (!texts.has(path)) texts.set(path, changedPaths.has(path) ? null : (unchanged?.read(path) ?? null));
    return texts.get(path) ?? null;
  };
  const unchangedFacts = new Map<string, Promise<FileFacts | null>>();
  const readUnchanged = (path: string): Promise<FileFacts | null> => {
    let facts = unchangedFacts.get(path);
    if (!facts) {
      const content = textOf(path);
      facts = content === null ? Promise.resolve(null) : extract(path, content).catch(() => null);
      unchangedFacts.set(path, facts);
    }
    return facts;
  };
  const unchangedProbe = { has: (path: string): boolean => textOf(path) !== null, [Symbol.iterator]: (): Iterator<string> => [][Symbol.iterator]() };
  for (const side of ["before", "after"] as const) {
    const sideFacts = new Map(pairs.flatMap((pair) => (pair[side] ? [[pair.path, pair[side]] as const] : [])));
    const known = new Set(sideFacts.keys());
    const exists = (path: string): boolean => known.has(path) || (!changedPaths.has(path) && textOf(path) !== null);
    const factsOf: SideFacts = async (path) => sideFacts.get(path) ?? (changedPaths.has(path) ? null : readUnchanged(path));
    for (const pair of pairs) {
      const facts = pair[side];
      if (!facts || !calling(facts) || !hasUsableFacts(facts)) continue;
      const calls = facts.helperTests ?? [];
      const ruby = facts.language === "ruby" ? await rubyDefiners(pair.path, facts, exists, factsOf) : [];
      const imported = new Map<string, readonly TestDefinerFact[]>();
      for (const source of new Set(calls.flatMap((call) => (call.source === undefined ? [] : [call.source])))) {
        const target = resolveImport(pair.path, source, known) ?? (unchanged ? resolveImport(pair.path, source, unchangedProbe) : null);
        const module = target === null || target === pair.path ? null : await factsOf(target);
        imported.set(source, module && hasUsableFacts(module) ? (module.testDefiners ?? []) : []);
      }
      const { tests, open } = resolveCalls(calls, (call) => (call.source === undefined ? ruby : (imported.get(call.source) ?? [])).filter((definer) => definer.name === call.helper));
      pair[side] = withTests(facts, tests, open);
    }
  }
}

/** Unchanged test files read at most, and kept at most, per diff, when looking for the callers of a changed definer. */
const MAX_CALLER_READS = 60;
const MAX_CALLERS = 20;

/** A definer as one comparable text (its line left out): two sides with the same text define the same tests. */
function definerText(definer: TestDefinerFact): string {
  const { line: _line, ...rest } = definer;
  return JSON.stringify(rest);
}

/**
 * The unchanged test files that call a definer of a changed file whose
 * tests it defines differently or no more (its body dropped, run under a
 * `rescue`, its declaration skipped, the function gone), as pairs whose two
 * sides are the same facts (isUnchanged), for {@link linkDefinedTests} to
 * resolve each side against that side's definer: an agent hollows the
 * shared macro, not the tests. Candidates are the test files of the
 * definer's language whose text names it and that call it (JS/TS: through
 * an import of that file), nearest folder first, at most
 * {@link MAX_CALLER_READS} read and {@link MAX_CALLERS} kept; none when no
 * definer changed, so an ordinary change pays nothing.
 */
export async function loadDefinerCallers(
  pairs: readonly FactsPair[],
  unchanged: UnchangedFiles,
  extract: (path: string, content: string) => Promise<FileFacts>,
  isCallerPath: (path: string, language: string) => boolean,
): Promise<FactsPair[]> {
  const changed = pairs.flatMap((pair) => {
    const after = new Set((pair.after?.testDefiners ?? []).map(definerText));
    const names = [...new Set((pair.before?.testDefiners ?? []).filter((definer) => !after.has(definerText(definer))).map((definer) => definer.name))];
    return names.length > 0 && pair.before ? [{ path: pair.path, language: pair.before.language, names }] : [];
  });
  if (changed.length === 0) return [];
  const changedPaths = new Set(pairs.map((pair) => pair.path));
  const paths = [...unchanged.paths()].filter((path) => !changedPaths.has(path));
  const callers: FactsPair[] = [];
  const seen = new Set<string>();
  for (const module of changed) {
    const mentions = new RegExp(`(?<![\\w$])(?:${module.names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\w$])`);
    const ranked = paths
      .filter((path) => isCallerPath(path, module.language))
      .map((path) => ({ path, shared: sharedFolders(path, module.path) }))
      .sort((a, b) => b.shared - a.shared || a.path.localeCompare(b.path));
    let kept = 0;
    for (const { path } of ranked.slice(0, MAX_CALLER_READS)) {
      if (kept >= MAX_CALLERS) break;
      if (seen.has(path)) continue;
      const content = unchanged.read(path);
      if (content === null || !mentions.test(content)) continue;
      const facts = await extract(path, content).catch(() => null);
      if (!facts || !hasUsableFacts(facts)) continue;
      const isCalling = (facts.helperTests ?? []).some(
        (call) => module.names.includes(call.helper) && (call.source === undefined || resolveImport(path, call.source, new Set([module.path])) !== null),
      );
      if (!isCalling) continue;
      seen.add(path);
      kept++;
      callers.push({ path, before: facts, after: facts, isUnchanged: true });
    }
  }
  return callers;
}
