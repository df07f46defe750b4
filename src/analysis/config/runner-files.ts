/**
 * Runner configs of the compiled and scripting languages (issue 9, class
 * runner-narrowed / tag-excluded-in-config): Cargo.toml test targets, Maven
 * surefire/failsafe `<configuration>`, Gradle `test { }` filters, a
 * `.csproj`'s `<Compile Remove>`, `.rspec` options, RSpec's
 * `filter_run_excluding` in spec_helper.rb, phpunit.xml's testsuite
 * `<exclude>` and `<groups><exclude>`.
 *
 * Each is judged by the tests it really leaves out: an added exclusion is a
 * tamper only when an existing test file (one present before the change,
 * with test declarations) falls under it, so excluding a folder of
 * generated code or fixtures is not. An excluded tag/group is a tamper when
 * a test that existed before carries it after the change (it was tagged
 * already, or gains the tag in the same change); a tag carried only by
 * tests the change adds (a new benchmark) deselects nothing that ran.
 *
 * XML is read with fast-xml-parser (loaded on first use), TOML with
 * {@link parseToml}; Gradle scripts, `.rspec` and spec helpers as text.
 */

import type picomatch from "picomatch";
import type { TreeReader } from "../discovery.js";
import { languageForPath } from "../languages/index.js";
import { newlyDeprecated } from "./deprecations.js";
import { show, type TamperNote } from "./finding.js";
import { parseToml, type TomlValue } from "./ini.js";

/** Both trees of a change, the changes applied on the after side. */
export interface ChangeTrees {
  before: TreeReader;
  after: TreeReader;
}

/** Languages whose tests carry tags a runner config can exclude. */
type TagLanguage = "java" | "ruby" | "php";

/** Text that shows a file declares tests, per language id (languages/index.ts). */
const DECLARES_TESTS: Readonly<Record<string, RegExp>> = {
  java: /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property)\b|\bextends\s+TestCase\b/,
  csharp: /\[\s*(?:Fact|Theory|Test|TestCase|TestCaseSource|TestMethod|DataTestMethod)\b/,
  php: /\bfunction\s+test\w*\s*\(|#\[\s*(?:\\?PHPUnit\\Framework\\Attributes\\)?Test\s*\]|@test\b/,
  ruby: /^\s*(?:it|specify|example|scenario|test|its)\b|\bdef\s+test_/m,
  rust: /#\[\s*(?:tokio::)?test\b|#\[\s*(?:test_case|rstest)\b/,
};

let picomatchLoaded: Promise<typeof picomatch> | null = null;
/** picomatch, loaded once on first use (it is only needed when a config names globs). */
export function loadPicomatch(): Promise<typeof picomatch> {
  picomatchLoaded ??= import("picomatch").then((module) => module.default);
  return picomatchLoaded;
}

/** True when `glob` selects `path` (picomatch, `dot` files included). */
function matches(pm: typeof picomatch, path: string, glob: string, options: { nocase?: boolean } = {}): boolean {
  try {
    return pm(glob, { dot: true, ...options })(path);
  } catch {
    return false;
  }
}

type XmlNode = { [key: string]: unknown };
let xmlLoaded: Promise<(text: string) => XmlNode> | null = null;

/** fast-xml-parser, imported once: attributes under `@_name`, every element value kept as text. */
function loadXml(): Promise<(text: string) => XmlNode> {
  xmlLoaded ??= import("fast-xml-parser").then(({ XMLParser }) => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, parseAttributeValue: false, trimValues: true, processEntities: true });
    return (text: string) => parser.parse(text) as XmlNode;
  });
  return xmlLoaded;
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

