/**
 * What a change stops building with: packages it drops from the project's
 * npm manifests (with the package a JS/TS import specifier names), and the
 * .NET target frameworks it stops building for ({@link droppedTargets}). A test deleted with a package it
 * imports (the change takes `form-data` out of package.json and the tests
 * that built `new FormData()` from it go: sindresorhus/got 670b2289dd) could
 * no longer run: its module would fail to load. That is support for the
 * package going with the package (rules/features.ts reclassifyDeletions),
 * feature_removal at medium, not a test_deletion. A package named in any
 * manifest after the change (moved between a workspace's package.json
 * files) is not dropped, and a file's test framework never counts: tests
 * deleted in a framework migration are deletions.
 *
 * The npm manifest fields are those of the package.json spec
 * (https://docs.npmjs.com/cli/v10/configuring-npm/package-json):
 * dependencies, devDependencies, peerDependencies, optionalDependencies.
 */

import { parseToml, type TomlValue } from "./config/ini.js";
import type { FileChange } from "./types.js";

/** A package the change takes out of a manifest: its name and the manifest's path. */
export interface DroppedDependency {
  name: string;
  manifest: string;
}

/** package.json fields that name packages the project installs. */
const NPM_DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const;

/** The package names a package.json text declares (see the module comment), or null when it is not a JSON object. */
export function npmDependencies(text: string): Set<string> | null {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return null;
  }
  if (manifest === null || typeof manifest !== "object" || Array.isArray(manifest)) return null;
  const names = new Set<string>();
  for (const field of NPM_DEPENDENCY_FIELDS) {
    const entries = (manifest as Record<string, unknown>)[field];
    if (entries !== null && typeof entries === "object" && !Array.isArray(entries)) for (const name of Object.keys(entries)) names.add(name);
  }
  return names;
}

/** True for a package.json path (any folder of a workspace). */
function isNpmManifest(path: string): boolean {
  return path === "package.json" || path.endsWith("/package.json");
}

/**
 * The packages the change's package.json files declare before and no
 * manifest of the change declares after (see the module comment), sorted
 * by name. A manifest that cannot be read on either side, or that the
 * change deletes, drops nothing. Never throws.
 */
export function droppedDependencies(changes: readonly FileChange[]): DroppedDependency[] {
  return droppedNames(changes, isNpmManifest, npmDependencies);
}

/**
 * The names `namesOf` reads in the manifests (`isManifest`) of a change
 * before it and in none of them after it, with the manifest that lost each,
 * sorted by name: a manifest the change deletes, or one unreadable on a
 * side, drops nothing (what it names after still counts as kept).
 */
