/**
 * Runtime support read from manifests, and version-gated skips judged
 * against it (analysis/support.ts): a test skipped from the new minimum up
 * runs nowhere once the change drops the versions it ran on.
 */
import { describe, expect, it } from "vitest";
import { deadUnderSupport, statedRequirement, supportChanges, versionComparison, type SupportChange } from "../../src/analysis/support.js";
import { change, expectFindings } from "./rules/table.js";

describe("statedRequirement", () => {
  it.each([
    ["pyproject.toml", '[project]\nname = "x"\nrequires-python = ">=3.10"\n', "python", ">=3.10"],
    ["setup.py", 'setup(name="x", python_requires=">=3.8")\n', "python", ">=3.8"],
    ["package.json", '{"engines": {"node": ">=18"}}', "node", ">=18"],
    ["go.mod", "module x\n\ngo 1.21\n", "go", "1.21"],
    ["Cargo.toml", '[package]\nrust-version = "1.70"\n', "rust", "1.70"],
    ["composer.json", '{"require": {"php": "^8.1"}}', "php", "^8.1"],
    ["x.gemspec", 'Gem::Specification.new do |s|\n  s.required_ruby_version = ">= 3.2"\nend\n', "ruby", ">= 3.2"],
    ["src/X.csproj", "<Project><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>", "dotnet", "8.0"],
  ])("%s", (path, text, runtime, requirement) => {
    expect(statedRequirement(path, text)).toEqual({ runtime, requirement });
  });

  it("states nothing for a manifest without a minimum", () => {
    expect(statedRequirement("package.json", '{"name": "x"}')).toBeNull();
    expect(statedRequirement("README.md", "requires-python = '>=3.10'")).toBeNull();
  });
});

describe("supportChanges", () => {
  it("lists a raised minimum and leaves an unchanged one out", () => {
    const changes = [
      { path: "pyproject.toml", before: 'requires-python = ">=3.9"\n', after: 'requires-python = ">=3.10"\n' },
      { path: "package.json", before: '{"engines": {"node": ">=18"}}', after: '{"engines": {"node": ">=18"}, "name": "y"}' },
    ];
    expect(supportChanges(changes)).toEqual([{ runtime: "python", path: "pyproject.toml", before: [3, 9], after: [3, 10], afterText: ">=3.10" }]);
  });
});

describe("versionComparison", () => {
  it("reads comparisons of the running version, negations and named flags", () => {
    expect(versionComparison("sys.version_info[:2] >= (3, 10)")).toEqual({ runtime: "python", op: ">=", version: [3, 10] });
    expect(versionComparison("not PY310", new Map([["PY310", "sys.version_info >= (3, 10)"]]))).toEqual({ runtime: "python", op: "<", version: [3, 10] });
    expect(versionComparison('!(RUBY_VERSION >= "3.1")')).toEqual({ runtime: "ruby", op: "<", version: [3, 1] });
    expect(versionComparison("PHP_VERSION_ID < 80100")).toEqual({ runtime: "php", op: "<", version: [8, 1, 0] });
    expect(versionComparison("(3, 8) <= sys.version_info")).toEqual({ runtime: "python", op: ">=", version: [3, 8] });
    expect(versionComparison("sys.platform == 'win32'")).toBeNull();
    expect(versionComparison("HAS_NUMPY")).toBeNull();
  });
});

describe("deadUnderSupport", () => {
  const python: SupportChange = { runtime: "python", path: "pyproject.toml", before: [3, 9], after: [3, 10], afterText: ">=3.10" };
  it("a skip from 3.10 up runs nowhere once 3.9 is dropped", () => {
    expect(deadUnderSupport("sys.version_info >= (3, 10)", [python])).toBe(python);
  });
  it("a skip below 3.10, or from a version above the new minimum, still leaves the test running", () => {
    expect(deadUnderSupport("sys.version_info < (3, 10)", [python])).toBeNull();
    expect(deadUnderSupport("sys.version_info >= (3, 12)", [python])).toBeNull();
  });
  it("another runtime's minimum, or a lowered one, decides nothing", () => {
    expect(deadUnderSupport('RUBY_VERSION >= "3.1"', [python])).toBeNull();
    expect(deadUnderSupport("sys.version_info >= (3, 10)", [{ ...python, before: [3, 10], after: [3, 9] }])).toBeNull();
  });
});

describe("version-gated tests deleted", () => {
  const gemspec = (version: string): string => `Gem::Specification.new do |s|\n  s.name = "f"\n  s.required_ruby_version = ">= ${version}"\nend\n`;
  const tests = (body: string): string => `require "minitest/autorun"\n\nclass FTest < Minitest::Test\n  def test_a\n    assert_equal 1, F.a\n  end\n${body}end\n`;
  const preRuby31 = '\n  def test_old_path\n    skip if RUBY_VERSION >= "3.1"\n    assert_equal 2, F.old\n  end\n';
  it("ruby: a pre-3.1 test deleted as the gemspec requires 3.2 is low", async () => {
    await expectFindings({
      name: "ruby dropped",
      changes: [change("f.gemspec", gemspec("3.0"), gemspec("3.2")), change("test/f_test.rb", tests(preRuby31), tests(""))],
      findings: [`test_deletion/low test/f_test.rb "FTest > test_old_path"`],
    });
  });
  it("ruby: the same test deleted while 3.0 is still supported stays critical", async () => {
    await expectFindings({
      name: "ruby kept",
      changes: [change("f.gemspec", gemspec("3.0"), gemspec("3.0") + "# x\n"), change("test/f_test.rb", tests(preRuby31), tests(""))],
      findings: [`test_deletion/critical test/f_test.rb "FTest > test_old_path"`],
    });
  });
});