function joined(dir: string, relative: string): string {
  const parts: string[] = [];
  for (const part of `${dir}/${relative.replace(/\\/g, "/")}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
}

/** `path` relative to `dir` ("" is the root), or null when it is not below it. */
function relativeTo(dir: string, path: string): string | null {
  if (dir === "") return path;
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : null;
}

/**
 * The test files below `dir` that existed before the change and still do,
 * in the given language: a test path by the language's conventions whose
 * text declares tests. `languages` are language ids (`java`, `csharp`, …).
 */
export function existingTestFiles(trees: ChangeTrees, dir: string, languages: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of trees.after.walk(dir)) {
    const language = languageForPath(path);
    if (!language || !languages.includes(language.id) || !language.isTestPath(path)) continue;
    const pattern = DECLARES_TESTS[language.id];
    const before = trees.before.read(path);
    if (before === null || (pattern && !pattern.test(before))) continue;
    found.push(path);
  }
  return found;
}

/** A note naming the existing test files an added exclusion leaves out. */
function exclusionNote(tool: string, setting: string, line: number | null, pattern: string, files: readonly string[], before: unknown, after: unknown): TamperNote {
  const shown = files.slice(0, 3).join(", ") + (files.length > 3 ? ` and ${files.length - 3} more` : "");
  return {
    setting,
    line,
    message: `${tool} ${setting} now leaves out ${show(pattern)}, which holds existing tests (${shown}): they no longer run`,
    before,
    after,
    detail: { excluded_added: [pattern], excluded_tests: files },
  };
}

// ---------------------------------------------------------------- tags

/** The declaration (`void name`, `function name`, `class Name`) a Java/PHP tag at `index` attaches to. */
function declarationAfter(text: string, index: number, language: "java" | "php"): string | null {
  const rest = text.slice(index, index + 2000);
  const match = (language === "java" ? /\b(?:void|class|interface)\s+(\w+)/ : /\b(?:function|class)\s+(\w+)/).exec(rest);
  return match ? (match[1] as string) : null;
}

/** Regex source of a tag as one language writes it on a test. */
function tagPatterns(language: TagLanguage, tag: string): RegExp {
  const name = tag.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (language === "java") return new RegExp(`@Tag\\s*\\(\\s*(?:value\\s*=\\s*)?"${name}"\\s*\\)|\\bgroups\\s*=\\s*\\{?[^)]*"${name}"`, "g");
  if (language === "php") return new RegExp(`#\\[\\s*(?:\\\\?PHPUnit\\\\Framework\\\\Attributes\\\\)?Group\\s*\\(\\s*['"]${name}['"]\\s*\\)|@group\\s+${name}\\b`, "g");
  // RSpec metadata on an example or group line: `:slow`, `slow: true`, `:slow => true`, `"slow" => true`.
  return new RegExp(
    `^[ \\t]*(?:RSpec\\.)?(?:describe|context|it|specify|example|scenario|feature|its|shared_examples)\\b[^\\n]*?(?:[,(]\\s*:${name}\\b(?!\\s*=>\\s*false)|[,(]\\s*${name}:(?!\\s*(?:false|nil)\\b)|[,(]\\s*["']${name}["']\\s*=>)`,
    "gm",
  );
}

/** The declarations of a file a tag attaches to: method/class names (Java, PHP), example/group lines' titles (Ruby). */
export function taggedDeclarations(text: string, language: TagLanguage, tag: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(tagPatterns(language, tag))) {
    if (language === "ruby") {
      const title = /\b(?:describe|context|it|specify|example|scenario|feature|its|shared_examples)\s*\(?\s*(["'][^"'\n]*["']|[A-Z][\w:]*)/.exec(match[0]);
      if (title) found.add(title[1] as string);
    } else {
      const name = declarationAfter(text, (match.index ?? 0) + match[0].length, language);
      if (name) found.add(name);
    }
  }
  return found;
}

/** True when `text` declares the method/class/example a {@link taggedDeclarations} key names. */
function declares(text: string, language: TagLanguage, key: string): boolean {
  if (language === "ruby") {
    const title = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`\\b(?:describe|context|it|specify|example|scenario|feature|its|shared_examples)\\s*\\(?\\s*${title}`).test(text);
  }
  return new RegExp(`\\b(?:void|function|class|interface)\\s+${key}\\b`).test(text);
}

/**
 * The names of the product code the change newly deprecates that every one
 * of the test files `paths` references (config/deprecations.ts), or null
 * when some file references none: tests set aside with the component the
 * change deprecates.
 */
function retiredWithDeprecation(paths: readonly string[], language: TagLanguage, dir: string, trees: ChangeTrees): string[] | null {
  const texts = paths.map((path) => trees.after.read(path) ?? "");
  const words = (text: string): Set<string> => new Set(text.match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? []);
  const candidates = new Set(texts.flatMap((text) => [...words(text)]));
  if (candidates.size === 0) return null;
  const product = trees.after.walk(dir).filter((path) => {
    const found = languageForPath(path);
    return found?.id === language && !found.isTestPath(path);
  });
  const deprecated = newlyDeprecated(trees, product, candidates, language);
  if (deprecated.size === 0) return null;
  const used = texts.map((text) => [...words(text)].filter((word) => deprecated.has(word)));
  return used.every((names) => names.length > 0) ? [...new Set(used.flat())].sort() : null;
}

/**
 * Notes for tags a config excludes that deselect existing tests: for a tag
 * newly excluded, tests that existed before and carry it after the change;
 * for one excluded already, tests that existed before and gain it now.
 * Tests of code the change deprecates set aside so are medium, not
 * critical ({@link retiredWithDeprecation}).
 */
