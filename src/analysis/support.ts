/**
 * The runtime versions a project supports, read from its manifests, and
 * whether a version-gated skip leaves a test dead under them (issue 9: a
 * test that runs only on an interpreter the change stops supporting is
 * dropped with that support, and loses no check on any supported version).
 *
 * Manifests read (their minimum version only): pyproject.toml
 * `project.requires-python` (or Poetry's `tool.poetry.dependencies.python`),
 * setup.cfg `[options] python_requires`, setup.py `python_requires`,
 * package.json `engines.node`, go.mod's `go` directive, Cargo.toml
 * `package.rust-version` (or `workspace.package.rust-version`),
 * composer.json `require.php`, a *.gemspec's `required_ruby_version`, and a
 * *.csproj `TargetFramework(s)` (`net8.0`; the lowest of a list). TOML, ini
 * and JSON are read with their parsers (config/ini.ts, JSON.parse), the rest
 * by pattern. Never throws.
 */

import { parseIni, parseToml, type TomlValue } from "./config/ini.js";
import type { FileChange } from "./types.js";

/** A runtime whose minimum version a manifest states. */
export type Runtime = "python" | "node" | "go" | "rust" | "php" | "ruby" | "dotnet";

/** A runtime's minimum supported version before and after a change, where a manifest on either side states one. */
export interface SupportChange {
  runtime: Runtime;
  /** The manifest's path. */
  path: string;
  /** Version numbers ([3, 9]); null when the side states none (or the file is absent). */
  before: number[] | null;
  after: number[] | null;
  /** The requirement as written after the change (`>=3.10`), for messages. */
  afterText: string | null;
}

/** The first version (`3.10`, `8.1.0`) in a requirement, after a lower-bound operator when there is one. */
function minimumOf(requirement: string): number[] | null {
  const lower = /(?:>=|\^|~>|~=|~|>)\s*v?(\d+(?:\.\d+)*)/.exec(requirement) ?? /(?:^|[\s,|])v?(\d+(?:\.\d+)*)/.exec(requirement);
  return lower ? (lower[1] as string).split(".").map(Number) : null;
}

