/**
 * Test commands as written in package.json scripts, Makefile recipes, CI
 * steps, tox `commands` and pytest `addopts`: a small shell reader that finds
 * the test runner invocations in a command line and what each one selects,
 * and a comparison that says how the after command runs fewer tests, masks
 * their failures, or no longer runs them at all.
 *
 * The reader knows shell quoting, `&&`/`||`/`;`/`|` lists, environment
 * prefixes and the usual launchers (`npx`, `pnpm exec`, `poetry run`,
 * `python -m`, `c8`/`nyc`, `coverage run -m`). It does not expand variables
 * except those a caller passes in (Makefile variables).
 */

import type { TreeReader } from "../discovery.js";
import { show, type TamperNote } from "./finding.js";
import { joinRelative, resolveScope } from "./scope.js";

/** How one shell segment is joined to the one before it. */
type Joiner = "start" | "&&" | "||" | ";" | "|" | "&" | "newline";

/** One simple command of a command line, as words with quotes removed. */
export interface ShellSegment {
  joiner: Joiner;
  words: string[];
}

/** A test runner found in a command: its family and the words after it. */
export interface RunnerInvocation {
  /** `vitest`, `jest`, `pytest`, `go test`, `npm run test:unit`, `make test`, … */
  runner: string;
  /** Option family, which decides how the arguments are read. */
  family: RunnerFamily;
  /** Positional arguments: files, folders or name filters (`vitest run a.test.ts`, `pytest tests/x.py`). */
  positional: string[];
  /** Options by canonical name; a flag has the value `true`; repeated options keep every value. */
  options: Map<string, (string | true)[]>;
  /** Coverage thresholds of an enclosing `c8`/`nyc` wrapper or the runner's own options, by metric. */
  thresholds: Map<string, number>;
  /**
   * The folder the runner starts in, relative to where the command line
   * starts ("" the same), after the `cd` / `pushd` before it; null when a
   * `cd` goes somewhere ralph cannot read (a variable, an absolute path,
   * `cd -`, a subshell's).
   */
  cwd: string | null;
}

/** What a whole command line does about tests. */
export interface CommandAnalysis {
  /** Runner invocations in order. */
  invocations: RunnerInvocation[];
  /** Constructs that make a failing runner succeed: `|| true`, `|| exit 0`, `| tee`, `; true`. */
  masks: string[];
  /** True when the command only prints (`echo`, `printf`) or does nothing (`true`, `exit 0`, `:`). */
  isNoOp: boolean;
}

type RunnerFamily = "js" | "mocha" | "pytest" | "go" | "cargo" | "node" | "dotnet" | "maven" | "script" | "generic";

/** Splits a command line into simple commands. Quotes are removed; comments dropped; redirections skipped. */
export function splitShell(command: string): ShellSegment[] {
  const segments: ShellSegment[] = [];
  let words: string[] = [];
  let joiner: Joiner = "start";
  let word = "";
  let hasWord = false;
  const endWord = (): void => {
    if (hasWord) words.push(word);
    word = "";
    hasWord = false;
  };
  const endSegment = (next: Joiner): void => {
    endWord();
    if (words.length > 0) {
      segments.push({ joiner, words });
      joiner = next;
    } else if (next !== "newline") {
      joiner = segments.length === 0 ? "start" : next;
    }
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    const next = command[i + 1];
    if (char === "\\" && next === "\n") {
      i++;
      continue;
    }
    if (char === "\\" && next !== undefined) {
      word += next;
      hasWord = true;
      i++;
      continue;
    }
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end === -1 ? command.length : end);
      hasWord = true;
      i = end === -1 ? command.length : end;
      continue;
    }
    if (char === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && j + 1 < command.length && '"\\$`'.includes(command[j + 1] as string)) j++;
        word += command[j];
      }
      hasWord = true;
      i = j;
      continue;
    }
    if (char === "#" && !hasWord) {
      while (i < command.length && command[i] !== "\n") i++;
      i--;
      continue;
    }
    if (char === "&" && next === "&") {
      endSegment("&&");
      i++;
    } else if (char === "|" && next === "|") {
      endSegment("||");
      i++;
    } else if (char === "|") {
      endSegment("|");
    } else if (char === ";") {
      endSegment(";");
    } else if (char === "&" && next !== ">") {
      endSegment("&");
    } else if (char === "\n") {
      endSegment("newline");
    } else if (char === "$" && command.startsWith("${{", i)) {
      // A GitHub Actions expression is one word, whatever it contains.
      const end = command.indexOf("}}", i + 3);
      const stop = end === -1 ? command.length : end + 2;
      word += command.slice(i, stop);
      hasWord = true;
      i = stop - 1;
    } else if (char === "$" && next === "(") {
      // Command substitution stays inside the word: `$(MAKE)`, `$(git ls-files)`.
      let depth = 0;
      let j = i;
      for (; j < command.length; j++) {
        if (command[j] === "(") depth++;
        else if (command[j] === ")" && --depth === 0) break;
      }
      word += command.slice(i, j + 1);
      hasWord = true;
      i = j;
    } else if (char === "(" || char === ")") {
      endSegment(";"); // a subshell: its commands are read like any others
    } else if (char === " " || char === "\t" || char === "\r") {
      endWord();
    } else if ((char === ">" || char === "<") && !hasWord) {
      // Redirection: skip the operator and its target.
      let j = i + 1;
      if (command[j] === ">" || command[j] === "&") j++;
      while (command[j] === " ") j++;
      while (j < command.length && !" \t\n;|&".includes(command[j] as string)) j++;
      i = j - 1;
    } else if ((char === ">" || char === "<") && /^\d$/.test(word)) {
      word = "";
      hasWord = false;
      let j = i + 1;
      if (command[j] === ">" || command[j] === "&") j++;
      while (command[j] === " ") j++;
      while (j < command.length && !" \t\n;|&".includes(command[j] as string)) j++;
      i = j - 1;
    } else {
      word += char;
      hasWord = true;
    }
  }
  endSegment("newline");
  return segments;
}

/** npm-style script names that run tests. */
const TEST_SCRIPT_NAME = /(^|[:_-])(test|tests|spec|e2e|unit|integration)([:_-]|$)|^test/i;

/** Test runner binaries that `pnpm <bin>`/`yarn <bin>` run directly. */
const RUNNER_BINARIES: ReadonlySet<string> = new Set(["vitest", "jest", "mocha", "ava", "playwright", "cypress", "pytest", "tap", "tape", "uvu", "karma", "jasmine", "wdio", "bnt", "borp"]);

/** Make targets that run tests. */
const TEST_TARGET_NAME = /^(test|tests|check|unittest|unit|integration|e2e|spec|ci)([-_:.].*)?$|[-_]tests?$/i;

