/**
 * The runtime versions a CI job runs its tests on, and what removing them
 * means against what the project says it supports (issue 9: a CI job or
 * matrix entry for a runtime version removed together with the support for
 * that version is routine; one removed while the project still supports the
 * version stops testing a supported runtime).
 *
 * A GitHub Actions job's versions come from its setup actions' inputs
 * (`actions/setup-node` `node-version`, `actions/setup-python`
 * `python-version`, `actions/setup-go` `go-version`, `dtolnay/rust-toolchain`
 * `toolchain` or its `@1.70` ref, `shivammathur/setup-php` `php-version`,
 * `ruby/setup-ruby` `ruby-version`, `pnpm/setup` `runtime: node@26`,
 * `volta-cli/action` `node-version`), literal or `${{ matrix.<axis> }}` (the
 * axis's values and its `include` entries), or from its `container` image
 * (`node:18`, `python:3.8-slim`); a matrix axis named for a runtime
 * (`node`, `python-version`) counts when no step names one. A GitLab job's
 * come from its `image` (`python:$PYTHON_VERSION` read through
 * `parallel: matrix`). The project's support is its root manifests' minimum
 * (support.ts {@link projectSupport}).
 */

import { ciVersion, isBelowMinimum, type Runtime, type StatedSupport } from "../support.js";
import type { StaticValue } from "./static-value.js";

type YamlObject = { [key: string]: StaticValue };
const isObject = (value: StaticValue | undefined): value is YamlObject => value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);

/** The versions a job runs one runtime on, as written; null when ralph cannot list them (an expression, a version file). */
export interface JobRuntime {
  runtime: Runtime;
  versions: string[] | null;
}

/** Setup actions by `uses` prefix: the runtime and the input naming its version. */
const SETUP_ACTIONS: readonly [RegExp, Runtime, string][] = [
  [/^actions\/setup-node@/, "node", "node-version"],
  [/^actions\/setup-python@/, "python", "python-version"],
  [/^actions\/setup-go@/, "go", "go-version"],
  [/^(dtolnay\/rust-toolchain|actions-rs\/toolchain|actions-rust-lang\/setup-rust-toolchain)@/, "rust", "toolchain"],
  [/^shivammathur\/setup-php@/, "php", "php-version"],
  [/^ruby\/setup-ruby@/, "ruby", "ruby-version"],
  // pnpm's own action installs Node.js too: `runtime: node@26` (its `node@` prefix read off by versionsOf's caller).
  [/^pnpm\/setup@/, "node", "runtime"],
  [/^volta-cli\/action@/, "node", "node-version"],
];

/** A runtime input written `name@version` (pnpm/setup's `runtime: node@26`): the version; other values as they are. */
function withoutRuntimeName(value: StaticValue | undefined, runtime: Runtime): StaticValue | undefined {
  const text = scalar(value);
  return text !== null && text.startsWith(`${runtime}@`) ? text.slice(runtime.length + 1) : value;
}

/** Official images by repository name. */
const IMAGES: Record<string, Runtime> = { node: "node", python: "python", golang: "go", rust: "rust", php: "php", ruby: "ruby" };

/** Matrix axes named for a runtime. */
const AXIS_NAMES: readonly [RegExp, Runtime][] = [
  [/^node([-_]?(version|js))?$|^nodejs$/i, "node"],
  [/^python([-_]?version)?$|^py$/i, "python"],
  [/^go([-_]?version)?$/i, "go"],
  [/^(rust([-_]?version)?|toolchain)$/i, "rust"],
  [/^php([-_]?version)?$/i, "php"],
  [/^ruby([-_]?version)?$/i, "ruby"],
];

/** A scalar as text (`18`, `"3.10"`); null for anything else. */
function scalar(value: StaticValue | undefined): string | null {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
}

