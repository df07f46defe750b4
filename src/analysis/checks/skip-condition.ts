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

/** A dependency's presence asked for: a lookup (`find_spec`, `shutil.which`, `class_exists`), a capability flag, or a probe in a handler of a missing feature's error (skip-reach.ts probeCondition: `!available(import numpy)`). */
const DEPENDENCY =
  /\bis\s+None\b|\bis\s+not\s+None\b|importorskip|find_spec|find_module|shutil\.which|exec\.LookPath|\bwhich\s*\(|extension_loaded|class_exists|function_exists|interface_exists|defined\?|CAPABILITIES|\bHAS_\w+|\bhas_\w+|\bhas[A-Z]\w*|\bcan_\w+|\bCAN_\w+|\bsupports?_\w+|\bSUPPORTS?_\w+|is_?available|isAvailable|IsAvailable|typeof\s+\w+\s*===?\s*["']undefined|require\.resolve|isInstalled|is_installed|\bimportable\b|NotImplemented|Optional|^!available\(/;

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
 * A condition that holds when the run is privileged (root): a user id
 * compared equal to 0 (`os.geteuid() == 0`, Go `os.Geteuid() == 0`, PHP
 * `0 === posix_geteuid()`, Node `process.getuid?.() === 0`, Ruby
 * `Process.euid.zero?`, Rust `unsafe { libc::geteuid() } == 0`), the user named root
 * (`getpass.getuser() == "root"`, `"root".equals(System.getProperty(
 * "user.name"))`), or a root/administrator flag (`is_root()`, `isRoot`,
 * `IsAdministrator`). A negated or inverted probe (`!= 0`, `!(…)` of an
 * `unless`, `not is_root()`) holds for the unprivileged run and is none.
 */
const PRIVILEGED =
  /\b(?:get_?e?uid|Gete?uid|posix_gete?uid)\s*(?:\?\.)?\s*\(\s*\)\s*(?:\}\s*)?===?\s*0\b|\b0\s*===?\s*(?:[\w:]+[.:])?(?:get_?e?uid|Gete?uid|posix_gete?uid)\b|\bProcess\.e?uid(?:\.zero\?|\s*==\s*0\b)|(?:getuser\s*\(\s*\)|UserName|user\.name["']\s*\))\s*===?\s*["']root["']|["']root["']\s*(?:===?\s*[\w.]+|\.equals\s*\()|\b(?:is_?root|isRoot|IsRoot|IS_ROOT|running_as_root|is_?admin|IsAdministrator|isAdmin|IsPrivileged)\b/;

/** A probe made false by a negation: `!=`, `!==`, a leading `!(` of an `unless`, `not x`, `!x`. */
const NEGATED_PROBE = /!==?|(?:^|[^\w])!\s*\(?\s*[\w$.:]|\bnot\s/;

/**
 * True when a conditional skip's condition holds for a privileged (root)
 * run (see {@link PRIVILEGED}). compare.ts reads it for a test that takes
 * permissions away ({@link changesPermissions}): such a test cannot pass
 * as root whatever the code does (root reads a file made unreadable), so
 * skipping it there skips a test that cannot run, not one that fails
 * (sweep of theskumar/python-dotenv 0525fc94d7). Pure; never throws.
 */
export function isPrivilegedRunProbe(condition: string | undefined): boolean {
  const text = condition?.trim() ?? "";
  return PRIVILEGED.test(text) && !NEGATED_PROBE.test(text);
}

/** A call that takes permissions away from a file or the process: chmod in its spellings, ACLs, umask, ownership. */
const PERMISSION_CHANGE =
  /\b(?:l?chmod(?:Sync)?|Chmod|chmod_R|set_permissions|setPermissions|setReadable|setWritable|setExecutable|setPosixFilePermissions|SetAccessControl|SetUnixFileMode|chown|Chown|umask|Umask)\s*[(!]/;

/**
 * True when a test's body, as it runs whatever happens (TestCase.directCalls),
 * changes a file's or the process's permissions (`path.chmod(0o000)`, Go
 * `os.Chmod(p, 0)`, `fs.chmodSync`, PHP `chmod('f', 0000)`, Ruby
 * `File.chmod`, Java `setReadable(false)`, Rust `set_permissions`).
 */
export function changesPermissions(directCalls: readonly string[] | undefined): boolean {
  return (directCalls ?? []).some((call) => PERMISSION_CHANGE.test(call));
}

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