/** Words that only launch the next word (with their own options skipped). */
const LAUNCHERS: Record<string, { valueOptions: ReadonlySet<string> }> = {
  npx: { valueOptions: new Set(["-p", "--package", "-c", "--call"]) },
  bunx: { valueOptions: new Set(["-p", "--package"]) },
  "cross-env": { valueOptions: new Set() },
  env: { valueOptions: new Set(["-u", "-C"]) },
  time: { valueOptions: new Set() },
  command: { valueOptions: new Set() },
  exec: { valueOptions: new Set() },
  nohup: { valueOptions: new Set() },
  "xvfb-run": { valueOptions: new Set(["-s", "--server-args", "-n", "--server-num", "-e", "--error-file", "-f", "--auth-file"]) },
  dotenv: { valueOptions: new Set(["-e", "-c", "-v"]) },
  sudo: { valueOptions: new Set(["-u", "-g"]) },
  // `uvx` is `uv tool run`: the tool named next runs in a throwaway environment (`uvx --with tox-uv tox -e py312`).
  uvx: { valueOptions: new Set(["--with", "--with-editable", "--with-requirements", "--from", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--constraints", "--overrides"]) },
};

/** Options of `uv run`, `poetry run`, `pdm run`, `hatch run`, `pipx run` that take a value. */
const PYTHON_RUN_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "--spec",
  "--group",
  "--only-group",
  "--no-group",
  "--extra",
  "--with",
  "--with-editable",
  "--with-requirements",
  "--python",
  "-p",
  "--package",
  "--env-file",
  "--directory",
  "--project",
  "--index",
  "--index-url",
  "--extra-index-url",
  "-C",
  "-P",
  "-e",
  "--env",
]);

/** Coverage wrappers whose own options come before the wrapped command. */
const COVERAGE_WRAPPERS: Record<string, { valueOptions: ReadonlySet<string> }> = {
  c8: {
    valueOptions: new Set([
      "-r",
      "--reporter",
      "-x",
      "--exclude",
      "-n",
      "--include",
      "--src",
      "-o",
      "--reports-dir",
      "--report-dir",
      "--temp-directory",
      "-e",
      "--extension",
      "--lines",
      "--branches",
      "--functions",
      "--statements",
      "--per-file",
      "--config",
      "--exclude-after-remap",
    ]),
  },
  nyc: {
    valueOptions: new Set([
      "-r",
      "--reporter",
      "-x",
      "--exclude",
      "-n",
      "--include",
      "--report-dir",
      "--temp-dir",
      "-e",
      "--extension",
      "--lines",
      "--branches",
      "--functions",
      "--statements",
      "--require",
      "-i",
      "--cwd",
      "--nycrc-path",
    ]),
  },
};

/** pytest plugin flags that turn a run into a lint run. */
const PYTEST_LINT_FLAGS: ReadonlySet<string> = new Set(["--pep8", "--flakes", "--flake8", "--mypy", "--black", "--isort", "--pylint", "--pycodestyle", "--codestyle", "--ruff", "--ruff-format"]);

const THRESHOLD_METRICS = ["lines", "branches", "functions", "statements"] as const;

/** Per family: options that take a value, name filters, ignore options, and flags that narrow the run. */
interface FamilySpec {
  valueOptions: ReadonlySet<string>;
  /** Options that select tests by name or marker; adding or changing one runs fewer tests. */
  filterOptions: ReadonlySet<string>;
  /** Options whose values exclude tests. */
  ignoreOptions: ReadonlySet<string>;
  /** Flags or options whose mere presence narrows the run or makes an empty run pass. */
  narrowingOptions: ReadonlySet<string>;
  /** Do positional words select files or names? */
  isPositionalFilter: boolean;
  /**
   * What no positional word selects, when that is not every test: `go test`
   * alone tests the package in the current folder (`.`), `go help packages`.
   */
  defaultSelection?: readonly string[];
  /** Whether selection `wide` includes selection `narrow` (default {@link isPathCovered}). */
  covers?: (wide: string, narrow: string) => boolean;
  /**
   * True when a bare word (no `/`, `.` or `:`) after a long option ralph does
   * not know takes that option's value (`--coverage-output-format cobertura`):
   * for runners whose positional words are paths (projects, folders, files).
   */
  isBareWordAnOptionValue?: boolean;
  /**
   * The one spelling of an option name the sets above use, for a runner
   * that accepts several (`--package` and `-p`, `--test-name-pattern` and
   * `--testNamePattern`); `name` is already split from an inline value.
   */
  canonical?: (name: string, runner: string) => string;
  /**
   * Reads a word of a syntax other than `--name=value` (MSBuild's
   * `/p:X=Y`, `-p:X=Y`, `--property:X=Y`): its canonical name and inline
   * value, or null when the word is no such switch.
   */
  readOption?: (word: string) => [string, string | undefined] | null;
  /**
   * Options that choose what to test the way positional words do (cargo's
   * `-p`, maven's `-pl`, pytest's `--ignore`): judged by what they select in
   * the tree when it is at hand (config/scope.ts), by their words otherwise.
   */
  scopeOptions?: ReadonlySet<string>;
}

/** A canonicaliser from a table of spellings (`--package` -> `-p`); names not in it stay as written. */
function aliases(table: Record<string, string>, then?: (name: string) => string): (name: string) => string {
  return (name) => table[name] ?? (then ? then(name) : name);
}

/** `--test-name-pattern` -> `--testNamePattern` (jest and vitest read both; the sets use camelCase). */
function camelLongOption(name: string): string {
  return name.startsWith("--") && name.includes("-", 2) ? `--${name.slice(2).replace(/-([a-z])/g, (_all, letter: string) => letter.toUpperCase())}` : name;
}

/** `--allowUncaught` -> `--allow-uncaught` (mocha reads both through yargs; the sets use kebab-case). */
function kebabLongOption(name: string): string {
  return name.startsWith("--") ? name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`) : name;
}

/**
 * MSBuild switches as `dotnet test` forwards them (learn.microsoft.com,
 * "MSBuild command-line reference"): `/name`, `-name` or `--name`, with the
 * value after a colon; short and long names are one switch (`p` and
 * `property`). Canonical names are `-` plus the long name.
 */
const MSBUILD_SWITCHES: Record<string, string> = {
  p: "property",
  property: "property",
  t: "target",
  target: "target",
  v: "verbosity",
  verbosity: "verbosity",
  m: "maxcpucount",
  maxcpucount: "maxcpucount",
  bl: "binarylogger",
  binarylogger: "binarylogger",
  nr: "nodereuse",
  nodereuse: "nodereuse",
  r: "restore",
  restore: "restore",
  rp: "restoreproperty",
  restoreproperty: "restoreproperty",
  clp: "consoleloggerparameters",
  consoleloggerparameters: "consoleloggerparameters",
  fl: "filelogger",
  filelogger: "filelogger",
  flp: "fileloggerparameters",
  fileloggerparameters: "fileloggerparameters",
  err: "warnaserror",
  warnaserror: "warnaserror",
  nowarn: "warnnotaserror",
  noerr: "warnnotaserror",
  warnnotaserror: "warnnotaserror",
  ds: "detailedsummary",
  detailedsummary: "detailedsummary",
  tl: "terminallogger",
  terminallogger: "terminallogger",
  nologo: "nologo",
  noconlog: "noconsolelogger",
  noconsolelogger: "noconsolelogger",
  noautorsp: "noautoresponse",
  noautoresponse: "noautoresponse",
  graph: "graphbuild",
  graphbuild: "graphbuild",
  isolate: "isolateprojects",
  isolateprojects: "isolateprojects",
};

/** `dotnet test`'s own short options and their long names (learn.microsoft.com, "dotnet test"). */
const DOTNET_TEST_ALIASES: Record<string, string> = {
  "-c": "--configuration",
  "-f": "--framework",
  "-l": "--logger",
  "-s": "--settings",
  "-v": "--verbosity",
  "-o": "--output",
  "-r": "--runtime",
  "-a": "--test-adapter-path",
  "-d": "--diag",
  "-e": "--environment",
  "-t": "--list-tests",
  "-bl": "-binarylogger",
  "--property": "-property",
  "-property": "-property",
  "--verbosity": "--verbosity",
};

/**
 * A `dotnet test` word as an MSBuild switch or a System.CommandLine option
 * with a `:` value: `/p:CI=true`, `-p:CI=true`, `--property:CI=true` and
 * `-property:CI=true` are all `-property` = `CI=true`; `/v:m` and `-v:m`
 * are `--verbosity` = `m`; `--filter:X` is `--filter` = `X`. A word with
 * more than one `/` before its colon is a path (`/src/app/App.csproj`).
 */
function readDotnetOption(word: string): [string, string | undefined] | null {
  const match = /^(\/|--?)([A-Za-z][A-Za-z0-9-]*)(?::([\s\S]*))?$/.exec(word);
  if (!match) return null;
  const [, prefix, rawName, value] = match as unknown as [string, string, string, string | undefined];
  const msbuild = MSBUILD_SWITCHES[rawName.toLowerCase()];
  // `/p:X`, `-p:X`, `-property:X`, `/nologo`: MSBuild's own syntax. `--property:X` is dotnet's option forwarding to it.
  if (msbuild !== undefined && (prefix === "/" || value !== undefined || prefix === "-")) {
    const name = msbuild === "verbosity" ? "--verbosity" : `-${msbuild}`;
    if (prefix === "-" && value === undefined && DOTNET_TEST_ALIASES[`-${rawName}`] !== undefined) return null; // `-t`, `-v`, `-r`: dotnet's own
    return [name, value];
  }
  if (prefix === "--" && value !== undefined) return [DOTNET_TEST_ALIASES[`--${rawName}`] ?? `--${rawName}`, value];
  return null;
}

/** Maven's long options and their short names (maven.apache.org, "Maven CLI Options Reference"). */
const MAVEN_ALIASES: Record<string, string> = {
  "--projects": "-pl",
  "--file": "-f",
  "--activate-profiles": "-P",
  "--settings": "-s",
  "--global-settings": "-gs",
  "--threads": "-T",
  "--resume-from": "-rf",
  "--log-file": "-l",
  "--also-make": "-am",
  "--also-make-dependents": "-amd",
  "--fail-never": "-fn",
  "--fail-at-end": "-fae",
  "--fail-fast": "-ff",
  "--batch-mode": "-B",
  "--quiet": "-q",
  "--offline": "-o",
  "--update-snapshots": "-U",
  "--no-transfer-progress": "-ntp",
  "--errors": "-e",
  "--debug": "-X",
  "--non-recursive": "-N",
  "--define": "-D",
  "--toolchains": "-t",
  "--builder": "-b",
};

/** cargo-hack's feature-set options that take a value (github.com/taiki-e/cargo-hack, "Options"). */
const CARGO_HACK_VALUE_OPTIONS = ["--exclude-features", "--skip-features", "--include-features", "--group-features", "--mutually-exclusive-features", "--at-least-one-of", "--depth"];

/** `-Dkey=value` and `-D key=value` (read as `-D` with a value) are the option `-Dkey` with `value`. */
function readMavenOption(word: string): [string, string | undefined] | null {
  const match = /^-D([^=]+)(?:=([\s\S]*))?$/.exec(word);
  return match ? [`-D${match[1] as string}`, match[2]] : null;
}

const FAMILIES: Record<RunnerFamily, FamilySpec> = {
  js: {
    valueOptions: new Set([
      "-c",
      "--config",
      "-r",
      "--root",
      "--dir",
      "--reporter",
      "--reporters",
      "--outputFile",
      "--project",
      "--environment",
      "--pool",
      "--shard",
      "-t",
      "--testNamePattern",
      "--mode",
      "--exclude",
      "--maxWorkers",
      "--minWorkers",
      "--testTimeout",
      "--retry",
      "--rootDir",
      "--roots",
      "--selectProjects",
      "--testPathPattern",
      "--testPathPatterns",
      "--testPathIgnorePatterns",
      "--coverageReporters",
      "--testEnvironment",
      "--env",
      "--changedSince",
      "--workspace",
      "--browser",
      "--coverageDirectory",
      "--collectCoverageFrom",
      "--setupFiles",
      "--globalSetup",
      "--testSequencer",
      "--seed",
    ]),
    filterOptions: new Set(["-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns", "--project", "--selectProjects", "--shard", "--changedSince"]),
    ignoreOptions: new Set(["--exclude", "--testPathIgnorePatterns"]),
    narrowingOptions: new Set(["--passWithNoTests", "--onlyChanged", "-o", "--changed", "--findRelatedTests", "--related", "--listTests", "--lastCommit", "--onlyFailures", "-f"]),
    isPositionalFilter: true,
    // jest and vitest both read `-t` and `-c` so, and every long option in kebab-case too; jest's own short flags are jest's only.
    canonical: (name, runner) =>
      aliases(
        { "-t": "--testNamePattern", "-c": "--config", ...(runner === "jest" ? { "-o": "--onlyChanged", "-f": "--onlyFailures", "-i": "--runInBand", "-w": "--maxWorkers" } : {}) },
        camelLongOption,
      )(name),
  },
  mocha: {
    valueOptions: new Set([
      "-g",
      "--grep",
      "-f",
      "--fgrep",
      "-t",
      "--timeout",
      "-R",
      "--reporter",
      "-r",
      "--require",
      "--spec",
      "--ignore",
      "--exclude",
      "--config",
      "-u",
      "--ui",
      "--file",
      "--extension",
      "--slow",
      "-s",
      "-O",
      "--reporter-option",
      "-j",
      "--jobs",
      "--retries",
    ]),
    filterOptions: new Set(["-g", "--grep", "-f", "--fgrep", "-i", "--invert"]),
    ignoreOptions: new Set(["--ignore", "--exclude"]),
    narrowingOptions: new Set(["--dry-run", "--pass-on-failing-test-suite", "--allow-uncaught"]),
    isPositionalFilter: true,
    canonical: aliases(
      { "-g": "--grep", "-f": "--fgrep", "-i": "--invert", "-t": "--timeout", "-R": "--reporter", "-r": "--require", "-u": "--ui", "-j": "--jobs", "-s": "--slow", "-O": "--reporter-option" },
      kebabLongOption,
    ),
  },
  pytest: {
    valueOptions: new Set([
      "-k",
      "-m",
      "-c",
      "-p",
      "-o",
      "--override-ini",
      "--ignore",
      "--ignore-glob",
      "--deselect",
      "--rootdir",
      "--cov",
      "--cov-report",
      "--cov-fail-under",
      "--cov-config",
      "--junitxml",
      "--junit-xml",
      "-n",
      "--numprocesses",
      "--maxfail",
      "--tb",
      "-W",
      "--log-level",
      "--basetemp",
      "--confcutdir",
      "--timeout",
      "-r",
      "--durations",
      "--import-mode",
      "--dist",
      "--reruns",
      "--html",
      "--capture",
      "--ds",
      "--count",
      "--random-order-seed",
    ]),
    filterOptions: new Set(["-k", "-m", "--lf", "--last-failed", "--sw", "--stepwise", "--nf"]),
    ignoreOptions: new Set(["--ignore", "--ignore-glob", "--deselect"]),
    narrowingOptions: new Set(["--co", "--collect-only", "--collectonly", "--continue-on-collection-errors", "--runxfail-not", "--setup-only", "--setup-plan"]),
    isPositionalFilter: true,
    scopeOptions: new Set(["--ignore", "--ignore-glob"]),
    // pytest's long spellings of the short flags (pytest --help); `--collectonly` is the old name of `--co`.
    canonical: aliases({
      "--exitfirst": "-x",
      "--quiet": "-q",
      "--verbose": "-v",
      "--last-failed": "--lf",
      "--failed-first": "--ff",
      "--stepwise": "--sw",
      "--new-first": "--nf",
      "--collect-only": "--co",
      "--collectonly": "--co",
      "--numprocesses": "-n",
      "--override-ini": "-o",
      "--junit-xml": "--junitxml",
      "--config-file": "-c",
    }),
  },
  go: {
    valueOptions: new Set([
      "-run",
      "-skip",
      "-tags",
      "-timeout",
      "-count",
      "-coverprofile",
      "-covermode",
      "-coverpkg",
      "-p",
      "-parallel",
      "-bench",
      "-cpu",
      "-benchtime",
      "-o",
      "-exec",
      "-shuffle",
      "-json",
    ]),
    filterOptions: new Set(["-run"]),
    ignoreOptions: new Set(["-skip"]),
    narrowingOptions: new Set(["-short"]),
    isPositionalFilter: true,
    // Go's flag package reads `-run` and `--run` alike, and `go test` passes `-test.run` on as `-run`.
    canonical: (name) => name.replace(/^--(?=[a-z])/, "-").replace(/^-test\./, "-"),
    defaultSelection: ["."],
    covers: isGoPackageCovered,
  },
  cargo: {
    valueOptions: new Set([
      "-p",
      "--package",
      "--features",
      "-F",
      "--test",
      "--bin",
      "--example",
      "--bench",
      "--target",
      "-j",
      "--jobs",
      "--profile",
      "--manifest-path",
      "--exclude",
      "--skip",
      "-E",
      "--filterset",
      "--partition",
      "--target-dir",
      "--message-format",
      "--config",
      "--color",
      "-Z",
      ...CARGO_HACK_VALUE_OPTIONS,
      "--version-range",
      "--version-step",
      // cargo-nextest's run options (nexte.st, "cargo nextest run --help")
      "--retries",
      "--test-threads",
      "--run-ignored",
      "--cargo-profile",
      "--status-level",
      "--final-status-level",
      "--failure-output",
      "--success-output",
    ]),
    filterOptions: new Set(["-p", "--package", "--test", "--bin", "--lib", "--doc", "--bins", "--exact", "-E", "--filterset", "--partition", "--ignored"]),
    ignoreOptions: new Set(["--skip", "--exclude"]),
    narrowingOptions: new Set(["--no-run", "--list"]),
    isPositionalFilter: true,
    // cargo's long options and their short names (doc.rust-lang.org/cargo, "cargo test"); `--all` is the old name of `--workspace`.
    scopeOptions: new Set(["-p", "--workspace", "--exclude"]),
    canonical: aliases({ "--package": "-p", "--features": "-F", "--jobs": "-j", "--release": "-r", "--all": "--workspace", "--quiet": "-q", "--verbose": "-v" }),
  },
  node: {
    valueOptions: new Set([
      "--test-name-pattern",
      "--test-skip-pattern",
      "--test-reporter",
      "--test-reporter-destination",
      "--test-concurrency",
      "--test-timeout",
      "--test-shard",
      "--import",
      "--require",
      "-r",
      "--loader",
      "--experimental-loader",
      "--env-file",
    ]),
    filterOptions: new Set(["--test-name-pattern", "--test-shard", "--test-only"]),
    ignoreOptions: new Set(["--test-skip-pattern"]),
    narrowingOptions: new Set([]),
    isPositionalFilter: true,
  },
  dotnet: {
    // learn.microsoft.com: dotnet test (VSTest and Microsoft.Testing.Platform options), MSBuild switches by their long names.
    valueOptions: new Set([
      "--configuration",
      "--framework",
      "--logger",
      "--settings",
      "--verbosity",
      "--output",
      "--runtime",
      "--results-directory",
      "--collect",
      "--test-adapter-path",
      "--diag",
      "--environment",
      "--filter",
      "--blame-hang-timeout",
      "--blame-crash-dump-type",
      "--blame-hang-dump-type",
      "--arch",
      "--os",
      "--artifacts-path",
      "--coverage-output",
      "--coverage-output-format",
      "--coverage-settings",
      "--report-trx-filename",
      "--project",
      "--solution",
      "--test-modules",
      "--max-parallel-test-modules",
      "--treenode-filter",
      "--filter-class",
      "--filter-method",
      "--filter-namespace",
      "--filter-trait",
      "--filter-not-trait",
      "--filter-uid",
      "-property",
    ]),
    filterOptions: new Set(["--filter", "--treenode-filter", "--filter-class", "--filter-method", "--filter-namespace", "--filter-trait", "--filter-uid", "--test-modules"]),
    ignoreOptions: new Set(["--filter-not-trait"]),
    narrowingOptions: new Set(["--list-tests"]),
    isPositionalFilter: true,
    isBareWordAnOptionValue: true,
    canonical: aliases(DOTNET_TEST_ALIASES),
    readOption: readDotnetOption,
    covers: isDotnetTargetCovered,
  },
  maven: {
    valueOptions: new Set(["-pl", "-f", "-P", "-s", "-gs", "-T", "-rf", "-l", "-D", "-t", "-b"]),
    filterOptions: new Set(["-pl", "-rf", "-N", "-Dtest", "-Dit.test", "-Dgroups"]),
    ignoreOptions: new Set(["-DexcludedGroups"]),
    narrowingOptions: new Set(["-DskipTests", "-Dmaven.test.skip", "-DskipITs", "-fn", "-Dmaven.test.failure.ignore"]),
    // Maven's words are lifecycle phases and goals (`clean`, `verify`), not tests to select.
    isPositionalFilter: false,
    scopeOptions: new Set(["-pl", "-N"]),
    canonical: aliases(MAVEN_ALIASES),
    readOption: readMavenOption,
  },
  script: {
    valueOptions: new Set(),
    filterOptions: new Set(),
    ignoreOptions: new Set(),
    narrowingOptions: new Set(),
    isPositionalFilter: true,
  },
  generic: {
    valueOptions: new Set([
      "-e",
      "--env",
      "-c",
      "--config",
      "-p",
      "--project",
      "--filter",
      "--target",
      "--tests",
      "--group",
      "--testsuite",
      "--tag",
      "--tags",
      "--spec",
      "--exclude-group",
      "--exclude",
      "--skip-tags",
      // dotnet test and Microsoft.Testing.Platform (learn.microsoft.com: dotnet test, "Microsoft.Testing.Platform options")
      "--logger",
      "-l",
      "--settings",
      "-s",
      "--results-directory",
      "--framework",
      "--configuration",
      "--verbosity",
      "--collect",
      "--coverage-output",
      "--coverage-output-format",
      "--coverage-settings",
      "--report-trx-filename",
      "--output",
      // tox
      "--installpkg",
      "--root",
      "--workdir",
      "--result-json",
      "-x",
      "--override",
      "-f",
      "--factors",
      "-m",
      "--labels",
      "--hashseed",
      "--discover",
      "--runner",
    ]),
    filterOptions: new Set(["--filter", "--tests", "-Dtest", "--group", "--testsuite", "--tag", "--tags", "-e", "--spec"]),
    ignoreOptions: new Set(["--exclude-group", "--exclude", "--skip-tags"]),
    narrowingOptions: new Set(["-DskipTests", "-Dmaven.test.skip=true", "-Dmaven.test.skip", "-DskipTests=true"]),
    isPositionalFilter: true,
    isBareWordAnOptionValue: true,
  },
};

/** Strips `VAR=value` prefixes and launchers; returns the words from the real program on. */
function stripLaunchers(words: readonly string[]): string[] {
  let rest = [...words];
  for (let guard = 0; guard < 10 && rest.length > 0; guard++) {
    while (rest.length > 0 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] as string) || rest[0] === "{" || rest[0] === "!")) rest = rest.slice(1);
    const head = basename(rest[0] ?? "");
    const launcher = LAUNCHERS[head];
    if (launcher) {
      rest = rest.slice(1);
      while (rest.length > 0 && ((rest[0] as string).startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] as string))) {
        const option = rest[0] as string;
        rest = rest.slice(launcher.valueOptions.has(option) ? 2 : 1);
        if (option === "--") break;
      }
      continue;
    }
    if ((head === "pnpm" && (rest[1] === "exec" || rest[1] === "dlx")) || (head === "npm" && rest[1] === "exec") || (head === "yarn" && (rest[1] === "exec" || rest[1] === "dlx"))) {
      rest = rest.slice(2);
      if (rest[0] === "--") rest = rest.slice(1);
      continue;
    }
    // `uv tool run` is `uvx`.
    if (head === "uv" && rest[1] === "tool" && rest[2] === "run") rest = ["uvx", ...rest.slice(3)];
    if (basename(rest[0] ?? "") === "uvx") continue;
    if (["poetry", "uv", "pipenv", "pdm", "rye", "hatch", "pipx"].includes(head) && rest[1] === "run") {
      rest = rest.slice(2);
      while (rest.length > 0 && (rest[0] as string).startsWith("-") && rest[0] !== "-m") {
        const [option, inline] = splitOption(rest[0] as string);
        rest = rest.slice(inline === undefined && PYTHON_RUN_VALUE_OPTIONS.has(option) ? 2 : 1);
      }
      continue;
    }
    // `rustup run nightly cargo test`: a toolchain chosen for the command, like `cargo +nightly`.
    if (head === "rustup" && rest[1] === "run" && rest.length > 3) {
      rest = rest.slice(3);
      continue;
    }
    // `php vendor/bin/phpunit`, `php -d memory_limit=-1 vendor/bin/pest`: the interpreter runs the script named next.
    if (head === "php" && rest.length > 1) {
      let i = 1;
      while (i < rest.length && (rest[i] as string).startsWith("-")) i += /^-[dcnz]$/.test(rest[i] as string) ? 2 : 1;
      if (i >= rest.length) return rest;
      rest = rest.slice(i);
      continue;
    }
    if (head === "bundle" && rest[1] === "exec") {
      rest = rest.slice(2);
      continue;
    }
    if (/^python[0-9.]*$|^py$/.test(head)) {
      const module = rest.indexOf("-m");
      if (module !== -1 && rest.slice(1, module).every((word) => word.startsWith("-"))) {
        rest = rest.slice(module + 1);
        continue;
      }
      return rest;
    }
    if (head === "coverage" && rest[1] === "run") {
      const module = rest.indexOf("-m");
      rest = module !== -1 ? rest.slice(module + 1) : rest.slice(2).filter((word, index) => index > 0 || !word.startsWith("-"));
      continue;
    }
    return rest;
  }
  return rest;
}

/** Shells whose `-c` runs a command string. */
const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh"]);

/** Options of `dotnet-coverage collect` that take a value (learn.microsoft.com: dotnet-coverage). */
const DOTNET_COVERAGE_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-o",
  "--output",
  "-f",
  "--output-format",
  "-s",
  "--settings",
  "-id",
  "--session-id",
  "-l",
  "--log-file",
  "-ll",
  "--log-level",
  "-if",
  "--include-files",
]);

/**
 * The command string a wrapper runs, when the words are one: `bash -c
 * "pytest tests"` (also `-ec`, `-xc`: `-c` last in the cluster), `sh -c …`,
 * `dotnet-coverage collect [options] "dotnet test"` (or `-- dotnet test`).
 * Null for any other command. The words are already unquoted.
 */
function commandStringOf(words: readonly string[]): string | null {
  const head = basename(words[0] ?? "");
  if (SHELLS.has(head)) {
    const flag = words.findIndex((word, index) => index > 0 && /^-[a-z]*c$/.test(word));
    return flag !== -1 && words[flag + 1] !== undefined ? (words[flag + 1] as string) : null;
  }
  if (head === "dotnet-coverage" && words[1] === "collect") {
    let i = 2;
    while (i < words.length && (words[i] as string).startsWith("-") && words[i] !== "--") {
      const [name, inline] = splitOption(words[i] as string);
      i += inline === undefined && DOTNET_COVERAGE_VALUE_OPTIONS.has(name) ? 2 : 1;
    }
    if (words[i] === "--") i++;
    return i < words.length ? words.slice(i).join(" ") : null;
  }
  return null;
}

/** Last path segment of a program name (`./node_modules/.bin/jest` -> `jest`). */
function basename(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** Reads c8/nyc wrapper options; returns the thresholds they set and the wrapped command's words. */
function unwrapCoverage(words: string[]): { words: string[]; thresholds: Map<string, number>; wrapper: string | null } {
  const thresholds = new Map<string, number>();
  const head = basename(words[0] ?? "");
  const wrapper = COVERAGE_WRAPPERS[head];
  if (!wrapper) return { words, thresholds, wrapper: null };
  let i = 1;
  if (words[1] === "report" || words[1] === "check-coverage") i = 2;
  let isChecking = false;
  for (; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") {
      i++;
      break;
    }
    if (!word.startsWith("-")) break;
    const [name, inline] = splitOption(word);
    const value = inline ?? (wrapper.valueOptions.has(name) ? words[++i] : undefined);
    const metric = name.replace(/^--/, "");
    if ((THRESHOLD_METRICS as readonly string[]).includes(metric) && value !== undefined && Number.isFinite(Number(value))) thresholds.set(metric, Number(value));
    if (name === "--100") for (const m of THRESHOLD_METRICS) thresholds.set(m, 100);
    if (name === "--check-coverage" && inline !== "false") isChecking = true;
  }
  // c8 checks thresholds only with --check-coverage (nyc likewise); without it they are not enforced.
  if (!isChecking) thresholds.clear();
  else if (!thresholds.has("lines")) thresholds.set("lines", 90); // c8's and nyc's default when checking
  return { words: words.slice(i), thresholds, wrapper: head };
}

/** `--name=value` -> [`--name`, `value`]; `-k` stays whole. */
function splitOption(word: string): [string, string | undefined] {
  const eq = word.indexOf("=");
  if (word.startsWith("--") && eq !== -1) return [word.slice(0, eq), word.slice(eq + 1)];
  if (/^-[A-Za-z]+=/.test(word) && eq !== -1) return [word.slice(0, eq), word.slice(eq + 1)];
  return [word, undefined];
}

/** Which runner the words start, with its family, and where its arguments begin; null when it is not a test runner. */
/**
 * Targets of the project's task files whose recipes run tests, by tool:
 * Makefile targets, justfile recipes, package.json and composer.json scripts
 * (config/targets.ts reads them). A command that calls one (`make richtest`,
 * `just ci`, `npm run verify`, `composer check`) runs tests even when its name
 * does not say so: followed one level.
 */
export interface TestTargets {
  make: ReadonlySet<string>;
  just: ReadonlySet<string>;
  scripts: ReadonlySet<string>;
  /** composer.json scripts that run tests (`composer test`, `composer run-script phpunit`); absent = none known. */
  composer?: ReadonlySet<string>;
}

function identifyRunner(words: readonly string[], targets?: TestTargets): { runner: string; family: RunnerFamily; args: string[] } | null {
  const head = basename(words[0] ?? "");
  const second = words[1];
  const rest = (from: number): string[] => words.slice(from);
  switch (head) {
    case "vitest": {
      const sub = second && ["run", "watch", "dev", "related", "bench", "list"].includes(second) ? second : null;
      if (sub === "bench") return null;
      const args = rest(sub ? 2 : 1);
      if (sub === "related") args.push("--related");
      if (sub === "watch" || sub === "dev") args.push("--watch");
      if (sub === "list") args.push("--listTests");
      return { runner: "vitest", family: "js", args };
    }
    case "jest":
    case "react-scripts":
    case "craco":
      if (head !== "jest" && second !== "test") return null;
      return { runner: "jest", family: "js", args: rest(head === "jest" ? 1 : 2) };
    case "mocha":
    case "_mocha":
    case "ts-mocha":
      return { runner: "mocha", family: "mocha", args: rest(1) };
    case "ava":
    case "tap":
    case "tape":
    case "uvu":
    case "karma":
    case "jasmine":
    case "wdio":
      return { runner: head, family: "js", args: rest(head === "karma" && second === "start" ? 2 : 1) };
    // Runners of node:test: better-node-test's `bnt` (node --test with TypeScript) and Matteo Collina's `borp`; each finds the
    // test files itself or takes them as arguments, as `node --test` does.
    case "bnt":
    case "borp":
      return { runner: "node --test", family: "node", args: rest(1) };
    case "playwright":
      return second === "test" ? { runner: "playwright test", family: "js", args: rest(2) } : null;
    case "cypress":
      return second === "run" ? { runner: "cypress run", family: "generic", args: rest(2) } : null;
    case "node":
    case "tsx":
    case "bun":
    case "deno": {
      if (head === "bun" && second === "test") return { runner: "bun test", family: "js", args: rest(2) };
      if (head === "deno" && second === "test") return { runner: "deno test", family: "node", args: rest(2) };
      if (head === "bun" && (second === "run" || (second !== undefined && TEST_SCRIPT_NAME.test(second)))) {
        const name = second === "run" ? words[2] : second;
        return name && TEST_SCRIPT_NAME.test(name) ? { runner: `npm run ${name}`, family: "script", args: scriptArgs(rest(second === "run" ? 3 : 2)) } : null;
      }
      if (words.includes("--test")) return { runner: "node --test", family: "node", args: rest(1).filter((word) => word !== "--test") };
      // `node --experimental-vm-modules node_modules/.bin/jest`, `yarn node $(yarn bin jest)`: a runner's bin run by node.
      const script = words.slice(1).findIndex((word) => !word.startsWith("-"));
      const bin = script === -1 ? null : binName(words[script + 1] as string);
      return bin && RUNNER_BINARIES.has(bin) ? identifyRunner([bin, ...words.slice(script + 2)], targets) : null;
    }
    case "pytest":
    case "py.test":
      return { runner: "pytest", family: "pytest", args: rest(1) };
    case "unittest":
      return { runner: "unittest", family: "generic", args: rest(1) };
    case "tox":
    case "nox": {
      // tox 4 subcommands: `tox run -e py312`, `tox r`, `tox run-parallel`; `tox list`/`tox config` run no tests.
      if (head === "tox" && second && ["list", "l", "config", "c", "devenv", "d", "quickstart", "q", "depends", "de"].includes(second)) return null;
      const isSubcommand = head === "tox" && second !== undefined && ["run", "r", "run-parallel", "p", "exec", "e", "legacy", "le"].includes(second);
      return { runner: head, family: "generic", args: rest(isSubcommand ? 2 : 1) };
    }
    case "go":
      return second === "test" ? { runner: "go test", family: "go", args: rest(2) } : null;
    case "gotestsum":
      return { runner: "go test", family: "go", args: words.includes("--") ? words.slice(words.indexOf("--") + 1) : [] };
    case "cargo":
    case "cross":
      return identifyCargo(words.slice(1));
    case "npm":
    case "pnpm":
    case "yarn": {
      if (head === "yarn" && second === "node") return identifyRunner(rest(1), targets);
      // `pnpm vitest`, `yarn jest`: a package binary, when no script of that name is meant.
      if (head !== "npm" && second && RUNNER_BINARIES.has(second)) return identifyRunner(rest(1), targets);
      const isTestScript = (name: string): boolean => TEST_SCRIPT_NAME.test(name) || targets?.scripts.has(name) === true;
      if (second === "test" || second === "t" || second === "tst") return { runner: "npm run test", family: "script", args: scriptArgs(rest(2)) };
      if (second === "run" || second === "run-script") {
        const name = words[2];
        return name && isTestScript(name) ? { runner: `npm run ${name}`, family: "script", args: scriptArgs(rest(3)) } : null;
      }
      if (head !== "npm" && second && isTestScript(second)) return { runner: `npm run ${second}`, family: "script", args: scriptArgs(rest(2)) };
      return null;
    }
    case "composer": {
      // `composer test`, `composer run-script phpunit`, `composer run phpunit -- --filter x` (getcomposer.org/doc/articles/scripts.md).
      const isRun = second === "run-script" || second === "run";
      const name = isRun ? words[2] : second;
      const isTestScript = name !== undefined && !name.startsWith("-") && (name === "test" || targets?.composer?.has(name) === true);
      return isTestScript ? { runner: `composer run ${name}`, family: "script", args: scriptArgs(rest(isRun ? 3 : 2)) } : null;
    }
    case "make":
    case "$(MAKE)":
    case "${MAKE}":
    case "gmake": {
      const named = rest(1).filter((word) => !word.startsWith("-") && !word.includes("="));
      return named.some((target) => TEST_TARGET_NAME.test(target) || targets?.make.has(target) === true) ? { runner: "make", family: "script", args: named } : null;
    }
    case "just": {
      const recipe = rest(1).find((word) => !word.startsWith("-") && !word.includes("="));
      return recipe && (TEST_TARGET_NAME.test(recipe) || targets?.just.has(recipe) === true) ? { runner: `just ${recipe}`, family: "script", args: [] } : null;
    }
    case "turbo":
    case "nx":
    case "lerna": {
      const target = words.slice(1).find((word) => TEST_SCRIPT_NAME.test(word));
      return target ? { runner: `${head} ${target}`, family: "generic", args: rest(1).filter((word) => word !== target && word !== "run") } : null;
    }
    case "artisan":
      // Laravel's `php artisan test` runs PHPUnit or Pest (laravel.com/docs/testing).
      return second === "test" ? { runner: "artisan test", family: "generic", args: rest(2) } : null;
    case "phpunit":
    case "pest":
    case "paratest":
    case "rspec":
    case "minitest":
    case "ctest":
      return { runner: head, family: "generic", args: rest(1) };
    case "dotnet":
      if (second === "test") return { runner: "dotnet test", family: "dotnet", args: dotnetArgs(rest(2)) };
      return null;
    case "mvn":
    case "mvnw": {
      const phase = words.slice(1).find((word) => /^(test|verify|integration-test)$/.test(word));
      return phase ? { runner: `${head} ${phase}`, family: "maven", args: rest(1).filter((word) => word !== phase) } : null;
    }
    case "rake":
    case "gradle":
    case "gradlew": {
      const goal = words.slice(1).find((word) => /^(test|spec|verify|check|integrationTest)$/.test(word));
      return goal ? { runner: `${head} ${goal}`, family: "generic", args: rest(1).filter((word) => word !== goal) } : null;
    }
    default:
      // `go1.22.4 test`: a Go toolchain installed beside the default one (golang.org/dl) is `go`.
      if (/^go1\.[0-9.]+(?:rc[0-9]+|beta[0-9]+)?$/.test(head) && second === "test") return { runner: "go test", family: "go", args: rest(2) };
      return null;
  }
}

/** The package binary a script path names: `$(yarn bin jest)`, `$(npm bin)/jest`, `node_modules/.bin/jest`, `node_modules/jest/bin/jest.js`. */
function binName(word: string): string | null {
  const substituted = /^\$\((?:yarn|pnpm|npm) bin(?: ([\w@/.-]+))?\)\/?([\w.-]*)$/.exec(word);
  if (substituted) return (substituted[1] ?? substituted[2] ?? "") || null;
  const bin = /node_modules\/\.bin\/([\w.-]+)$/.exec(word);
  if (bin) return bin[1] as string;
  const packaged = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/bin\//.exec(word);
  return packaged ? (packaged[1] as string) : null;
}

/**
 * `dotnet test` arguments with the RunSettings assignments after `--`
 * (`-- RunConfiguration.DisableParallelization=true`) read as options
 * (`--runsettings:RunConfiguration.DisableParallelization`), not as
 * projects to test.
 */
function dotnetArgs(args: string[]): string[] {
  const separator = args.indexOf("--");
  if (separator === -1) return args;
  const settings = args.slice(separator + 1).map((word) => {
    const eq = word.indexOf("=");
    return eq === -1 ? `--runsettings:${word}` : `--runsettings-${word.slice(0, eq)}:${word.slice(eq + 1)}`;
  });
  return [...args.slice(0, separator), ...settings];
}

/** Arguments after `--` in `npm test -- args` are passed to the script. */
function scriptArgs(args: string[]): string[] {
  const separator = args.indexOf("--");
  return separator === -1 ? [] : args.slice(separator + 1);
}

/** cargo's own options that take a value (`cargo --config k=v test`, `cargo -Z flag test`). */
const CARGO_GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(["--config", "-Z", "--color", "-C"]);

/**
 * cargo plugins that run a test subcommand they are given (`cargo hack --feature-powerset test`,
 * `cargo miri test`, `cargo careful test`) or run the tests themselves when given none
 * (`cargo llvm-cov`, `cargo tarpaulin`).
 */
const CARGO_TEST_WRAPPERS: Record<string, { runsTestsAlone: boolean }> = {
  hack: { runsTestsAlone: false },
  miri: { runsTestsAlone: false },
  careful: { runsTestsAlone: false },
  "llvm-cov": { runsTestsAlone: true },
  tarpaulin: { runsTestsAlone: true },
};

/**
 * The cargo test run behind the words after `cargo` (or `cross`, its drop-in), or null: a
 * toolchain selector (`+nightly`, `+${{ matrix.channel }}`, rustup's syntax) and cargo's global
 * options (`--locked`, `-Z flag`) come first and change which compiler runs, not which tests; a
 * plugin from CARGO_TEST_WRAPPERS runs the `test` / `nextest run` it is given (its own options,
 * such as cargo-hack's feature sets, widen the runs, never the tests picked).
 */
function identifyCargo(words: readonly string[]): { runner: string; family: RunnerFamily; args: string[] } | null {
  let i = 0;
  while (i < words.length) {
    const word = words[i] as string;
    if (word.startsWith("+")) i++;
    else if (word.startsWith("-")) i += CARGO_GLOBAL_VALUE_OPTIONS.has(splitOption(word)[0]) && !word.includes("=") ? 2 : 1;
    else break;
  }
  const sub = words[i];
  if (sub === "test" || sub === "t") return { runner: "cargo test", family: "cargo", args: cargoArgs(words.slice(i + 1)) };
  if (sub === "nextest" && words[i + 1] === "run") return { runner: "cargo test", family: "cargo", args: cargoArgs(words.slice(i + 2)) };
  const wrapper = sub === undefined ? undefined : CARGO_TEST_WRAPPERS[sub];
  if (!wrapper) return null;
  const rest = words.slice(i + 1);
  const test = rest.findIndex((word) => word === "test" || word === "nextest");
  if (test !== -1) return { runner: "cargo test", family: "cargo", args: cargoArgs(rest.slice(rest[test] === "nextest" && rest[test + 1] === "run" ? test + 2 : test + 1)) };
  if (!wrapper.runsTestsAlone || rest.some((word) => !word.startsWith("-") && ["report", "clean", "show-env", "run", "build", "check"].includes(word))) return null;
  return { runner: "cargo test", family: "cargo", args: [] };
}

/** cargo-hack's options that run every feature combination, or each feature alone, the defaults and none among them (github.com/taiki-e/cargo-hack). */
const EVERY_FEATURE_SET = ["--feature-powerset", "--each-feature"];

/** cargo's and cargo-hack's options that choose feature sets: compared by {@link coversFeatureSets}, not as options. */
const FEATURE_OPTIONS: ReadonlySet<string> = new Set([
  "-F",
  "--no-default-features",
  "--all-features",
  ...EVERY_FEATURE_SET,
  ...CARGO_HACK_VALUE_OPTIONS,
  "--optional-deps",
  "--exclude-no-default-features",
  "--exclude-all-features",
]);

/**
 * Options that change how a run reports, how fast it goes or what it may
 * download, never which tests it runs or what counts as a failure: a
 * merged step may drop them.
 */
const NEUTRAL_OPTIONS =
  /^(-v|-vv|--verbose|-q|--quiet|--color|--no-color|--message-format|-j|--jobs|--retries|--test-threads|--status-level|--final-status-level|--failure-output|--success-output|--no-fail-fast|--fail-fast|--locked|--frozen|--offline|--timings|--reporter|--reporters|--tb|--durations|-n|--numprocesses|--dist|--cov.*|--coverage.*|--junit.*|--json|--outputFile|--silent|--no-capture|--nocapture|--show-output)$/;

/** Option values of one invocation, split on commas and spaces (`-F a,b`, `--features "a b"`). */
function optionWords(invocation: RunnerInvocation, name: string): string[] {
  return (invocation.options.get(name) ?? []).flatMap((value) => (value === true ? [] : value.split(/[\s,]+/).filter((word) => word !== "")));
}

/**
 * True when `after` runs every feature set `before` does (cargo): both run
 * every set (`--feature-powerset`, `--each-feature`: the defaults and none
 * among them) with none of `before`'s features excluded, or `after` turns on
 * all features where `before` turned on some or all, or `after` turns on
 * every feature `before` does with the defaults on or off as `before` had
 * them.
 */
function coversFeatureSets(before: RunnerInvocation, after: RunnerInvocation): boolean {
  const wanted = optionWords(before, "-F");
  const noDefault = before.options.has("--no-default-features");
  if (EVERY_FEATURE_SET.some((option) => after.options.has(option))) {
    const excluded = new Set([...optionWords(after, "--exclude-features"), ...optionWords(after, "--skip-features")]);
    return !wanted.some((feature) => excluded.has(feature)) && !(noDefault && after.options.has("--exclude-no-default-features"));
  }
  if (EVERY_FEATURE_SET.some((option) => before.options.has(option))) return false;
  if (before.options.has("--all-features")) return after.options.has("--all-features");
  if (after.options.has("--all-features")) return !noDefault;
  const made = new Set(optionWords(after, "-F"));
  return wanted.every((feature) => made.has(feature)) && noDefault === after.options.has("--no-default-features");
}

/** True when a positional word (a path or a name filter) of a run is selected by one of `selection`: the same word, or a folder holding it. */
function isSelectedBy(word: string, selection: readonly string[]): boolean {
  return selection.some((other) => word === other || word.startsWith(`${other.replace(/\/+$/, "")}/`));
}

/**
 * True when `after` makes every test run of `before` (the step `before` ran
 * in was merged into `after`'s): the same runner; every positional word of
 * `before` selected by `after`'s (none in `after` selects everything); every
 * option of `before` also given to `after` with the same values, but for
 * options that only change the output or the speed ({@link NEUTRAL_OPTIONS})
 * and cargo's feature sets, which `after` must cover
 * ({@link coversFeatureSets}: cargo-hack's `--feature-powerset` covers ten
 * `--features X` runs). A dropped `--ignored`, `-tags integration`,
 * `--release` or `--config` is a run `after` does not make. What `after`
 * adds that narrows is {@link compareCommands}'s to say.
 */
export function coversRuns(before: RunnerInvocation, after: RunnerInvocation): boolean {
  if (before.runner !== after.runner) return false;
  if (after.positional.length > 0 && !before.positional.every((word) => isSelectedBy(word, after.positional))) return false;
  const isCargo = before.family === "cargo";
  for (const [name, values] of before.options) {
    if (NEUTRAL_OPTIONS.test(name) || (isCargo && FEATURE_OPTIONS.has(name)) || (before.family === "pytest" && /^-r[a-zA-Z]+$/.test(name))) continue;
    const given = after.options.get(name);
    if (given === undefined || !values.every((value) => given.includes(value))) return false;
  }
  return !isCargo || coversFeatureSets(before, after);
}

/** `cargo test [opts] [filter] -- [harness args]`: harness args are read too (`--skip`, `--ignored`, `--exact`). */
function cargoArgs(args: string[]): string[] {
  return args.filter((word) => word !== "--");
}

/**
 * Reads a runner's arguments into positional words and options, per its
 * family: every spelling of an option is stored under its canonical name
 * ({@link FamilySpec.canonical}, {@link FamilySpec.readOption}), so
 * `--package core`, `--package=core` and `-p core` are one option.
 */
function readArguments(family: RunnerFamily, args: readonly string[], runner = ""): { positional: string[]; options: Map<string, (string | true)[]> } {
  const spec = FAMILIES[family];
  const positional: string[] = [];
  const options = new Map<string, (string | true)[]>();
  const add = (name: string, value: string | true): void => {
    const list = options.get(name);
    if (list) list.push(value);
    else options.set(name, [value]);
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") continue;
    const special = spec.readOption?.(word) ?? null;
    if (special !== null) {
      const [name, inline] = special;
      if (inline !== undefined) add(name, inline);
      else if (spec.valueOptions.has(name) && i + 1 < args.length) add(name, args[++i] as string);
      else add(name, true);
      continue;
    }
    if (word.startsWith("-") && word.length > 1) {
      const [written, inline] = splitOption(word);
      const name = spec.canonical ? spec.canonical(written, runner) : written;
      const next = args[i + 1];
      const takesBareWord = spec.isBareWordAnOptionValue === true && name.startsWith("--") && next !== undefined && /^[A-Za-z0-9_-]+$/.test(next) && !next.startsWith("-");
      if (inline !== undefined) add(name, inline);
      else if ((spec.valueOptions.has(name) || takesBareWord) && i + 1 < args.length) add(name, args[++i] as string);
      else add(name, true);
    } else if (spec.isPositionalFilter) {
      positional.push(word);
    }
  }
  // `mvn -D skipTests` is `-DskipTests`; `dotnet test --project X` (Microsoft.Testing.Platform) selects X like `dotnet test X`.
  const defines = options.get("-D");
  if (family === "maven" && defines) {
    options.delete("-D");
    for (const define of defines) {
      if (define === true) continue;
      const [key, value] = readMavenOption(`-D${define}`) ?? [`-D${define}`, undefined];
      add(key, value ?? true);
    }
  }
  if (family === "dotnet") {
    for (const name of ["--project", "--solution"]) {
      for (const value of options.get(name) ?? []) if (value !== true) positional.push(value);
      options.delete(name);
    }
  }
  return { positional, options };
}

/** Thresholds a runner sets on its own command line (`--cov-fail-under=90`, `--coverage.thresholds.lines=80`). */
function runnerThresholds(options: Map<string, (string | true)[]>): Map<string, number> {
  const thresholds = new Map<string, number>();
  for (const [name, values] of options) {
    const value = values[values.length - 1];
    if (typeof value !== "string" || !Number.isFinite(Number(value))) continue;
    if (name === "--cov-fail-under") thresholds.set("total", Number(value));
    const vitest = /^--coverage\.(?:thresholds\.)?(lines|branches|functions|statements)$/.exec(name);
    if (vitest) thresholds.set(vitest[1] as string, Number(value));
  }
  return thresholds;
}

/** True when a segment does nothing useful for testing: `true`, `:`, `exit 0`, `echo …`. */
function isNoOpSegment(words: readonly string[]): boolean {
  const head = words[0] ?? "";
  return head === "true" || head === ":" || head === "/bin/true" || head === "echo" || head === "printf" || ((head === "exit" || head === "return") && words[1] === "0");
}

/**
 * Finds the runners in a command line and what masks their failures.
 * `variables` expands `$(NAME)`/`${NAME}`; `targets` names the make targets,
 * just recipes and npm scripts that run tests whatever their names. A
 * wrapper's command string (`bash -c "…"`, `dotnet-coverage collect "dotnet
 * test"`) is read as a command line of its own, `depth` levels deep at most 3.
 */
export function analyzeCommand(command: string, variables?: ReadonlyMap<string, string>, targets?: TestTargets, depth = 0): CommandAnalysis {
  const expanded = variables ? expandVariables(command, variables) : command;
  const segments = splitShell(expanded);
  const invocations: RunnerInvocation[] = [];
  const masks: string[] = [];
  const hasPipefail = /set\s+-[a-z]*o\s+pipefail|set\s+-o\s+pipefail|pipefail/.test(expanded);
  let lastRunnerIndex = -1;
  // Subshells (`(cd web && npm test)`) end their `cd`; the reader does not see where, so a `cd` in one makes the folder unknown.
  const hasSubshell = /[()]/.test(expanded.replace(/\$\([^)]*\)|\$\{\{[\s\S]*?\}\}/g, ""));
  let cwd: string | null = "";
  segments.forEach((segment, index) => {
    const launched = stripLaunchers(segment.words);
    if (launched[0] === "cd" || launched[0] === "pushd") {
      const target = launched.slice(1).find((word) => !word.startsWith("-") || word === "-");
      cwd = cwd === null || hasSubshell || target === undefined || /^[-~/$`]/.test(target) || /[$`*]/.test(target) ? null : joinRelative(cwd, target);
      return;
    }
    const inner = commandStringOf(launched);
    const nested = inner !== null && depth < 3 ? analyzeCommand(inner, variables, targets, depth + 1) : null;
    const { words, thresholds } = unwrapCoverage(launched);
    const found = nested ? null : identifyRunner(stripLaunchers(words), targets);
    if (nested) {
      const here = cwd;
      invocations.push(...nested.invocations.map((invocation) => ({ ...invocation, cwd: here === null || invocation.cwd === null ? null : joinRelative(here, invocation.cwd || ".") })));
      masks.push(...nested.masks);
      if (nested.invocations.length === 0) return;
    } else if (!found) return;
    if (found) {
      const { positional, options } = readArguments(found.family, found.args, found.runner);
      // `pytest --flake8` or `--mypy` runs a linter through pytest, not the tests.
      if (found.family === "pytest" && [...options.keys()].some((name) => PYTEST_LINT_FLAGS.has(name))) return;
      const all = new Map([...thresholds, ...runnerThresholds(options)]);
      invocations.push({ runner: found.runner, family: found.family, positional, options, thresholds: all, cwd });
    }
    lastRunnerIndex = index;
    // What follows this runner decides whether its failure still fails the command.
    const next = segments[index + 1];
    if (next && next.joiner === "||" && isNoOpSegment(next.words)) masks.push(`|| ${next.words.join(" ")}`);
    if (next && next.joiner === "|" && !hasPipefail && !identifyRunner(stripLaunchers(next.words), targets)) masks.push(`| ${next.words[0] ?? ""}`);
  });
  if (lastRunnerIndex !== -1) {
    const tail = segments.slice(lastRunnerIndex + 1);
    const trailingNoOp = tail.find((segment) => segment.joiner === ";" && isNoOpSegment(segment.words) && segment.words[0] !== "echo" && segment.words[0] !== "printf");
    if (trailingNoOp && tail[tail.length - 1] === trailingNoOp) masks.push(`; ${trailingNoOp.words.join(" ")}`);
  }
  const isNoOp = segments.length > 0 && segments.every((segment) => isNoOpSegment(segment.words));
  return { invocations, masks, isNoOp };
}

/** Expands `$(NAME)` and `${NAME}` from a table, repeatedly (at most 5 levels). */
export function expandVariables(text: string, variables: ReadonlyMap<string, string>): string {
  let result = text;
  for (let depth = 0; depth < 5; depth++) {
    const next = result.replace(/\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]/g, (whole, name: string) => (name === "MAKE" ? "make" : (variables.get(name) ?? whole)));
    if (next === result) break;
    result = next;
  }
  return result;
}