/** The values of one axis of a static `strategy.matrix` (its list and `include` entries); null when the matrix is an expression or the axis is not there. */
function axisValues(matrix: StaticValue | undefined, axis: string): string[] | null {
  if (!isObject(matrix)) return null;
  const values: string[] = [];
  const own = matrix[axis];
  if (Array.isArray(own)) {
    for (const item of own) {
      const text = scalar(item);
      if (text === null) return null;
      values.push(text);
    }
  } else if (own !== undefined) return null;
  const include = Array.isArray(matrix.include) ? matrix.include : [];
  for (const entry of include) {
    if (!isObject(entry) || entry[axis] === undefined) continue;
    const text = scalar(entry[axis]);
    if (text === null) return null;
    values.push(text);
  }
  return own === undefined && values.length === 0 ? null : [...new Set(values)];
}

/** A version written as a literal, or through `${{ matrix.<axis> }}`; null when neither. */
function versionsOf(value: StaticValue | undefined, matrix: StaticValue | undefined): string[] | null {
  const text = scalar(value);
  if (text === null) return null;
  const axis = /^\$\{\{\s*matrix\.([\w.-]+)\s*\}\}$/.exec(text.trim());
  if (axis) return axisValues(matrix, axis[1] as string);
  return /\$\{\{/.test(text) ? null : [text.trim()];
}

/** `node:18`, `python:3.8-slim`, `docker.io/library/golang:1.22`: the runtime and the tag (an expression or variable kept as written). */
function imageRuntime(image: string): { runtime: Runtime; tag: string } | null {
  const match = /^(?:docker\.io\/)?(?:library\/)?([a-z]+):(\S+)$/.exec(image.trim());
  const runtime = match ? IMAGES[match[1] as string] : undefined;
  return match && runtime ? { runtime, tag: match[2] as string } : null;
}

/** An image tag's version part: `3.8-slim` -> `3.8`, `18-alpine` -> `18`. */
const tagVersion = (tag: string): string => tag.replace(/-.*$/, "");

/** The runtimes a GitHub Actions job runs its steps on. */
export function githubJobRuntimes(job: YamlObject): JobRuntime[] {
  const matrix = isObject(job.strategy) ? job.strategy.matrix : undefined;
  const found = new Map<Runtime, string[] | null>();
  const add = (runtime: Runtime, versions: string[] | null): void => {
    if (found.has(runtime)) {
      const known = found.get(runtime);
      found.set(runtime, known === null || known === undefined || versions === null ? null : [...new Set([...known, ...versions])]);
    } else found.set(runtime, versions);
  };
  for (const step of Array.isArray(job.steps) ? job.steps : []) {
    if (!isObject(step) || typeof step.uses !== "string") continue;
    const uses = step.uses;
    const setup = SETUP_ACTIONS.find(([pattern]) => pattern.test(uses));
    if (!setup) continue;
    const [, runtime, input] = setup;
    const inputs = isObject(step.with) ? step.with : {};
    let value = withoutRuntimeName(inputs[input], runtime);
    // `dtolnay/rust-toolchain@1.70`: the toolchain is the ref.
    if (value === undefined && runtime === "rust") value = uses.slice(uses.indexOf("@") + 1);
    if (value === undefined) {
      // No version named: a version file (`go-version-file`, `.nvmrc`) or the action's default decides.
      add(runtime, null);
      continue;
    }
    add(runtime, versionsOf(value, matrix));
  }
  const container = isObject(job.container) ? job.container.image : job.container;
  const image = typeof container === "string" ? imageRuntime(container) : null;
  if (image) {
    const versions = versionsOf(image.tag, matrix);
    add(image.runtime, versions === null ? null : versions.map(tagVersion));
  }
  if (isObject(matrix)) {
    for (const axis of Object.keys(matrix)) {
      const named = AXIS_NAMES.find(([pattern]) => pattern.test(axis));
      if (named && !found.has(named[1])) found.set(named[1], axisValues(matrix, axis));
    }
  }
  return [...found].map(([runtime, versions]) => ({ runtime, versions }));
}

/** The runtimes of a GitLab job from its image (`image: python:3.8`, `image: { name: node:$NODE }` with `parallel: matrix`). */
export function gitlabJobRuntimes(image: StaticValue | undefined, parallel: StaticValue | undefined): JobRuntime[] {
  const name = isObject(image) ? image.name : image;
  const found = typeof name === "string" ? imageRuntime(name) : null;
  if (!found) return [];
  const variable = /^\$\{?(\w+)\}?(.*)$/.exec(found.tag);
  if (!variable) return [{ runtime: found.runtime, versions: [tagVersion(found.tag)] }];
  const matrix = isObject(parallel) && Array.isArray(parallel.matrix) ? parallel.matrix : null;
  if (!matrix) return [{ runtime: found.runtime, versions: null }];
  const versions: string[] = [];
  for (const entry of matrix) {
    const value = isObject(entry) ? entry[variable[1] as string] : undefined;
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) {
      const text = scalar(item as StaticValue);
      if (text === null) return [{ runtime: found.runtime, versions: null }];
      versions.push(tagVersion(`${text}${variable[2] as string}`));
    }
  }
  return [{ runtime: found.runtime, versions: [...new Set(versions)] }];
}

/** Display names of runtimes. */
export const RUNTIME_LABELS: Record<Runtime, string> = { node: "Node.js", python: "Python", go: "Go", rust: "Rust", php: "PHP", ruby: "Ruby", dotnet: ".NET" };

/**
 * The runtime a removed job tested only on versions the project no longer
 * supports (every listed version below the stated minimum), with those
 * versions; null when it tested some supported or unknown version.
 */
export function unsupportedRuntimeOf(runtimes: readonly JobRuntime[], support: ReadonlyMap<Runtime, StatedSupport>): { runtime: JobRuntime; support: StatedSupport } | null {
  for (const runtime of runtimes) {
    const stated = support.get(runtime.runtime);
    if (!stated || runtime.versions === null || runtime.versions.length === 0) continue;
    const parsed = runtime.versions.map(ciVersion);
    if (parsed.every((version) => version !== null && isBelowMinimum(version, stated.minimum))) return { runtime, support: stated };
  }
  return null;
}

/**
 * The versions the test jobs no longer test although the project still
 * supports them, at either end of what they test, when they now test fewer
 * versions than before: the removed version lay below the lowest remaining
 * one or above the highest, and is not below the stated minimum. Left
 * alone: versions between the remaining ones (a matrix thinned), versions
 * the project no longer supports, runtimes whose support no manifest
 * states, and versions replaced one for one (the one toolchain CI tests on
 * bumped, `1.14` -> `1.19`; the oldest entry swapped for the newest).
 */
export function supportedVersionsDropped(
  before: readonly JobRuntime[],
  after: readonly JobRuntime[],
  support: ReadonlyMap<Runtime, StatedSupport>,
): { runtime: Runtime; versions: string[]; support: StatedSupport }[] {
  const result: { runtime: Runtime; versions: string[]; support: StatedSupport }[] = [];
  for (const old of before) {
    const stated = support.get(old.runtime);
    const next = after.find((candidate) => candidate.runtime === old.runtime);
    if (!stated || !next || old.versions === null || next.versions === null) continue;
    const remaining = next.versions.map(ciVersion);
    if (remaining.length === 0 || remaining.some((version) => version === null)) continue;
    const known = remaining as number[][];
    const lowest = known.reduce((low, version) => (compare(version, low) < 0 ? version : low));
    const highest = known.reduce((high, version) => (compare(version, high) > 0 ? version : high));
    const kept = new Set(known.map((version) => version.join(".")));
    const before = new Set(old.versions.map((text) => ciVersion(text)?.join(".") ?? text));
    if (kept.size >= before.size) continue; // as many versions as before: an upgrade, not a drop
    const dropped = old.versions.filter((text) => {
      const version = ciVersion(text);
      if (version === null || kept.has(version.join(".")) || isBelowMinimum(version, stated.minimum)) return false;
      return compare(version, lowest) < 0 || compare(version, highest) > 0;
    });
    if (dropped.length > 0) result.push({ runtime: old.runtime, versions: dropped, support: stated });
  }
  return result;
}

/** Versions compared at the shorter one's precision (`3.10` against `3.10.4` is equal). */
function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) < (b[i] as number) ? -1 : 1;
  return 0;
}
