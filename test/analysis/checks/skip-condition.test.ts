/**
 * The condition of a conditional skip, read for test_disabled's severity
 * (checks/skip-condition.ts): environment probes are a notice, skips that
 * fire where CI and agents run are critical.
 */
import { describe, expect, it } from "vitest";
import { cfgHoldsHere, changesPermissions, isPrivilegedRunProbe, skipConditionKind } from "../../../src/analysis/checks/skip-condition.js";
import { extractFacts } from "../../../src/analysis/index.js";

describe("skipConditionKind", () => {
  it.each([
    // optional dependencies and capabilities
    ["cbor2 is None", "environment"],
    ['not CAPABILITIES["symlink"]', "environment"],
    ["not HAS_NUMPY", "environment"],
    ['importlib.util.find_spec("lxml") is None', "environment"],
    ['shutil.which("git") is None', "environment"],
    ["!extension_loaded('intl')", "environment"],
    ['typeof Bun === "undefined"', "environment"],
    // capabilities of the runtime probed by feature detection (sweep of ruby-i18n/i18n d6964f2b60:
    // `skip "Fiber storage requires Ruby 3.2+" unless Fiber.respond_to?(:[])`)
    ["!(Fiber.respond_to?(:[]))", "environment"],
    ['not hasattr(os, "fork")', "environment"],
    ['typeof structuredClone !== "function"', "environment"],
    ['typeof process.getuid === "undefined"', "environment"],
    ['!("Segmenter" in Intl)', "environment"],
    ["!Reflect.has(globalThis, 'WebSocket')", "environment"],
    ["!method_exists(\\DateTime::class, 'createFromInterface')", "environment"],
    ["!property_exists($node, 'attributes')", "environment"],
    ['typeof(Stream).GetMethod("ReadExactly") == null', "environment"],
    // older interpreters
    ["sys.version_info < (3, 10)", "environment"],
    ['RUBY_VERSION < "3.2"', "environment"],
    ["PHP_VERSION_ID < 80100", "environment"],
    ["majorNodeVersion < 22", "environment"],
    // other platforms
    ['sys.platform == "win32"', "environment"],
    ["process.platform === 'darwin'", "environment"],
    ['runtime.GOOS == "windows"', "environment"],
    ["Gem.win_platform?", "environment"],
    ["OperatingSystem.IsWindows()", "environment"],
    ["IS_PYPY", "environment"],
    // other variables
    ['not os.environ.get("DATABASE_URL")', "environment"],
    // where CI and agents run
    ['os.environ.get("CI")', "ci"],
    ["process.env.CI", "ci"],
    ['ENV["GITHUB_ACTIONS"]', "ci"],
    ["IS_CI", "ci"],
    ['"CI" in process.env', "ci"],
    ['sys.platform.startswith("linux")', "here"],
    ['sys.platform != "win32"', "here"],
    ["process.platform !== 'win32'", "here"],
    ['runtime.GOOS == "linux"', "here"],
    ["!(Gem.win_platform?)", "here"],
    ["!OperatingSystem.IsWindows()", "here"],
    ["sys.version_info >= (3, 12)", "here"],
    // unreadable
    ["flaky()", "unknown"],
    ["x == 1", "unknown"],
    ["", "unknown"],
  ])("%s -> %s", (condition, kind) => {
    expect(skipConditionKind(condition)).toBe(kind);
  });
});

/**
 * Rust `#[cfg_attr(<predicate>, ignore)]` (sweep of tokio-rs/bytes
 * f7072c9267): the predicate is evaluated in the configuration tests run in
 * here (Linux x86_64, cargo test's default profile with panic = "unwind"):
 * ignored where it holds here is a skip where CI runs; ignored only under
 * another configuration, or where only cargo features decide, it still runs.
 */