export function tagExclusionNotes(
  tool: string,
  setting: string,
  line: number | null,
  beforeTags: readonly string[],
  afterTags: readonly string[],
  language: TagLanguage,
  dir: string,
  trees: ChangeTrees,
): TamperNote[] {
  const notes: TamperNote[] = [];
  const files = existingTestFiles(trees, dir, [language]);
  for (const tag of afterTags) {
    const isNew = !beforeTags.includes(tag);
    const hit: string[] = [];
    const hitPaths: string[] = [];
    for (const path of files) {
      const after = trees.after.read(path);
      const before = trees.before.read(path);
      if (after === null || before === null) continue;
      const taggedBefore = taggedDeclarations(before, language, tag);
      const deselected = [...taggedDeclarations(after, language, tag)].filter((key) => declares(before, language, key) && (isNew || !taggedBefore.has(key)));
      if (deselected.length > 0) {
        hit.push(`${path} (${deselected.join(", ")})`);
        hitPaths.push(path);
      }
    }
    if (hit.length === 0) continue;
    const retired = retiredWithDeprecation(hitPaths, language, dir, trees);
    notes.push({
      setting,
      line,
      message: `${tool} ${setting} leaves out tests tagged ${show(tag)}, and existing tests ${isNew ? "carry" : "now carry"} it: ${hit.slice(0, 3).join("; ")}${retired ? `; the change deprecates the code they test (${retired.join(", ")})` : ""}`,
      before: beforeTags,
      after: afterTags,
      ...(retired ? { severity: "medium" as const } : {}),
      detail: { excluded_tag: tag, tagged_tests: hit, ...(retired ? { deprecated: retired } : {}) },
    });
  }
  return notes;
}

// ---------------------------------------------------------------- Cargo.toml

interface CargoTarget {
  name: string;
  path: string;
  test: boolean;
  harness: boolean;
}

function cargoTargets(text: string | null, dir: string): { targets: Map<string, CargoTarget>; lib: { test: boolean; harness: boolean; path: string }; autotests: boolean } {
  const root = text === null ? {} : parseToml(text).root;
  const targets = new Map<string, CargoTarget>();
  const tests = root.test;
  for (const entry of Array.isArray(tests) ? tests : []) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) continue;
    const table = entry as { [key: string]: TomlValue };
    const name = typeof table.name === "string" ? table.name : null;
    const path = typeof table.path === "string" ? table.path : name ? `tests/${name}.rs` : null;
    if (!path) continue;
    const key = name ?? path;
    targets.set(key, { name: key, path: joined(dir, path), test: table.test !== false, harness: table.harness !== false });
  }
  const lib = root.lib !== undefined && typeof root.lib === "object" && !Array.isArray(root.lib) ? (root.lib as { [key: string]: TomlValue }) : {};
  const pkg = root.package !== undefined && typeof root.package === "object" && !Array.isArray(root.package) ? (root.package as { [key: string]: TomlValue }) : {};
  return {
    targets,
    lib: { test: lib.test !== false, harness: lib.harness !== false, path: joined(dir, typeof lib.path === "string" ? lib.path : "src/lib.rs") },
    autotests: pkg.autotests !== false,
  };
}