/** True when the glob/path `wide` selects everything the path `narrow` selects (prefix folders, equal text, or a glob that matches it). */
export function isPathCovered(wide: string, narrow: string): boolean {
  const a = normalizePath(wide);
  const b = normalizePath(narrow);
  if (a === "" || a === "." || a === b) return true;
  if (b.startsWith(`${a}/`)) return true;
  if (/[*?[{]/.test(a)) return globToRegExp(a).test(b) || globToRegExp(a).test(`${b}/x`);
  return false;
}

/**
 * Whether Go package pattern `wide` includes pattern `narrow` (`go help
 * packages`): `./...` (or `...`) is every package, `./a/...` is `a` and every
 * package below it, and a pattern without `...` is that one package only
 * (`.` is the current folder's package, not the tree).
 */
export function isGoPackageCovered(wide: string, narrow: string): boolean {
  const clean = (pattern: string): string => pattern.replace(/^\.\//, "").replace(/\/+$/, "");
  const a = clean(wide);
  const b = clean(narrow);
  if (a === "..." || a === "./...") return true;
  if (a.endsWith("/...")) {
    const root = a.slice(0, -"/...".length);
    const target = b.endsWith("/...") ? b.slice(0, -"/...".length) : b;
    return root === "." || target === root || target.startsWith(`${root}/`);
  }
  return !b.includes("...") && (a === b || (a === "." && b === "") || (a === "" && b === "."));
}

/**
 * Whether `dotnet test` target `wide` includes target `narrow`: a solution
 * (`.sln`, `.slnx`, `.slnf`) is read as every project below its folder (what
 * a solution usually lists; config/scope.ts reads the real list when the
 * tree is at hand), anything else as a path.
 */
export function isDotnetTargetCovered(wide: string, narrow: string): boolean {
  const solution = /^(.*?)[^/\\]*\.sln[xf]?$/i.exec(wide.replace(/\\/g, "/"));
  if (solution) return wide === narrow || isPathCovered(solution[1] as string, narrow.replace(/\\/g, "/"));
  return isPathCovered(wide, narrow);
}

/** Strips `./`, jest's `<rootDir>/`, trailing slashes and Go's `/...` (a package and everything below it). */
function normalizePath(path: string): string {
  return path
    .replace(/^<rootDir>\/?/, "")
    .replace(/(^|\/)\.\.\.$/, "")
    .replace(/^\.\//, "")
    .replace(/^\.$/, "")
    .replace(/\/+$/, "");
}

/** A glob to a RegExp: `**`, `*`, `?`, `{a,b}`, `[...]`; other characters literal. Used to compare patterns, not to match files. */
export function globToRegExp(glob: string): RegExp {
  let pattern = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      const isSegment = glob[i + 2] === "/";
      pattern += isSegment ? "(?:.*/)?" : ".*";
      i += isSegment ? 2 : 1;
    } else if (char === "*") pattern += "[^/]*";
    else if (char === "?") pattern += "[^/]?";
    else if (char === "{") {
      braceDepth++;
      pattern += "(?:";
    } else if (char === "}" && braceDepth > 0) {
      braceDepth--;
      pattern += ")";
    } else if (char === "," && braceDepth > 0) pattern += "|";
    else if (char === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) pattern += "\\[";
      else {
        pattern += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else pattern += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  try {
    return new RegExp(`^${pattern}$`);
  } catch {
    return new RegExp(`^${glob.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  }
}

/** Values of the options in `names`, flattened, as strings. */
function valuesOf(invocation: RunnerInvocation, names: ReadonlySet<string>): string[] {
  const values: string[] = [];
  for (const [name, list] of invocation.options) {
    if (!names.has(name)) continue;
    for (const value of list) values.push(value === true ? name : `${name} ${value}`);
  }
  return values.sort();
}

/** Raw values (without the option name) of the options in `names`. */
function rawValuesOf(invocation: RunnerInvocation, names: ReadonlySet<string>): string[] {
  const values: string[] = [];
  for (const [name, list] of invocation.options) {
    if (!names.has(name)) continue;
    for (const value of list) values.push(value === true ? name : value);
  }
  return values;
}

/** A readable rendering of an invocation for evidence. */
function renderInvocation(invocation: RunnerInvocation): string {
  const options = [...invocation.options].flatMap(([name, values]) => values.map((value) => (value === true ? name : `${name}=${value}`)));
  return [invocation.runner, ...options, ...invocation.positional].join(" ");
}

/**
 * Where two command lines start, and the after tree to resolve their runs
 * in (config/scope.ts): a CI step's working directory, a Makefile's or a
 * package.json's folder. A start of null is unknown (an expression).
 */
export interface CommandScope {
  tree: TreeReader;
  cwdBefore: string | null;
  cwdAfter: string | null;
}

/**
 * The units (test projects, packages, crates, test files, modules) the
 * before run tests in the after tree and the after run no longer does;
 * null when either run cannot be resolved, or the before run tests nothing
 * there (its tests moved with it, or the tree is not the project's).
 */
function judgeScope(before: RunnerInvocation, after: RunnerInvocation, scope: CommandScope | undefined): { unit: string; lost: string[] } | null {
  if (!scope || scope.cwdBefore === null || scope.cwdAfter === null || before.cwd === null || after.cwd === null) return null;
  const cwdBefore = joinRelative(scope.cwdBefore, before.cwd || ".");
  const cwdAfter = joinRelative(scope.cwdAfter, after.cwd || ".");
  if (cwdBefore === null || cwdAfter === null) return null;
  // The same selection from the same folder selects the same tests: nothing to resolve (the words agree).
  const selection = (invocation: RunnerInvocation): string => JSON.stringify([invocation.positional, valuesOf(invocation, FAMILIES[invocation.family].scopeOptions ?? new Set())]);
  if (cwdBefore === cwdAfter && selection(before) === selection(after)) return null;
  const was = resolveScope(before, cwdBefore, scope.tree);
  if (!was || was.units.size === 0) return null;
  const now = resolveScope(after, cwdAfter, scope.tree);
  if (!now || now.unit !== was.unit) return null;
  return { unit: was.unit, lost: [...was.units].filter((unit) => !now.units.has(unit)).sort() };
}

/** Options whose change does not narrow anything and need no comparison (reporters, timeouts, workers). */
function compareInvocation(before: RunnerInvocation, after: RunnerInvocation, setting: string, line: number | null, scope?: CommandScope): TamperNote[] {
  const spec = FAMILIES[after.family];
  const notes: TamperNote[] = [];
  const beforeText = renderInvocation(before);
  const afterText = renderInvocation(after);
  const note = (message: string, detail: Record<string, unknown>, isCoverageThreshold = false): void => {
    notes.push({ setting, line, message, before: beforeText, after: afterText, detail, isCoverageThreshold });
  };

  // With the tree at hand, what each run tests there decides (config/scope.ts); the words are compared only without it.
  const judged = before.family === after.family ? judgeScope(before, after, scope) : null;
  const scopeOptions = judged ? (spec.scopeOptions ?? new Set<string>()) : new Set<string>();
  if (judged && judged.lost.length > 0) {
    const selection = (invocation: RunnerInvocation): string =>
      [...invocation.positional, ...valuesOf(invocation, spec.scopeOptions ?? new Set())].map((word) => `"${word}"`).join(", ") || "with no selection";
    const shown = judged.lost.slice(0, 5).map((unit) => `"${unit}"`);
    const more = judged.lost.length > 5 ? ` and ${judged.lost.length - 5} more` : "";
    note(
      `${setting} now runs ${after.runner} on ${selection(after)} only; the ${judged.unit}${judged.lost.length === 1 ? "" : "s"} ${shown.join(", ")}${more} that it ran before (${selection(before)}) no longer ${judged.lost.length === 1 ? "runs" : "run"}`,
      {
        runner: after.runner,
        selection_before: [...before.positional],
        selection_after: [...after.positional],
        [`${judged.unit.replace(/ /g, "_")}s_left_out`]: judged.lost,
      },
    );
  }
  if (spec.isPositionalFilter && !judged) {
    // Narrowed: a selection where there was none, or paths dropped while every remaining one lies inside the old
    // selection. A selection that moved elsewhere (files renamed with the tests) is not judged here.
    const covers = spec.covers ?? isPathCovered;
    const selectionOf = (invocation: RunnerInvocation): readonly string[] => (invocation.positional.length === 0 ? (spec.defaultSelection ?? []) : invocation.positional);
    const was = selectionOf(before);
    const now = selectionOf(after);
    const lost = was.length === 0 ? (now.length > 0 ? ["(all tests)"] : []) : was.filter((path) => !now.some((wide) => covers(wide, path)));
    const isInside = now.every((path) => was.length === 0 || was.some((wide) => covers(wide, path)));
    if (lost.length > 0 && now.length > 0 && isInside) {
      note(`${setting} now runs ${after.runner} on ${now.map((p) => `"${p}"`).join(", ")} only; before it ran ${was.length === 0 ? "every test" : was.map((p) => `"${p}"`).join(", ")}`, {
        runner: after.runner,
        selection_before: [...was],
        selection_after: [...now],
      });
    }
  }
  const unscoped = (names: ReadonlySet<string>): ReadonlySet<string> => (scopeOptions.size === 0 ? names : new Set([...names].filter((name) => !scopeOptions.has(name))));
  const filtersBefore = valuesOf(before, unscoped(spec.filterOptions));
  const filtersAfter = valuesOf(after, unscoped(spec.filterOptions));
  // A selection by CI expression or variable (`-e ${{ matrix.tox }}`, `-k "$FILTER"`) that was there before cannot be
  // compared by text; a new one, or a literal one, can.
  const optionNameOf = (value: string): string => value.split(" ")[0] as string;
  const isOpaqueChange = (value: string): boolean => /\$/.test(value) && filtersBefore.some((old) => optionNameOf(old) === optionNameOf(value));
  // tox's `-e py` (`py3`, `py311`) is the environment of the interpreter tox runs under: in place of `-e ${{ matrix.tox_env }}`
  // naming each cell's `py3X` it runs the same tests (sweep of pytest-dev/iniconfig 6bc5528789).
  const isInterpreterEnv = (value: string): boolean => after.runner === "tox" && /^-e\s+py\d*$/.test(value) && filtersBefore.some((old) => optionNameOf(old) === "-e" && /\$/.test(old));
  const newFilters = filtersAfter.filter((value) => !filtersBefore.includes(value) && !isOpaqueChange(value) && !isInterpreterEnv(value));
  if (newFilters.length > 0) {
    note(`${setting} now selects tests with ${newFilters.map((f) => `"${f}"`).join(", ")}, so fewer tests run`, { runner: after.runner, filters_added: newFilters });
  }
  // cargo-hack's feature sets leaving out a feature the run turned on (`--features std` -> `--feature-powerset --exclude-features std`).
  if (after.family === "cargo" && before.family === "cargo") {
    const excluded = new Set([...optionWords(after, "--exclude-features"), ...optionWords(after, "--skip-features")]);
    const dropped = optionWords(before, "-F").filter((feature) => excluded.has(feature));
    if (dropped.length > 0)
      note(
        `${setting} now excludes the feature${dropped.length === 1 ? "" : "s"} ${dropped.map((f) => `"${f}"`).join(", ")} it ran the tests with, so the tests behind ${dropped.length === 1 ? "it" : "them"} no longer run`,
        { runner: after.runner, features_excluded: dropped },
      );
  }
  const ignoredBefore = rawValuesOf(before, unscoped(spec.ignoreOptions));
  const ignoredAfter = rawValuesOf(after, unscoped(spec.ignoreOptions));
  const newIgnores = ignoredAfter.filter((value) => !ignoredBefore.includes(value));
  if (newIgnores.length > 0) {
    note(`${setting} now excludes ${newIgnores.map((f) => `"${f}"`).join(", ")} from the ${after.runner} run`, { runner: after.runner, excluded_added: newIgnores });
  }
  const narrowingBefore = valuesOf(before, spec.narrowingOptions);
  // `-DskipTests=false`, `--passWithNoTests=false`: the flag written out as off.
  const narrowingAfter = valuesOf(after, unscoped(spec.narrowingOptions)).filter((value) => !narrowingBefore.includes(value) && !/ false$/.test(value));
  if (narrowingAfter.length > 0) {
    const passesEmpty = narrowingAfter.some((value) => /passWithNoTests|pass-with-no-tests|pass-on-failing/.test(value));
    note(
      passesEmpty
        ? `${setting} now passes ${narrowingAfter.join(" ")}: a run that finds no tests (or whose tests fail) succeeds`
        : `${setting} now passes ${narrowingAfter.join(" ")}, which runs fewer tests or none`,
      { runner: after.runner, options_added: narrowingAfter },
    );
  }
  for (const [metric, value] of before.thresholds) {
    const now = after.thresholds.get(metric);
    if (now === undefined || now < value) {
      note(
        now === undefined ? `${setting} no longer enforces the ${metric} coverage threshold (${value}%)` : `${setting} lowers the ${metric} coverage threshold from ${value}% to ${now}%`,
        { metric, threshold_before: value, threshold_after: now ?? null },
        true,
      );
    }
  }
  return notes;
}

/**
 * How the after command line runs fewer tests than the before one, masks
 * their failures, or stopped running them. `setting` names the place
 * (`scripts.test`, `target test`, `jobs.test step "Run tests"`) and `line`
 * where it is. Returns no notes for a command that runs as many tests or
 * more, including one that gained a runner or lost a filter.
 */
export function compareCommands(
  before: string,
  after: string,
  setting: string,
  line: number | null,
  variables?: ReadonlyMap<string, string>,
  targets?: TestTargets,
  scope?: CommandScope,
): TamperNote[] {
  const was = analyzeCommand(before, variables, targets);
  const now = analyzeCommand(after, variables, targets);
  return compareAnalyses(was, now, before, after, setting, line, scope);
}

/** {@link compareCommands} on commands already analysed; `beforeText`/`afterText` go into the evidence. */
export function compareAnalyses(was: CommandAnalysis, now: CommandAnalysis, beforeText: string, afterText: string, setting: string, line: number | null, scope?: CommandScope): TamperNote[] {
  if (was.invocations.length === 0) return [];
  const notes: TamperNote[] = [];
  const base = { setting, line, before: beforeText.trim(), after: afterText.trim() };
  if (now.invocations.length === 0) {
    const message = now.isNoOp
      ? `${setting} no longer runs the tests: "${afterText.trim()}" replaces "${beforeText.trim()}"`
      : `${setting} no longer runs ${[...new Set(was.invocations.map((i) => i.runner))].join(", ")}`;
    return [{ ...base, message, detail: { runners_removed: was.invocations.map((i) => i.runner) } }];
  }
  const newMasks = now.masks.filter((mask) => !was.masks.includes(mask));
  if (newMasks.length > 0) {
    notes.push({
      ...base,
      message: `${setting} now masks test failures with ${newMasks.map((m) => `"${m}"`).join(", ")}: the command succeeds even when tests fail`,
      detail: { masks_added: newMasks },
    });
  }
  // Each invocation of before must still be run by some invocation of after: the same runner selecting at least as
  // much (two runs merged into one count), else a replacement (jest -> vitest, npm test -> make test) that is judged
  // where it is defined; only when neither exists is the runner gone.
  const newRunners = new Set(now.invocations.map((invocation) => invocation.runner));
  const oldRunners = new Set(was.invocations.map((invocation) => invocation.runner));
  const replacements = now.invocations.filter((invocation) => !oldRunners.has(invocation.runner));
  for (const invocation of was.invocations) {
    const sameRunner = now.invocations.filter((candidate) => candidate.runner === invocation.runner);
    if (sameRunner.length === 0) {
      const index = replacements.findIndex(
        (candidate) => isDelegatingRunner(candidate.runner) || isDelegatingRunner(invocation.runner) || FAMILY_LANGUAGE[candidate.family] === FAMILY_LANGUAGE[invocation.family],
      );
      if (index !== -1 && !newRunners.has(invocation.runner)) {
        replacements.splice(index, 1);
        continue;
      }
      notes.push({ ...base, message: `${setting} no longer runs ${invocation.runner} (${show(renderInvocation(invocation))})`, detail: { runner_removed: invocation.runner } });
      continue;
    }
    const candidates = sameRunner.map((candidate) => compareInvocation(invocation, candidate, setting, line, scope));
    if (candidates.some((candidateNotes) => candidateNotes.length === 0)) continue;
    notes.push(...candidates.reduce((best, next) => (next.length < best.length ? next : best)));
  }
  return notes;
}

/** Which ecosystem a runner family tests, so a runner replaced by another of its ecosystem is a migration, not a removal. */
const FAMILY_LANGUAGE: Record<RunnerFamily, string> = {
  js: "js",
  mocha: "js",
  node: "js",
  pytest: "python",
  go: "go",
  cargo: "rust",
  dotnet: "dotnet",
  maven: "java",
  script: "script",
  generic: "generic",
};

/** Runners that run something defined elsewhere: an npm script, a make target, a tox or nox environment, a monorepo task. */
export function isDelegatingRunner(runner: string): boolean {
  return /^(npm run |make$|tox$|nox$|turbo |nx |lerna )/.test(runner);
}

/**
 * True when `after` runs everything `before` runs: no note from
 * {@link compareCommands}, and each before run's paths inside the paths of
 * an after run of the same runner (a stricter test than the note rules,
 * which leave a selection that moved elsewhere alone). Used to tell a
 * renamed script or step from a removed one.
 */
export function coversCommand(before: string, after: string): boolean {
  if (compareCommands(before, after, "", null).length > 0) return false;
  const now = analyzeCommand(after).invocations;
  return analyzeCommand(before).invocations.every(
    (invocation) =>
      now.some(
        (candidate) =>
          candidate.runner === invocation.runner && (candidate.positional.length === 0 || invocation.positional.every((path) => candidate.positional.some((wide) => isPathCovered(wide, path)))),
      ) || now.some((candidate) => candidate.runner !== invocation.runner),
  );
}

/** True when every test run of the command is an interactive watch session (`jest --watch`, `vitest watch`): a developer aid, not a gate. */
export function isWatchOnly(command: string): boolean {
  const invocations = analyzeCommand(command).invocations;
  return invocations.length > 0 && invocations.every((invocation) => invocation.options.has("--watch") || invocation.options.has("--watchAll"));
}

/** True when the command runs a test runner (used to decide whether a CI step or script is a test step). */
export function runsTests(command: string, variables?: ReadonlyMap<string, string>, targets?: TestTargets): boolean {
  return analyzeCommand(command, variables, targets).invocations.length > 0;
}

/** True when an npm script name is one that runs tests (`test`, `test:unit`, `e2e`). */
export function isTestScriptName(name: string): boolean {
  return TEST_SCRIPT_NAME.test(name);
}

/** True when a make target name is one that runs tests (`test`, `check`, `test-unit`). */
export function isTestTargetName(name: string): boolean {
  return TEST_TARGET_NAME.test(name);
}
