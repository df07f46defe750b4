/**
 * What the condition of a conditional skip probes, for test_disabled's
 * severity: a test that gains a skip under a condition still runs wherever
 * the condition is false. When the condition probes the environment the
 * suite was written for (an optional dependency or capability, an older
 * interpreter, another platform, a variable that is not the CI's, a
 * method or global an older runtime lacks), the test
 * keeps running where CI and agents run, and the skip is a notice (medium).
 * When it probes the CI itself (`os.environ.get("CI")`), a newer interpreter
 * (`sys.version_info >= (3, 12)`: the one the run most likely uses), or a
 * platform test that holds on Linux (`sys.platform.startswith("linux")`,
 * `sys.platform != "win32"`: the platform of CI runners and agents'
 * sandboxes), or nothing ralph can read, it skips the test where it is
 * enforced (critical, as DESIGN says of skipIf).
 *
 * Read from the condition's source text, the same way in every language
 * (pytest skipif, unittest skipIf/skipUnless, vitest/jest skipIf, Go `if
 * runtime.GOOS … { t.Skip() }`, Ruby `skip if/unless`, PHP `if (…)
 * markTestSkipped()`, JUnit assumeTrue, xUnit Skip.If, Rust cfg_attr).
 * `unless` conditions arrive negated as `!(…)`.
 */

/** The kinds of condition {@link skipConditionKind} tells apart. */
export type SkipConditionKind = "ci" | "here" | "environment" | "unknown";