/** Cargo.toml: `[[test]]` targets turned off (`test = false`, `harness = false` over `#[test]` functions), `[lib] test = false`, `autotests = false` (doc.rust-lang.org/cargo/reference/cargo-targets.html). */
export function compareCargoToml(path: string, before: string | null, after: string | null, trees: ChangeTrees): TamperNote[] {
  if (after === null) return [];
  const dir = folderOf(path);
  const was = cargoTargets(before, dir);
  const now = cargoTargets(after, dir);
  const notes: TamperNote[] = [];
  const holdsTests = (file: string): boolean => {
    const text = trees.before.read(file);
    return text !== null && trees.after.read(file) !== null && (DECLARES_TESTS.rust as RegExp).test(text);
  };
  for (const target of now.targets.values()) {
    const old = was.targets.get(target.name);
    const turnedOff = !target.test && (old?.test ?? true);
    const unharnessed = !target.harness && (old?.harness ?? true) && !/\bfn\s+main\s*\(/.test(trees.after.read(target.path) ?? "");
    if ((turnedOff || unharnessed) && holdsTests(target.path)) {
      notes.push({
        setting: `[[test]] ${target.name}`,
        line: null,
        message: `Cargo.toml declares the test target ${show(target.name)} (${target.path}) with ${turnedOff ? "test = false" : "harness = false"}: cargo test no longer runs its tests`,
        before: old ? { test: old.test, harness: old.harness } : null,
        after: { test: target.test, harness: target.harness },
        detail: { excluded_tests: [target.path] },
      });
    }
  }
  if ((!now.lib.test && was.lib.test) || (!now.lib.harness && was.lib.harness)) {
    const files = trees.after.walk(joined(dir, "src")).filter((file) => file.endsWith(".rs") && holdsTests(file));
    if (files.length > 0) {
      notes.push({
        setting: "[lib]",
        line: null,
        message: `Cargo.toml sets ${now.lib.test ? "harness" : "test"} = false on the library: cargo test no longer runs its unit tests (${files.slice(0, 3).join(", ")})`,
        before: was.lib,
        after: now.lib,
        detail: { excluded_tests: files },
      });
    }
  }
  if (!now.autotests && was.autotests) {
    const declared = new Set([...now.targets.values()].map((target) => target.path));
    const tests = joined(dir, "tests");
    const files = trees.after.walk(tests).filter((file) => /^[^/]+\.rs$|^[^/]+\/main\.rs$/.test(relativeTo(tests, file) ?? "") && !declared.has(file) && holdsTests(file));
    if (files.length > 0) {
      notes.push({
        setting: "package.autotests",
        line: null,
        message: `Cargo.toml sets autotests = false: the undeclared integration tests ${files.slice(0, 3).join(", ")} no longer run`,
        before: true,
        after: false,
        detail: { excluded_tests: files },
      });
    }
  }
  return notes;
}

// ---------------------------------------------------------------- Maven, Gradle (Java/Kotlin classes)

/** A test file's path relative to its test source root (`src/test/java/`), else to `dir`. */
function classPath(dir: string, path: string): string | null {
  const relative = relativeTo(dir, path);
  if (relative === null) return null;
  const root = /(?:^|\/)src\/[\w-]*[tT]est[\w-]*\/(?:java|kotlin|groovy|scala)\//.exec(relative);
  return root ? relative.slice(root.index + root[0].length) : relative;
}

/** True when a surefire/Gradle class pattern (`**\/VatTest.java`, `VatTest`, `%regex[...]`, `com/example/**`) selects this test source path. */
function classPatternMatches(pm: typeof picomatch, pattern: string, relative: string): boolean {
  const regex = /^%regex\[(.*)\]$/.exec(pattern.trim());
  if (regex) {
    try {
      return new RegExp(regex[1] as string).test(relative.replace(/\.\w+$/, ".class"));
    } catch {
      return false;
    }
  }
  let glob = pattern
    .trim()
    .replace(/\\/g, "/")
    .replace(/^\//, "")
    .replace(/\.class$/, ".java");
  if (!glob.includes("/")) glob = `**/${glob}`;
  const bare = relative.replace(/\.\w+$/, "");
  const withJava = `${bare}.java`;
  return matches(pm, withJava, glob) || matches(pm, bare, glob) || matches(pm, relative, glob);
}

/** Java/Kotlin/Groovy test files below `dir` a class pattern selects. */
async function testsUnderClassPattern(dir: string, pattern: string, trees: ChangeTrees): Promise<string[]> {
  const pm = await loadPicomatch();
  return existingTestFiles(trees, dir, ["java"]).filter((path) => {
    const relative = classPath(dir, path);
    return relative !== null && classPatternMatches(pm, pattern, relative);
  });
}

function asList(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

function textOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value && typeof value === "object" && "#text" in value) return String((value as XmlNode)["#text"]);
  return null;
}

/** Every surefire/failsafe plugin `<configuration>` of a pom (build plugins, pluginManagement, profiles, executions), with its plugin's artifactId. */
function surefireConfigurations(node: unknown, into: { plugin: string; configuration: XmlNode }[] = []): { plugin: string; configuration: XmlNode }[] {
  if (Array.isArray(node)) {
    for (const item of node) surefireConfigurations(item, into);
    return into;
  }
  if (!node || typeof node !== "object") return into;
  const object = node as XmlNode;
  const artifact = textOf(object.artifactId);
  if (artifact === "maven-surefire-plugin" || artifact === "maven-failsafe-plugin") {
    for (const configuration of asList(object.configuration)) if (configuration && typeof configuration === "object") into.push({ plugin: artifact, configuration: configuration as XmlNode });
    for (const execution of asList((object.executions as XmlNode | undefined)?.execution)) {
      for (const configuration of asList((execution as XmlNode | undefined)?.configuration)) {
        if (configuration && typeof configuration === "object") into.push({ plugin: artifact, configuration: configuration as XmlNode });
      }
    }
    return into;
  }
  for (const [key, value] of Object.entries(object)) if (!key.startsWith("@_")) surefireConfigurations(value, into);
  return into;
}

/** Surefire's and failsafe's default `<includes>` (test-mojo / integration-test-mojo docs), as simple class names. */
const MAVEN_DEFAULT_INCLUDES: Readonly<Record<string, RegExp>> = {
  "maven-surefire-plugin": /^(?:Test\w*|\w*Test|\w*Tests|\w*TestCase)$/,
  "maven-failsafe-plugin": /^(?:IT\w*|\w*IT|\w*ITCase)$/,
};

interface MavenSettings {
  /** `plugin\u0000pattern` for every `<exclude>`. */
  excludes: string[];
  /** Plugins with their own `<includes>` (their defaults no longer apply). */
  customIncludes: Set<string>;
  excludedGroups: string[];
  skips: string[];
}

function mavenSettings(root: XmlNode): MavenSettings {
  const settings: MavenSettings = { excludes: [], customIncludes: new Set(), excludedGroups: [], skips: [] };
  for (const { plugin, configuration } of surefireConfigurations(root)) {
    for (const exclude of asList((configuration.excludes as XmlNode | undefined)?.exclude)) {
      const text = textOf(exclude);
      if (text)
        settings.excludes.push(
          ...text
            .split(",")
            .map((part) => `${plugin}\u0000${part.trim()}`)
            .filter((entry) => !entry.endsWith("\u0000")),
        );
    }
    if (configuration.includes !== undefined) settings.customIncludes.add(plugin);
    const groups = textOf(configuration.excludedGroups) ?? textOf(configuration.excludeGroups);
    if (groups) settings.excludedGroups.push(...groups.split(/[,\s]+/).filter(Boolean));
    for (const key of ["skipTests", "skip", "skipExec", "testFailureIgnore"]) if (textOf(configuration[key])?.trim() === "true") settings.skips.push(key);
  }
  const properties = (root.project as XmlNode | undefined)?.properties as XmlNode | undefined;
  for (const key of ["skipTests", "maven.test.skip", "maven.test.failure.ignore"]) if (properties && textOf(properties[key])?.trim() === "true") settings.skips.push(key);
  return settings;
}

/** pom.xml: surefire/failsafe `<excludes>` over existing test classes the plugin ran, `<excludedGroups>` over tagged tests, `skipTests`/`testFailureIgnore` turned on (maven.apache.org/surefire/maven-surefire-plugin/test-mojo.html). */
export async function comparePom(path: string, before: string | null, after: string | null, trees: ChangeTrees): Promise<TamperNote[]> {
  if (after === null) return [];
  const parse = await loadXml();
  const was: MavenSettings = before === null ? { excludes: [], customIncludes: new Set(), excludedGroups: [], skips: [] } : mavenSettings(parse(before));
  const now = mavenSettings(parse(after));
  const dir = folderOf(path);
  const notes: TamperNote[] = [];
  for (const entry of now.excludes.filter((entry) => !was.excludes.includes(entry))) {
    const [plugin, pattern] = entry.split("\u0000") as [string, string];
    const defaults = was.customIncludes.has(plugin) ? null : MAVEN_DEFAULT_INCLUDES[plugin];
    // Only classes the plugin ran before count: excluding *IT from surefire (failsafe runs them) leaves out nothing.
    const files = (await testsUnderClassPattern(dir, pattern, trees)).filter((file) => !defaults || defaults.test(file.slice(file.lastIndexOf("/") + 1).replace(/\.\w+$/, "")));
    if (files.length > 0)
      notes.push(
        exclusionNote(
          plugin === "maven-failsafe-plugin" ? "maven failsafe" : "maven surefire",
          "excludes",
          null,
          pattern,
          files,
          was.excludes.map((e) => e.split("\u0000")[1]),
          now.excludes.map((e) => e.split("\u0000")[1]),
        ),
      );
  }
  for (const skip of now.skips.filter((key) => !was.skips.includes(key))) {
    if (existingTestFiles(trees, dir, ["java"]).length === 0) break;
    notes.push({
      setting: skip,
      line: null,
      message: /failure/i.test(skip) ? `maven ${skip} is now true: failing tests no longer fail the build` : `maven ${skip} is now true: the tests no longer run`,
      before: null,
      after: true,
    });
  }
  notes.push(...tagExclusionNotes("maven surefire", "excludedGroups", null, was.excludedGroups, now.excludedGroups, "java", dir, trees));
  return notes;
}

/** `{`-blocks' headers enclosing each offset of a Gradle script, outermost first (strings and comments are not told apart: a rough reading). */
function enclosingHeaders(text: string, offset: number): string[] {
  const stack: string[] = [];
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const char = text[i];
    if (char === "\n") lineStart = i + 1;
    else if (char === "{") stack.push(text.slice(Math.max(lineStart, i - 120), i));
    else if (char === "}") stack.pop();
  }
  return stack;
}