/** A JSON file's value at a path of keys, as a string, or null. */
function jsonString(text: string, keys: readonly string[]): string | null {
  try {
    let value: unknown = JSON.parse(text);
    for (const key of keys) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/** A TOML document's string at a path of keys, or null (also when the text is no TOML). */
function tomlString(text: string, ...paths: (readonly string[])[]): string | null {
  let root: TomlValue;
  try {
    root = parseToml(text).root;
  } catch {
    return null;
  }
  for (const keys of paths) {
    let value: TomlValue | undefined = root;
    for (const key of keys) value = value !== undefined && typeof value === "object" && !Array.isArray(value) ? value[key] : undefined;
    if (typeof value === "string") return value;
  }
  return null;
}

/** The lowest `netX.Y` / `netcoreappX.Y` of a project's `TargetFramework` or `TargetFrameworks` list (`net8.0;net9.0` -> 8.0). */
function lowestTargetFramework(text: string): string | null {
  const list = /<TargetFrameworks?>([^<]*)<\/TargetFrameworks?>/.exec(text)?.[1] ?? "";
  const versions = [...list.matchAll(/\bnet(?:coreapp)?(\d+(?:\.\d+)*)\b/g)].map((match) => match[1] as string);
  if (versions.length === 0) return null;
  return versions.reduce((low, next) => (compareVersions(next.split(".").map(Number), low.split(".").map(Number)) < 0 ? next : low));
}

/** The runtime and requirement text one manifest states, or null when the path is no manifest or states none. */
export function statedRequirement(path: string, text: string): { runtime: Runtime; requirement: string } | null {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const match = (pattern: RegExp): string | null => pattern.exec(text)?.[1] ?? null;
  let found: [Runtime, string | null] | null = null;
  if (name === "pyproject.toml")
    found = ["python", tomlString(text, ["project", "requires-python"], ["tool", "poetry", "dependencies", "python"]) ?? match(/^\s*requires-python\s*=\s*["']([^"']+)["']/m)];
  else if (name === "setup.cfg") found = ["python", parseIni(text).get("options")?.get("python_requires")?.value ?? null];
  else if (name === "setup.py") found = ["python", match(/python_requires\s*=\s*["']([^"'\n]+)["']/)];
  else if (name === "package.json") found = ["node", jsonString(text, ["engines", "node"])];
  else if (name === "go.mod") found = ["go", match(/^go\s+(\d+(?:\.\d+)*)\s*$/m)];
  else if (name === "Cargo.toml") found = ["rust", tomlString(text, ["package", "rust-version"], ["workspace", "package", "rust-version"])];
  else if (name === "composer.json") found = ["php", jsonString(text, ["require", "php"])];
  else if (name.endsWith(".gemspec")) found = ["ruby", match(/required_ruby_version\s*=\s*(?:Gem::Requirement\.new\()?\s*["']([^"']+)["']/)];
  else if (name.endsWith(".csproj")) found = ["dotnet", lowestTargetFramework(text)];
  if (!found || found[1] === null || found[1].trim() === "") return null;
  return { runtime: found[0], requirement: found[1].trim() };
}

/** What a project says it supports of one runtime: the manifest, its requirement as written, and the minimum version. */
export interface StatedSupport {
  runtime: Runtime;
  path: string;
  requirement: string;
  minimum: number[];
  /** The minimum stated before the change, when the change raised it. */
  raisedFrom?: number[];
}

/** Root manifests by runtime, in the order a project's own tools read them (pyproject.toml before setup.cfg and setup.py). */
const ROOT_MANIFESTS: readonly string[] = ["package.json", "pyproject.toml", "setup.cfg", "setup.py", "go.mod", "Cargo.toml", "composer.json"];

/**
 * The minimum versions a project states in its root manifests (and the
 * *.gemspec files among `rootNames`, the names of the root's files), by
 * runtime; the first manifest that states one wins. `read` reads a
 * repo-relative path of the tree (null when absent).
 */
export function projectSupport(read: (path: string) => string | null, rootNames: readonly string[] = []): Map<Runtime, StatedSupport> {
  const found = new Map<Runtime, StatedSupport>();
  for (const path of [...ROOT_MANIFESTS, ...rootNames.filter((name) => name.endsWith(".gemspec")).sort()]) {
    const text = read(path);
    const stated = text === null ? null : statedRequirement(path, text);
    if (!stated || found.has(stated.runtime)) continue;
    const minimum = minimumOf(stated.requirement);
    if (minimum) found.set(stated.runtime, { runtime: stated.runtime, path, requirement: stated.requirement, minimum });
  }
  return found;
}

/**
 * A runtime version as a CI matrix or a setup action writes it, as numbers:
 * `18`, `"3.10"`, `18.x`, `v20`, `1.70.0`, `8.1.*`; null for anything else
 * (`lts/*`, `stable`, `nightly`, `pypy3.9`, `3.13-dev`, an expression).
 */
export function ciVersion(text: string): number[] | null {
  const cleaned = text
    .trim()
    .replace(/^v/, "")
    .replace(/(\.(x|\*))+$/, "");
  return /^\d+(\.\d+)*$/.test(cleaned) ? cleaned.split(".").map(Number) : null;
}

/** True when `version` (as precise as written: `3.8`, `18`) lies below `minimum`: 3.8 below 3.9, 20 below 22; 18 is not below 18.0.0. */
export function isBelowMinimum(version: readonly number[], minimum: readonly number[]): boolean {
  return compareVersions(version, minimum.slice(0, version.length)) < 0;
}

/** The support changes of a diff: each changed manifest whose stated minimum differs between the sides. */
export function supportChanges(changes: readonly FileChange[]): SupportChange[] {
  const result: SupportChange[] = [];
  for (const change of changes) {
    const before = change.before === null ? null : statedRequirement(change.path, change.before);
    const after = change.after === null ? null : statedRequirement(change.path, change.after);
    const runtime = after?.runtime ?? before?.runtime;
    if (!runtime) continue;
    const beforeVersion = before ? minimumOf(before.requirement) : null;
    const afterVersion = after ? minimumOf(after.requirement) : null;
    if (compareVersions(beforeVersion ?? [], afterVersion ?? []) === 0) continue;
    result.push({ runtime, path: change.path, before: beforeVersion, after: afterVersion, afterText: after?.requirement ?? null });
  }
  return result;
}

/** -1, 0 or 1 as `a` is older than, the same as, or newer than `b` (missing parts count as 0). */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const left = a[i] ?? 0;
    const right = b[i] ?? 0;
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}

/** One comparison of the running version with a literal one: the version `op` `version`. */
interface VersionComparison {
  runtime: Runtime;
  op: "<" | "<=" | ">" | ">=";
  version: number[];
}

const FLIPPED: Record<VersionComparison["op"], VersionComparison["op"]> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
const NEGATED: Record<VersionComparison["op"], VersionComparison["op"]> = { "<": ">=", "<=": ">", ">": "<=", ">=": "<" };

/** What reads the running version in a condition, per runtime. */
const VERSION_READS: readonly [Runtime, RegExp][] = [
  ["python", /^sys\.version_info(\s*\[\s*:\s*\d\s*\]|\s*\[\s*0\s*:\s*\d\s*\])?$/],
  ["ruby", /^(RUBY_VERSION|Gem::Version\.new\(\s*RUBY_VERSION\s*\))$/],
  ["php", /^PHP_VERSION(_ID)?$/],
  ["node", /^process\.versions?(\.node)?$/],
];

/** A literal version as numbers: `(3, 10)`, `"3.1"`, `80100` (PHP_VERSION_ID), or null. */
function literalVersion(text: string, runtime: Runtime, read: string): number[] | null {
  const trimmed = text.trim().replace(/^Gem::Version\.new\(\s*(.*)\s*\)$/, "$1");
  if (runtime === "php" && read.endsWith("_ID") && /^\d{5,6}$/.test(trimmed)) {
    const id = Number(trimmed);
    return [Math.floor(id / 10000), Math.floor(id / 100) % 100, id % 100];
  }
  const tuple = /^\(\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*\)$/.exec(trimmed);
  if (tuple) return (tuple[1] as string).split(",").map((part) => Number(part.trim()));
  const quoted = /^["']v?(\d+(?:\.\d+)*)["']$/.exec(trimmed);
  return quoted ? (quoted[1] as string).split(".").map(Number) : null;
}

/**
 * A condition's comparison of the running version, or null when it is no
 * single such comparison. `not x`, `!x` and `!(x)` negate; a bare name is
 * looked up in `flags` (module-level constants bound to a comparison,
 * `PY_3_10_PLUS = sys.version_info[:2] >= (3, 10)`).
 */
export function versionComparison(condition: string, flags: ReadonlyMap<string, string> = new Map(), depth = 0): VersionComparison | null {
  let text = condition.trim();
  while (/^\(.*\)$/.test(text) && balanced(text.slice(1, -1))) text = text.slice(1, -1).trim();
  const negation = /^(?:not\s+|!\s*)(.*)$/s.exec(text);
  if (negation) {
    const inner = versionComparison(negation[1] as string, flags, depth);
    return inner ? { ...inner, op: NEGATED[inner.op] } : null;
  }
  if (/^[A-Za-z_][\w.]*$/.test(text)) {
    const bound = flags.get(text) ?? flags.get(text.slice(text.lastIndexOf(".") + 1));
    return bound !== undefined && depth < 3 ? versionComparison(bound, flags, depth + 1) : null;
  }
  const parts = /^(.+?)\s*(<=|>=|<|>)\s*(.+)$/s.exec(text);
  if (!parts) return null;
  const [left, op, right] = [(parts[1] as string).trim(), parts[2] as VersionComparison["op"], (parts[3] as string).trim()];
  for (const [runtime, read] of VERSION_READS) {
    if (read.test(left)) {
      const version = literalVersion(right, runtime, left);
      if (version) return { runtime, op, version };
    }
    if (read.test(right)) {
      const version = literalVersion(left, runtime, right);
      if (version) return { runtime, op: FLIPPED[op], version };
    }
  }
  return null;
}

/** True when every opening parenthesis of the text closes within it. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** True when the comparison holds for every version at or above `minimum` (it cannot hold only for an upper range). */
function holdsFrom(comparison: VersionComparison, minimum: readonly number[]): boolean {
  // Versions are compared at the comparison's precision: (3, 10) against 3.10.x.
  const floor = minimum.slice(0, Math.max(comparison.version.length, 1));
  const order = compareVersions(floor, comparison.version);
  if (comparison.op === ">=") return order >= 0;
  if (comparison.op === ">") return order > 0;
  return false;
}

/**
 * The support change under which a test skipped when `condition` holds
 * runs on no supported version any more (it is skipped from the new
 * minimum up) while it ran on some version supported before; null when
 * there is none (the condition is no version comparison, the change did not
 * raise that runtime's minimum, or the test still runs somewhere).
 */
export function deadUnderSupport(condition: string, support: readonly SupportChange[], flags: ReadonlyMap<string, string> = new Map()): SupportChange | null {
  const comparison = versionComparison(condition, flags);
  if (!comparison) return null;
  for (const change of support) {
    if (change.runtime !== comparison.runtime || change.after === null) continue;
    if (change.before !== null && compareVersions(change.after, change.before) <= 0) continue;
    if (!holdsFrom(comparison, change.after)) continue;
    if (change.before !== null && holdsFrom(comparison, change.before)) continue; // dead before too: not this change's doing
    return change;
  }
  return null;
}

/** True when an MSBuild file's text turns nullable reference types on and their warnings into errors (`<Nullable>enable</Nullable>` with `nullable` in `<WarningsAsErrors>`, or `<TreatWarningsAsErrors>true</TreatWarningsAsErrors>`). */
function hasNullableErrors(text: string | null): boolean {
  if (text === null) return false;
  const isEnabled = /<Nullable>\s*enable\s*<\/Nullable>/i.test(text);
  const asErrors = /<WarningsAsErrors>[^<]*\bnullable\b[^<]*<\/WarningsAsErrors>/i.test(text) || /<TreatWarningsAsErrors>\s*true\s*<\/TreatWarningsAsErrors>/i.test(text);
  return isEnabled && asErrors;
}

/**
 * The folders of the C# projects (a `*.csproj`, or a `Directory.Build.props`
 * for the folders below it) whose change turned nullable warnings into
 * errors: on after the change and not before. Under them, passing a bare
 * `null` where a parameter is not nullable no longer compiles ("" is the root).
 */
export function nullableErrorScopes(changes: readonly FileChange[]): string[] {
  return changes
    .filter((change) => /(?:^|\/)(?:[^/]+\.csproj|Directory\.Build\.props)$/i.test(change.path) && hasNullableErrors(change.after) && !hasNullableErrors(change.before))
    .map((change) => change.path.slice(0, Math.max(0, change.path.lastIndexOf("/"))));
}