const CI_VARIABLE = /\b(CI|GITHUB_ACTIONS|GITLAB_CI|TRAVIS|CIRCLECI|BUILDKITE|JENKINS_URL|TF_BUILD|APPVEYOR|CONTINUOUS_INTEGRATION|BITBUCKET_BUILD_NUMBER|TEAMCITY_VERSION)\b/;
const ENV_READ = /process\.env|os\.environ|os\.getenv|\bgetenv\s*\(|\bENV\s*\[|\bENV\.(fetch|key\?)|GetEnvironmentVariable|env::var|os\.Getenv|System\.getenv|\$_ENV|\$_SERVER|import\.meta\.env/;
const CI_FLAG = /\b(is_?ci|IS_?CI|isCI|IsCI|ON_CI|on_ci|RUNNING_IN_CI|inCI|in_ci)\b/;

const PLATFORM =
  /\b(sys\.platform|platform\.(system|machine|python_implementation)\s*\(|os\.name\b|process\.platform|process\.arch|runtime\.GOOS|runtime\.GOARCH|RUBY_PLATFORM|RUBY_ENGINE|RbConfig|OperatingSystem\.Is\w+|RuntimeInformation|PHP_OS(_FAMILY)?|DIRECTORY_SEPARATOR|cfg!?\s*\(|target_os|target_family|target_arch|windows|unix|IS_?(WINDOWS|WIN|MAC|MACOS|DARWIN|LINUX|PYPY|CPYTHON|POSIX|JYTHON|JRUBY)|is_?(windows|win|mac|darwin|linux|pypy|posix|jruby)|isWindows|isMac|isLinux|isPyPy|PYPY|WINDOWS|MACOS|IsWindows|IsMacOS|IsLinux|IsOSX|JRUBY)\b|Gem\.win_platform\?/i;
/** A platform test that holds on Linux: Linux named without a negation, or another platform named with one. */
const LINUX_NAMED = /linux/i;
const LINUX_NEGATED = /(!=|!==|\bnot\b|!)\s*\(?\s*[\w.()"' ]*linux|linux["']?\s*\)?\s*(!=|!==)|!\s*\(?\s*[\w.]*IsLinux|!\s*\(?\s*is_?linux/i;
const OTHER_NEGATED =
  /(!=|!==)\s*["'](win32|windows|win|darwin|macos|mac|cygwin|nt|Windows|Darwin|Java)["']|["'](win32|windows|darwin|nt|Windows|Darwin)["']\s*(!=|!==)|(!|\bnot\s)\s*\(?\s*[\w.:]*(IS_?WINDOWS|isWindows|IsWindows|is_?windows|WINDOWS|IS_?MAC|isMac|IsMacOS|IsOSX|is_?mac|IS_?DARWIN|win_platform\?|\bwindows\b)/i;

const VERSION =
  /\b(sys\.version_info|sys\.version|PY_?3_?\d+\w*|PY3\d*|PYTHON_?VERSION|python_version|process\.versions?\b|node_?version|majorNodeVersion|NODE_VERSION|RUBY_VERSION|PHP_VERSION(_ID)?|PHP_MAJOR_VERSION|PHP_MINOR_VERSION|version_compare|Environment\.Version|runtime\.Version|JRE_\d+|JAVA_VERSION|rustc_version|go1\.\d+)\b/;
const NEWER_THAN =
  /(sys\.version_info|process\.versions?[\w.[\]"']*|majorNodeVersion|node_?version|RUBY_VERSION|PHP_VERSION(_ID)?|PHP_MAJOR_VERSION|JAVA_VERSION|python_version)\s*(>=|>)|(<=|<)\s*(sys\.version_info|process\.versions?|majorNodeVersion|RUBY_VERSION|PHP_VERSION(_ID)?|PHP_MAJOR_VERSION|python_version)|version_compare\([^)]*["'](>=|>|ge|gt)["']/i;

const DEPENDENCY =
  /\bis\s+None\b|\bis\s+not\s+None\b|importorskip|find_spec|find_module|shutil\.which|exec\.LookPath|\bwhich\s*\(|extension_loaded|class_exists|function_exists|interface_exists|defined\?|CAPABILITIES|\bHAS_\w+|\bhas_\w+|\bhas[A-Z]\w*|\bcan_\w+|\bCAN_\w+|\bsupports?_\w+|\bSUPPORTS?_\w+|is_?available|isAvailable|IsAvailable|typeof\s+\w+\s*===?\s*["']undefined|require\.resolve|isInstalled|is_installed|\bimportable\b|NotImplemented|Optional/;

/**
 * Feature detection: the condition asks whether the runtime (or a library
 * object) has a method, property, global or member, as suites probe a
 * capability an older runtime lacks (Ruby `respond_to?`/`defined?`, Python
 * `hasattr`, JS `typeof x === "function"`/`"undefined"`, `"k" in obj`,
 * `Reflect.has`, `hasOwnProperty`, PHP `method_exists`/`property_exists`,
 * .NET reflection `GetMethod`/`GetProperty`/`GetType`).
 */
const FEATURE_DETECTION =
  /\brespond_to\?|\bhasattr\s*\(|\btypeof\s*\(?\s*[\w$.]+\s*\)?\s*[!=]==?\s*["'](undefined|function|object|symbol)["']|["'][\w$]+["']\s+in\s+[\w$.]+|\bReflect\.has\s*\(|\bhasOwnProperty\s*\(|\bObject\.hasOwn\s*\(|\b(method|property|enum|trait)_exists\s*\(|\.Get(Method|Property|Field|Type)\s*\(/;

/**
 * The kind of a conditional skip's condition (see the module comment), from
 * its source text; "unknown" for an empty or unreadable one. Pure; never throws.
 */
export function skipConditionKind(condition: string | undefined): SkipConditionKind {
  const text = condition?.trim() ?? "";
  if (text === "") return "unknown";
  const cfg = /^cfg\(([\s\S]*)\)$/.exec(text);
  if (cfg) {
    const holds = cfgHoldsHere(cfg[1] as string);
    if (holds !== undefined) return holds === true ? "here" : "environment";
  }
  if (CI_FLAG.test(text) || (ENV_READ.test(text) && CI_VARIABLE.test(text))) return "ci";
  if (PLATFORM.test(text) || LINUX_NAMED.test(text)) {
    const isLinuxTrue = (LINUX_NAMED.test(text) && !LINUX_NEGATED.test(text)) || OTHER_NEGATED.test(text);
    return isLinuxTrue ? "here" : "environment";
  }
  if (VERSION.test(text)) return NEWER_THAN.test(text) ? "here" : "environment";
  if (DEPENDENCY.test(text) || FEATURE_DETECTION.test(text) || ENV_READ.test(text)) return "environment";
  return "unknown";
}

/**
 * The configuration CI runners and agents' sandboxes build tests in, as Rust
 * cfg options (The Rust Reference, "Conditional compilation"): Linux on
 * x86_64, `cargo test`'s default profile (debug_assertions, panic =
 * "unwind"), not under Miri. An option not listed is false; a `feature`
 * depends on the features a run enables, which is the environment's choice.
 */
const HERE_CFG: Readonly<Record<string, boolean | readonly string[]>> = {
  unix: true,
  windows: false,
  test: true,
  debug_assertions: true,
  miri: false,
  target_os: ["linux"],
  target_family: ["unix"],
  target_arch: ["x86_64"],
  target_pointer_width: ["64"],
  target_endian: ["little"],
  target_env: ["gnu"],
  target_vendor: ["unknown"],
  panic: ["unwind"],
  target_has_atomic: ["8", "16", "32", "64", "ptr"],
};

/**
 * Whether a Rust cfg predicate (`not(panic = "unwind")`, `all(unix,
 * target_pointer_width = "64")`, `windows`) holds in the configuration
 * tests run in here ({@link HERE_CFG}): true, false, "feature" when only
 * the enabled cargo features decide, or undefined for text that is no cfg
 * predicate. With `config` "anywhere" every option is left open, so false
 * means the predicate holds in no configuration at all (`any()`,
 * `all(unix, not(unix))` is not seen through: only the constants). A test ignored under a predicate that holds here is skipped
 * where CI runs ("here"); under one that does not, or one only features
 * decide, it runs here ("environment").
 */
export function cfgHoldsHere(predicate: string, config: "here" | "anywhere" = "here"): boolean | "feature" | undefined {
  const tokens = predicate.match(/"(?:[^"\\]|\\.)*"|[A-Za-z_]\w*|[(),=]/g) ?? [];
  if (tokens.join("").replace(/\s/g, "") !== predicate.replace(/\s/g, "")) return undefined;
  let at = 0;
  type Value = boolean | "feature";
  const not = (value: Value): Value => (value === "feature" ? value : !value);
  const parse = (): Value | undefined => {
    const name = tokens[at++];
    if (name === undefined || !/^[A-Za-z_]/.test(name)) return undefined;
    if ((name === "all" || name === "any" || name === "not") && tokens[at] === "(") {
      at++;
      const values: Value[] = [];
      while (tokens[at] !== ")") {
        const value = parse();
        if (value === undefined) return undefined;
        values.push(value);
        if (tokens[at] === ",") at++;
        else if (tokens[at] !== ")") return undefined;
      }
      at++;
      if (name === "not") return values.length === 1 ? not(values[0] as Value) : undefined;
      if (name === "all") return values.includes(false) ? false : values.includes("feature") ? "feature" : true;
      return values.includes(true) ? true : values.includes("feature") ? "feature" : false;
    }
    if (tokens[at] === "=") {
      at++;
      const literal = tokens[at++];
      if (literal === undefined || !literal.startsWith('"')) return undefined;
      if (name === "feature" || config === "anywhere") return "feature";
      const known = HERE_CFG[name];
      return Array.isArray(known) ? known.includes(literal.slice(1, -1)) : false;
    }
    if (config === "anywhere") return "feature";
    const known = HERE_CFG[name];
    return typeof known === "boolean" ? known : false;
  };
  const value = parse();
  return value === undefined || at !== tokens.length ? undefined : value;
}