function droppedNames(changes: readonly FileChange[], isManifest: (path: string) => boolean, namesOf: (text: string) => Set<string> | null): DroppedDependency[] {
  const kept = new Set<string>();
  const candidates: DroppedDependency[] = [];
  for (const change of changes) {
    if (!isManifest(change.path) || change.after === null) continue;
    const after = namesOf(change.after);
    if (after === null) continue;
    for (const name of after) kept.add(name);
    const before = change.before === null ? null : namesOf(change.before);
    for (const name of before ?? []) if (!after.has(name)) candidates.push({ name, manifest: change.path });
  }
  return candidates.filter((entry) => !kept.has(entry.name)).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The npm package an import specifier names (`form-data`, `@scope/pkg` of
 * `@scope/pkg/sub/path.js`, `lodash` of `lodash/fp`), or null for a
 * relative or absolute path, a `node:` builtin or a URL.
 */
export function npmPackageOf(specifier: string): string | null {
  if (specifier === "" || /^[./]|^[a-z][\w+.-]*:/i.test(specifier)) return null;
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 && parts[1] !== "" ? `${parts[0]}/${parts[1]}` : null;
  return parts[0] ?? null;
}

/** MSBuild project and props files, whose `<TargetFramework(s)>` name the frameworks a .NET project builds for. */
const MSBUILD_FILE = /\.(?:csproj|fsproj|vbproj|props|targets)$/i;

/** True for an MSBuild project, props or targets file: read for the build targets a change drops ({@link droppedTargets}). */
export function isMsBuildPath(path: string): boolean {
  return MSBUILD_FILE.test(path);
}

/**
 * The target framework monikers an MSBuild text names, lower-case: the
 * `;`-separated values of `<TargetFramework>`, `<TargetFrameworks>` and of
 * the properties projects define for them (`<LibraryTargetFrameworks>`,
 * `<SpecsTargetFrameworks>`: any element named `…TargetFramework(s)`), and
 * the monikers conditions compare `$(TargetFramework)` with
 * (`Condition="'$(TargetFramework)' == 'netstandard2.1'"`). Values that are
 * property references (`$(LibraryTargetFrameworks)`) name none.
 */
export function targetFrameworks(text: string | null): Set<string> {
  const found = new Set<string>();
  const add = (moniker: string): void => {
    const value = moniker.trim().toLowerCase();
    if (/^[a-z][\w.-]*$/.test(value)) found.add(value);
  };
  for (const match of (text ?? "").matchAll(/<(\w*TargetFrameworks?)\b[^>]*>([^<]*)<\/\1>/gi)) for (const moniker of (match[2] as string).split(";")) add(moniker);
  for (const match of (text ?? "").matchAll(/'\$\(TargetFramework\)'\s*==\s*'([^']+)'/gi)) add(match[1] as string);
  return found;
}

/**
 * The .NET target frameworks the change stops building for: named by the
 * `<TargetFramework(s)>` of an MSBuild file it changes or deletes before,
 * and by none of its MSBuild files after (lower-case, sorted). A table
 * test's rows for such a target (FakeItEasy ffe32a33fa dropped
 * netstandard2.0, netstandard2.1 and net6.0, and the API approval rows
 * `[InlineData("FakeItEasy", "net6.0")]` went with them) test a build that
 * no longer exists (rules/features.ts rowsFinding). Never throws.
 */
export function droppedTargets(changes: readonly FileChange[]): string[] {
  const before = new Set<string>();
  const after = new Set<string>();
  for (const change of changes) {
    if (!MSBUILD_FILE.test(change.path)) continue;
    for (const moniker of targetFrameworks(change.before)) before.add(moniker);
    for (const moniker of targetFrameworks(change.after)) after.add(moniker);
  }
  return [...before].filter((moniker) => !after.has(moniker)).sort();
}

/** A TOML table as a record, or null. */
function tableOf(value: TomlValue | undefined): Record<string, TomlValue> | null {
  return value !== undefined && typeof value === "object" && !Array.isArray(value) ? value : null;
}

/**
 * The features a Cargo.toml text declares, or null when it is no TOML: the
 * keys of its `[features]` table, and each optional dependency (of
 * `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]` and their
 * `[target.'cfg(…)'.*]` forms), an implicit feature of its name unless a
 * feature names it `dep:name` (The Cargo Book, "Features": "Optional
 * dependencies").
 */
export function cargoFeatures(text: string): Set<string> | null {
  let root: Record<string, TomlValue> | null;
  try {
    root = tableOf(parseToml(text).root);
  } catch {
    return null;
  }
  if (!root) return null;
  const features = tableOf(root.features) ?? {};
  const names = new Set(Object.keys(features));
  const explicit = new Set(
    Object.values(features)
      .flatMap((entries) => (Array.isArray(entries) ? entries : []))
      .flatMap((entry) => (typeof entry === "string" && entry.startsWith("dep:") ? [entry.slice(4)] : [])),
  );
  const tables = [root, ...Object.values(tableOf(root.target) ?? {}).map(tableOf)];
  for (const table of tables)
    for (const field of ["dependencies", "dev-dependencies", "build-dependencies"])
      for (const [name, spec] of Object.entries(tableOf(table?.[field]) ?? {})) if (tableOf(spec)?.optional === true && !explicit.has(name)) names.add(name);
  return names;
}

/**
 * The Cargo features the change's Cargo.toml files declare before and none
 * of them declares after ({@link cargoFeatures}), as {@link
 * DroppedDependency} entries (the feature's name, the manifest), sorted by
 * name. A test compiled only under such a feature (`#[cfg(feature =
 * "drain_keep_rest")]`) can no longer be built: servo/rust-smallvec 5522939
 * took out `drain_keep_rest` with the API its test called
 * (rules/features.ts). A manifest the change deletes, or that cannot be
 * read on either side, drops nothing. Never throws.
 */
export function droppedCargoFeatures(changes: readonly FileChange[]): DroppedDependency[] {
  return droppedNames(changes, (path) => path === "Cargo.toml" || path.endsWith("/Cargo.toml"), cargoFeatures);
}

/**
 * The dropped features ({@link droppedCargoFeatures}) without which a test
 * gated by `cfg` (TestCase.flagVia.conditional: `#[cfg(feature = "x")]`,
 * `#[cfg(all(feature = "x", unix))]`) is never compiled: each feature the
 * predicate requires, when one of them is dropped; for `any(…)`, all of
 * them, when all are dropped and the predicate names nothing else. A `not`
 * anywhere in it reads nothing. Empty when the test is not so gated.
 */
export function droppedFeaturesGating(gate: string | undefined, dropped: readonly DroppedDependency[]): DroppedDependency[] {
  const predicate = /^#\[cfg\((.*)\)\]$/s.exec(gate ?? "")?.[1];
  if (predicate === undefined || /\bnot\s*\(/.test(predicate)) return [];
  const named = [...predicate.matchAll(/\bfeature\s*=\s*"([^"]+)"/g)].map((match) => match[1] as string);
  const gone = named.flatMap((name) => dropped.filter((entry) => entry.name === name));
  if (gone.length === 0) return [];
  if (!/\bany\s*\(/.test(predicate)) return gone;
  const others = predicate.replace(/\bfeature\s*=\s*"[^"]+"/g, "").replace(/\b(?:any|all)\b|[(),\s]/g, "");
  return others === "" && gone.length === named.length ? gone : [];
}
