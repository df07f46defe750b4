/**
 * Runtime requirements that error messages state ("Node.js v10 or higher is
 * required for regex lookbehinds", "requires Python 3.8+", "PHP >= 8.1 is
 * required"), judged against what the project's manifests support
 * (support.ts projectSupport). A guard refusing to run below a version the
 * project no longer supports cannot fire on any supported runtime: removing
 * it, and the test that faked an old runtime to reach it, takes nothing a
 * user could meet (sweep of micromatch/picomatch c0f9c5550d: the guard and
 * its test faking `process.version = 'v6.0.0'` went while engines said
 * `>=10`). Never throws.
 */

import { compareVersions, type Runtime, type StatedSupport } from "./support.js";

/** A runtime and the lowest version a message says it needs. */
export interface RuntimeRequirement {
  runtime: Runtime;
  version: number[];
}

/** Runtime names as messages spell them. */
const RUNTIME_NAMES: readonly [RegExp, Runtime][] = [
  [/^node(?:\.?js)?$/i, "node"],
  [/^python$/i, "python"],
  [/^php$/i, "php"],
  [/^ruby$/i, "ruby"],
  [/^go(?:lang)?$/i, "go"],
  [/^rust(?:c)?$/i, "rust"],
  [/^\.net$/i, "dotnet"],
];

const NAME = String.raw`(Node(?:\.?js)?|Python|PHP|Ruby|Go(?:lang)?|Rustc?|\.NET)`;
const VERSION = String.raw`v?(\d+(?:\.\d+)*)`;
/** `Node.js v10 or higher`, `Python 3.8+`, `PHP 8.1 or newer`, `Ruby 2.7 and later`. */
const AT_LEAST = new RegExp(String.raw`\b${NAME}\s*${VERSION}\s*(?:\+|or (?:higher|newer|later|above|greater)|and (?:up|above|higher|later|newer))`, "i");
/** `requires Node.js >= 10`, `Python >= 3.8 is required`, `needs Go 1.18`. */
const COMPARED = new RegExp(String.raw`\b${NAME}\s*(?:>=|≥|version\s*>=?)\s*${VERSION}`, "i");
const REQUIRED = new RegExp(String.raw`\b(?:requires?|needs?|required)\s+${NAME}\s*${VERSION}`, "i");

/** The runtime requirement a message states, or null (regex escapes read as the characters they match: `Node\.js`). */
export function runtimeRequirementOf(message: string): RuntimeRequirement | null {
  const text = message.replace(/\\([.+()[\]])/g, "$1");
  const match = AT_LEAST.exec(text) ?? COMPARED.exec(text) ?? REQUIRED.exec(text);
  if (!match) return null;
  const runtime = RUNTIME_NAMES.find(([pattern]) => pattern.test(match[1] as string))?.[1];
  return runtime ? { runtime, version: (match[2] as string).split(".").map(Number) } : null;
}

/** True when the project's stated minimum for the requirement's runtime already meets it: no supported runtime is refused. */
export function isMetBySupport(requirement: RuntimeRequirement, stated: ReadonlyMap<Runtime, StatedSupport>): boolean {
  const support = stated.get(requirement.runtime);
  return support !== undefined && compareVersions(support.minimum, requirement.version) >= 0;
}