describe("Rust cfg predicates", () => {
  it.each([
    ['not(panic = "unwind")', false],
    ['panic = "unwind"', true],
    ['panic = "abort"', false],
    ["windows", false],
    ["not(windows)", true],
    ["unix", true],
    ['target_os = "macos"', false],
    ['any(target_os = "macos", target_os = "linux")', true],
    ['all(unix, target_pointer_width = "32")', false],
    ["miri", false],
    ["not(miri)", true],
    ["debug_assertions", true],
    ['feature = "slow"', "feature"],
    ['not(feature = "std")', "feature"],
    ['all(unix, feature = "std")', "feature"],
    ['all(windows, feature = "std")', false],
    ["any()", false],
    ["all()", true],
    ["some junk(", undefined],
  ])("%s", (predicate, expected) => {
    expect(cfgHoldsHere(predicate)).toBe(expected);
  });

  it.each([
    ['cfg(not(panic = "unwind"))', "environment"],
    ['cfg(panic = "unwind")', "here"],
    ["cfg(not(windows))", "here"],
    ["cfg(windows)", "environment"],
    ['cfg(feature = "slow")', "environment"],
  ])("skipConditionKind(%s)", (condition, kind) => {
    expect(skipConditionKind(condition)).toBe(kind);
  });
});

describe("Rust #[cfg(...)] on a test", () => {
  it.each([
    ["any()", false],
    ["not(all())", false],
    ["windows", "feature"],
    ['feature = "std"', "feature"],
  ])("cfgHoldsHere(%s, anywhere)", (predicate, expected) => {
    expect(cfgHoldsHere(predicate, "anywhere")).toBe(expected);
  });

  it.each([
    ["#[cfg(any())]", { skipped: true, conditional: false }],
    ["#[cfg(windows)]", { skipped: false, conditional: true }],
    ['#[cfg(feature = "std")]', { skipped: false, conditional: true }],
    ["#[cfg(unix)]", { skipped: false, conditional: false }],
    ["#[cfg(test)]", { skipped: false, conditional: false }],
  ])("%s", async (attribute, flags) => {
    const facts = await extractFacts("src/lib.rs", `#[cfg(test)]\nmod tests {\n    #[test]\n    ${attribute}\n    fn parses() {\n        assert_eq!(parse("1"), 1);\n    }\n}\n`);
    const test = facts.tests[0];
    expect({ skipped: test?.flags.skipped, conditional: test?.flags.conditional }).toEqual(flags);
  });
});

describe("isPrivilegedRunProbe: a condition that holds for a root run", () => {
  it.each([
    ["os.geteuid() == 0", true],
    ["os.getuid() == 0", true],
    ["os.Geteuid() == 0", true],
    ["0 === posix_geteuid()", true],
    ["process.getuid?.() === 0", true],
    ["Process.euid.zero?", true],
    ["Process.uid == 0", true],
    ["unsafe { libc::geteuid() } == 0", true],
    ["libc::geteuid() == 0", true],
    ['getpass.getuser() == "root"', true],
    ['"root".equals(System.getProperty("user.name"))', true],
    ["is_root()", true],
    ["os.geteuid() != 0", false],
    ["!(Process.euid.zero?)", false],
    ["not is_root()", false],
    ["os.geteuid() == 1000", false],
    ['sys.platform == "win32"', false],
  ] as const)("%s -> %s", (condition, expected) => {
    expect(isPrivilegedRunProbe(condition)).toBe(expected);
  });
});

describe("changesPermissions: a body that takes permissions away", () => {
  it.each([
    [["path.chmod(0o000)"], true],
    [["os.Chmod(p, 0)"], true],
    [['fs.chmodSync("f", 0o000)'], true],
    [["chmod('f', 0000)"], true],
    [['File.chmod(0o000, "f")'], true],
    [["file.setReadable(false)"], true],
    [["fs::set_permissions(&p, perms).unwrap()"], true],
    [['open("f").read()'], false],
    [[], false],
  ] as const)("%j -> %s", (calls, expected) => {
    expect(changesPermissions(calls)).toBe(expected);
  });
});
