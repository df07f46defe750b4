/**
 * Which paths an agent must not rewrite behind the detector's back: test
 * files (by the language registry's own test-path rules, or by the common
 * naming conventions of languages ralph has no analyzer for yet) and test
 * configuration files (runner configs, package.json, CI pipelines…).
 * Cheap: no parser is loaded.
 */
import { isConfigPath } from "../analysis/config/index.js";
import { languageForPath } from "../analysis/index.js";
import { isUnderTestDirectory } from "../analysis/languages/language.js";

/** What a protected path is. */
export type ProtectedKind = "test" | "test-config";

/** `test_x.py`, `x_test.go`, `XTest.java`, `x_spec.rb`, `x.test.ts`, `x.spec.js`, or anything under a test directory. */
function looksLikeTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const stem = name.includes(".") ? name.slice(0, name.indexOf(".")) : name;
  return (
    isUnderTestDirectory(path) || /^tests?_/i.test(stem) || /[._-](test|tests|spec)$/i.test(stem) || /[a-z0-9](Test|Tests|Spec)$/.test(stem) || /\.(test|spec)\./i.test(name) || name === "conftest.py"
  );
}

/** The kind of a repository-relative path, or null when it is neither a test nor a test config file. */
export function protectedKindOf(path: string): ProtectedKind | null {
  const clean = path.replace(/^\.\//, "");
  if (clean === "" || clean.startsWith("/dev/")) return null;
  const language = languageForPath(clean);
  if ((language && language.isTestPath(clean)) || looksLikeTestFile(clean)) return "test";
  if (isConfigPath(clean)) return "test-config";
  return null;
}

/**
 * True for ralph's own state and config, which only ralph and the human
 * write: `.aiwg/ralph/…` (loop state, hook log) and the project config
 * `aiwg.yml` / `aiwg.yaml` (src/config/load.ts).
 */
export function isRalphStatePath(path: string): boolean {
  const clean = path.replace(/\\/g, "/").replace(/^\.\//, "");
  const name = clean.slice(clean.lastIndexOf("/") + 1);
  return name === "aiwg.yml" || name === "aiwg.yaml" || /(^|\/)\.aiwg\/ralph(\/|$)/.test(clean);
}