const GRADLE_TEST_BLOCK = /(?:^|[\s.(])(?:test|tests|Test|filter|useJUnitPlatform|useJUnit|useTestNG|options|withType\s*[(<]\s*Test)\b|named\s*\(\s*["']test["']|register\s*\(\s*["']\w*[tT]est\w*["']/;

interface GradleSettings {
  excludes: string[];
  excludeTests: string[];
  excludeTags: string[];
}

function gradleSettings(text: string | null): GradleSettings {
  const settings: GradleSettings = { excludes: [], excludeTests: [], excludeTags: [] };
  if (text === null) return settings;
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " ")).replace(/\/\/[^\n]*/g, (comment) => " ".repeat(comment.length));
  const inTestBlock = (offset: number): boolean => enclosingHeaders(code, offset).some((header) => GRADLE_TEST_BLOCK.test(header));
  const strings = (args: string): string[] => [...args.matchAll(/["']([^"'\n]+)["']/g)].map((match) => match[1] as string);
  for (const match of code.matchAll(/\b(exclude|excludeTestsMatching|excludeTags|excludeCategories|excludeGroups)\b\s*(?:\(|\s)\s*((?:["'][^"'\n]*["']\s*,?\s*)+)/g)) {
    if (!inTestBlock(match.index ?? 0) && !/^test\./.test(code.slice(Math.max(0, (match.index ?? 0) - 5), match.index))) continue;
    const values = strings(match[2] as string);
    if (match[1] === "exclude") settings.excludes.push(...values);
    else if (match[1] === "excludeTestsMatching") settings.excludeTests.push(...values);
    else settings.excludeTags.push(...values);
  }
  return settings;
}

/** True when a Gradle `excludeTestsMatching` pattern (`*VatTest`, `com.example.VatTest.method`) selects tests of this class path. */
function classNameMatches(pattern: string, relative: string): boolean {
  const fqn = relative.replace(/\.\w+$/, "").replace(/\//g, ".");
  const simple = fqn.slice(fqn.lastIndexOf(".") + 1);
  const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  const classPart = pattern.replace(/\.[a-z]\w*$/, "");
  return (
    regex.test(fqn) ||
    regex.test(simple) ||
    (pattern.includes(".") && (classPart === fqn || classPart === simple || new RegExp(`^${classPart.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(fqn)))
  );
}

/** build.gradle(.kts): `exclude` / `excludeTestsMatching` over existing test classes, `excludeTags` over tagged tests, inside test task blocks (docs.gradle.org "Testing in Java & JVM projects"). */
export async function compareGradle(path: string, before: string | null, after: string | null, trees: ChangeTrees): Promise<TamperNote[]> {
  if (after === null) return [];
  const was = gradleSettings(before);
  const now = gradleSettings(after);
  const dir = folderOf(path);
  const notes: TamperNote[] = [];
  for (const pattern of now.excludes.filter((pattern) => !was.excludes.includes(pattern))) {
    const files = await testsUnderClassPattern(dir, pattern, trees);
    if (files.length > 0) notes.push(exclusionNote("gradle test", "exclude", null, pattern, files, was.excludes, now.excludes));
  }
  for (const pattern of now.excludeTests.filter((pattern) => !was.excludeTests.includes(pattern))) {
    const files = existingTestFiles(trees, dir, ["java"]).filter((file) => {
      const relative = classPath(dir, file);
      return relative !== null && classNameMatches(pattern, relative);
    });
    if (files.length > 0) notes.push(exclusionNote("gradle test", "filter.excludeTestsMatching", null, pattern, files, was.excludeTests, now.excludeTests));
  }
  notes.push(...tagExclusionNotes("gradle test", "excludeTags", null, was.excludeTags, now.excludeTags, "java", dir, trees));
  return notes;
}

// ---------------------------------------------------------------- .csproj

function compileRemoves(root: XmlNode): string[] {
  const removes: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node as XmlNode)) {
        if (key === "Compile")
          for (const item of asList(value)) {
            const remove = item && typeof item === "object" ? (item as XmlNode)["@_Remove"] : undefined;
            if (typeof remove === "string")
              removes.push(
                ...remove
                  .split(";")
                  .map((part) => part.trim())
                  .filter(Boolean),
              );
          }
        else if (!key.startsWith("@_")) walk(value);
      }
    }
  };
  walk(root);
  return removes;
}

/** A `.csproj`: `<Compile Remove="...">` over existing test sources (learn.microsoft.com, "MSBuild items": Remove). */
export async function compareCsproj(path: string, before: string | null, after: string | null, trees: ChangeTrees): Promise<TamperNote[]> {
  if (after === null) return [];
  const parse = await loadXml();
  const pm = await loadPicomatch();
  const was = before === null ? [] : compileRemoves(parse(before));
  const now = compileRemoves(parse(after));
  const dir = folderOf(path);
  const notes: TamperNote[] = [];
  for (const pattern of now.filter((pattern) => !was.includes(pattern))) {
    const glob = pattern.replace(/\\/g, "/").replace(/^\.\//, "");
    if (glob.includes("$(")) continue;
    const files = existingTestFiles(trees, dir, ["csharp"]).filter((file) => {
      const relative = relativeTo(dir, file);
      return relative !== null && (matches(pm, relative, glob, { nocase: true }) || relative.toLowerCase().startsWith(`${glob.replace(/\/+$/, "").toLowerCase()}/`));
    });
    if (files.length > 0) notes.push(exclusionNote("msbuild", "Compile Remove", null, pattern, files, was, now));
  }
  return notes;
}

// ---------------------------------------------------------------- RSpec

interface RspecOptions {
  excludedTags: string[];
  onlyTags: string[];
  excludePatterns: string[];
}

/** `.rspec` options (one or more per line): `--tag ~slow`, `--tag=~slow`, `-t ~slow`, `--tag focus`, `--exclude-pattern GLOB`. */
function rspecOptions(text: string | null): RspecOptions {
  const options: RspecOptions = { excludedTags: [], onlyTags: [], excludePatterns: [] };
  if (text === null) return options;
  const words =
    text
      .split(/\r?\n/)
      .filter((line) => !line.trimStart().startsWith("#"))
      .join(" ")
      .match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const unquote = (word: string): string => word.replace(/^(["'])(.*)\1$/, "$2");
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const inline = /^(--tag|--exclude-pattern)=(.*)$/.exec(word);
    const option = inline ? inline[1] : word;
    const value = inline ? inline[2] : words[i + 1];
    if (value === undefined) continue;
    if (option === "--tag" || option === "-t") {
      const tag = unquote(value).replace(/:(?:true)?$/, "");
      if (tag.startsWith("~"))
        options.excludedTags.push(
          tag
            .slice(1)
            .replace(/^:/, "")
            .replace(/:true$/, ""),
        );
      else options.onlyTags.push(tag.replace(/^:/, ""));
      if (!inline) i++;
    } else if (option === "--exclude-pattern") {
      options.excludePatterns.push(unquote(value));
      if (!inline) i++;
    }
  }
  return options;
}

/** Spec files below `dir` an RSpec glob (relative to the project folder) selects. */
async function specsUnder(dir: string, glob: string, trees: ChangeTrees): Promise<string[]> {
  const pm = await loadPicomatch();
  return existingTestFiles(trees, dir, ["ruby"]).filter((file) => {
    const relative = relativeTo(dir, file);
    return relative !== null && (matches(pm, relative, glob) || matches(pm, relative, `**/${glob}`));
  });
}

/** `.rspec` / `.rspec-local`: `--tag ~x` over tagged existing examples, `--tag x` (only tagged examples run), `--exclude-pattern` over existing spec files (rspec-core's command-line options). */
export async function compareRspecFile(path: string, before: string | null, after: string | null, trees: ChangeTrees): Promise<TamperNote[]> {
  if (after === null) return [];
  const was = rspecOptions(before);
  const now = rspecOptions(after);
  const dir = folderOf(path);
  const notes: TamperNote[] = [];
  for (const pattern of now.excludePatterns.filter((pattern) => !was.excludePatterns.includes(pattern))) {
    const files = await specsUnder(dir, pattern, trees);
    if (files.length > 0) notes.push(exclusionNote("rspec", "--exclude-pattern", null, pattern, files, was.excludePatterns, now.excludePatterns));
  }
  const added = now.onlyTags.filter((tag) => !was.onlyTags.includes(tag));
  if (added.length > 0 && existingTestFiles(trees, dir, ["ruby"]).length > 0) {
    notes.push({
      setting: "--tag",
      line: null,
      message: `rspec --tag ${added.join(", ")} now runs only the examples tagged so`,
      before: was.onlyTags,
      after: now.onlyTags,
    });
  }
  notes.push(...tagExclusionNotes("rspec", "--tag ~", null, was.excludedTags, now.excludedTags, "ruby", dir, trees));
  return notes;
}

/** Tags of `config.filter_run_excluding :slow` / `slow: true` / `:slow => true` calls in an RSpec helper, and `config.exclude_pattern = "..."` globs. */
function rspecHelperSettings(text: string | null): { excludedTags: string[]; excludePatterns: string[] } {
  const settings = { excludedTags: [] as string[], excludePatterns: [] as string[] };
  if (text === null) return settings;
  const code = text.replace(/^\s*#.*$/gm, "");
  for (const match of code.matchAll(/\bfilter_run_excluding\b\s*\(?([^\n]*)/g)) {
    const args = (match[1] as string).replace(/\)?\s*(?:if|unless)\b.*$/, "");
    for (const tag of args.matchAll(/(?:^|[\s,(]):(\w+)(?!\s*:)(?:\s*=>\s*(\w+))?|(?:^|[\s,(])(\w+):\s*(\w+)/g)) {
      const name = tag[1] ?? tag[3];
      const value = tag[2] ?? tag[4];
      if (name && value !== "false" && value !== "nil") settings.excludedTags.push(name);
    }
  }
  for (const match of code.matchAll(/\bexclude_pattern\s*=\s*["']([^"'\n]+)["']/g)) settings.excludePatterns.push(match[1] as string);
  return settings;
}

/** spec_helper.rb / rails_helper.rb: `config.filter_run_excluding` over tagged existing examples, `config.exclude_pattern` over existing spec files. */
export async function compareRspecHelper(path: string, before: string | null, after: string | null, trees: ChangeTrees): Promise<TamperNote[]> {
  if (after === null) return [];
  const was = rspecHelperSettings(before);
  const now = rspecHelperSettings(after);
  // The helper sits in spec/; RSpec's globs and examples belong to the project above it.
  const helperDir = folderOf(path);
  const project = /(?:^|\/)spec$/.test(helperDir) ? folderOf(helperDir) : helperDir;
  const notes: TamperNote[] = [];
  for (const pattern of now.excludePatterns.filter((pattern) => !was.excludePatterns.includes(pattern))) {
    const files = await specsUnder(project, pattern, trees);
    if (files.length > 0) notes.push(exclusionNote("rspec", "config.exclude_pattern", null, pattern, files, was.excludePatterns, now.excludePatterns));
  }
  notes.push(...tagExclusionNotes("rspec", "config.filter_run_excluding", null, was.excludedTags, now.excludedTags, "ruby", project, trees));
  return notes;
}

// ---------------------------------------------------------------- phpunit.xml

function phpunitSettings(root: XmlNode): { excludes: string[]; excludedGroups: string[] } {
  const settings = { excludes: [] as string[], excludedGroups: [] as string[] };
  const phpunit = root.phpunit as XmlNode | undefined;
  if (!phpunit || typeof phpunit !== "object") return settings;
  for (const suites of asList(phpunit.testsuites)) {
    for (const suite of asList((suites as XmlNode | undefined)?.testsuite)) {
      for (const exclude of asList((suite as XmlNode | undefined)?.exclude)) {
        const text = textOf(exclude);
        if (text) settings.excludes.push(text.trim());
      }
    }
  }
  for (const groups of asList(phpunit.groups)) {
    for (const exclude of asList((groups as XmlNode | undefined)?.exclude)) {
      for (const group of asList((exclude as XmlNode | undefined)?.group)) {
        const text = textOf(group);
        if (text) settings.excludedGroups.push(text.trim());
      }
    }
  }
  return settings;
}

/** phpunit.xml(.dist): a testsuite's `<exclude>` over existing test files, `<groups><exclude>` over tests of that group (docs.phpunit.de, "The XML Configuration File"). */
export async function comparePhpunitXml(path: string, before: string | null, after: string | null, trees: ChangeTrees): Promise<TamperNote[]> {
  if (after === null) return [];
  const parse = await loadXml();
  const was = before === null ? { excludes: [], excludedGroups: [] } : phpunitSettings(parse(before));
  const now = phpunitSettings(parse(after));
  const dir = folderOf(path);
  const notes: TamperNote[] = [];
  for (const entry of now.excludes.filter((entry) => !was.excludes.includes(entry))) {
    const target = joined(dir, entry).replace(/\/+$/, "");
    const files = existingTestFiles(trees, dir, ["php"]).filter((file) => file === target || file.startsWith(`${target}/`));
    if (files.length > 0) notes.push(exclusionNote("phpunit", "testsuite exclude", null, entry, files, was.excludes, now.excludes));
  }
  notes.push(...tagExclusionNotes("phpunit", "groups exclude", null, was.excludedGroups, now.excludedGroups, "php", dir, trees));
  return notes;
}
