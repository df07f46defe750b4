/**
 * A test command's scope judged in the tree (config/scope.ts): a command
 * narrowed from a solution to one project, from a workspace to one crate,
 * from every package to one, from every test to a folder, is a narrowing
 * only when tests are left outside the new scope; one that still runs
 * every test there is not, whatever its words.
 */
import { describe, expect, it } from "vitest";
import { compareCommands } from "../../../src/analysis/config/command.js";
import { resolveScope, solutionProjects } from "../../../src/analysis/config/scope.js";
import { analyzeCommand } from "../../../src/analysis/config/command.js";
import { changesBetween, treeOf } from "../../helpers/trees.js";
import { analyzeChanges } from "../../../src/analysis/index.js";

const testProject =
  '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.11.1" />\n    <PackageReference Include="xunit" Version="2.9.2" />\n  </ItemGroup>\n</Project>\n';
const productProject = '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n';
const sln = (...projects: string[]): string =>
  `Microsoft Visual Studio Solution File, Format Version 12.00\n${projects.map((path, index) => `Project("{9A19103F-16F7-4668-BE54-9A1E7A4F7556}") = "P${index}", "${path.replace(/\//g, "\\")}", "{5B1A7C1E-0000-4000-8000-00000000000${index}}"\nEndProject\n`).join("")}`;

const dotnet = treeOf({
  "Scan.sln": sln("src/Scan/Scan.csproj", "tests/Scan.Tests/Scan.Tests.csproj", "tests/Scan.Db.Tests/Scan.Db.Tests.csproj"),
  "src/Scan/Scan.csproj": productProject,
  "src/Scan/Filter.cs": "class Filter {}\n",
  "tests/Scan.Tests/Scan.Tests.csproj": testProject,
  "tests/Scan.Tests/FilterTests.cs": "public class FilterTests { [Fact] public void A() {} }\n",
  "tests/Scan.Db.Tests/Scan.Db.Tests.csproj": testProject,
  "tests/Scan.Db.Tests/StoreTests.cs": "public class StoreTests { [Fact] public void B() {} }\n",
});
const dotnetOneTestProject = treeOf({
  "Scan.sln": sln("src/Scan/Scan.csproj", "tests/Scan.Tests/Scan.Tests.csproj"),
  "src/Scan/Scan.csproj": productProject,
  "tests/Scan.Tests/Scan.Tests.csproj": testProject,
  "tests/Scan.Tests/FilterTests.cs": "public class FilterTests { [Fact] public void A() {} }\n",
});

const goTree = treeOf({
  "go.mod": "module example.com/scan\n\ngo 1.22\n",
  "scan.go": "package scan\n",
  "pkg/a/a.go": "package a\n",
  "pkg/a/a_test.go": "package a\n",
  "pkg/b/b_test.go": "package b\n",
  "pkg/b/testdata/x_test.go": "package x\n",
  "tools/go.mod": "module example.com/scan/tools\n",
  "tools/t_test.go": "package tools\n",
});

const cargoTree = treeOf({
  "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
  "crates/core/Cargo.toml": '[package]\nname = "scan-core"\nversion = "0.1.0"\n',
  "crates/core/src/lib.rs": "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n}\n",
  "crates/db/Cargo.toml": '[package]\nname = "scan-db"\nversion = "0.1.0"\n',
  "crates/db/src/lib.rs": "pub fn g() {}\n",
  "crates/db/tests/store.rs": "#[test]\nfn b() {}\n",
  "crates/macros/Cargo.toml": '[package]\nname = "scan-macros"\nversion = "0.1.0"\n',
  "crates/macros/src/lib.rs": "pub fn h() {}\n",
});
const cargoSingle = treeOf({
  "Cargo.toml": '[package]\nname = "scan"\nversion = "0.1.0"\n',
  "src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n}\n",
  "tests/it.rs": "#[test]\nfn b() {}\n",
});

const pyTree = treeOf({
  "pyproject.toml": '[project]\nname = "scan"\n',
  "scan/__init__.py": "",
  "tests/unit/test_filter.py": "def test_a():\n    assert 1\n",
  "tests/integration/test_store.py": "def test_b():\n    assert 1\n",
  "docs/conf.py": "",
});
const pyAllInTests = treeOf({
  "pyproject.toml": '[project]\nname = "scan"\n',
  "scan/__init__.py": "",
  "tests/test_filter.py": "def test_a():\n    assert 1\n",
  "docs/conf.py": "",
});

const jsTree = treeOf({
  "package.json": '{"name": "scan", "scripts": {"test": "vitest run"}}',
  "src/filter.ts": "export const f = 1;\n",
  "src/filter.test.ts": "test('a', () => {});\n",
  "src/db/store.test.ts": "test('b', () => {});\n",
  "node_modules/x/x.test.js": "",
});

const mavenTree = treeOf({
  "pom.xml": "<project><artifactId>scan</artifactId><modules><module>core</module><module>api</module><module>docs</module></modules></project>",
  "core/pom.xml": "<project><parent><artifactId>scan</artifactId></parent><artifactId>scan-core</artifactId></project>",
  "core/src/test/java/CoreTest.java": "class CoreTest {}",
  "api/pom.xml": "<project><parent><artifactId>scan</artifactId></parent><artifactId>scan-api</artifactId></project>",
  "api/src/test/java/ApiTest.java": "class ApiTest {}",
  "docs/pom.xml": "<project><artifactId>scan-docs</artifactId></project>",
});

const scoped = (tree: ReturnType<typeof treeOf>, cwdBefore = "", cwdAfter = cwdBefore) => ({ tree, cwdBefore, cwdAfter });
const messages = (before: string, after: string, scope: ReturnType<typeof scoped>): string =>
  compareCommands(before, after, "step", 1, undefined, undefined, scope)
    .map((note) => note.message)
    .join("\n");

describe("resolveScope", () => {
  it("reads a solution's projects (backslashes, .slnx, .slnf) and keeps the test projects", () => {
    expect(solutionProjects("Scan.sln", sln("src/A/A.csproj", "tests/B/B.csproj"))).toEqual(["src/A/A.csproj", "tests/B/B.csproj"]);
    expect(solutionProjects("build/Scan.slnx", '<Solution>\n  <Project Path="../src/A/A.csproj" />\n</Solution>\n')).toEqual(["src/A/A.csproj"]);
    expect(solutionProjects("Scan.Unit.slnf", JSON.stringify({ solution: { path: "Scan.sln", projects: ["tests\\B\\B.csproj"] } }))).toEqual(["tests/B/B.csproj"]);
    const scope = resolveScope(analyzeCommand("dotnet test Scan.sln").invocations[0]!, "", dotnet);
    expect([...(scope?.units ?? [])].sort()).toEqual(["tests/Scan.Db.Tests/Scan.Db.Tests.csproj", "tests/Scan.Tests/Scan.Tests.csproj"]);
  });

  it("reads go package patterns, leaving testdata and nested modules out", () => {
    const scope = resolveScope(analyzeCommand("go test ./...").invocations[0]!, "", goTree);
    expect([...(scope?.units ?? [])].sort()).toEqual(["pkg/a", "pkg/b"]);
    expect([...(resolveScope(analyzeCommand("go test example.com/scan/pkg/a").invocations[0]!, "", goTree)?.units ?? [])]).toEqual(["pkg/a"]);
    expect(resolveScope(analyzeCommand("go test github.com/other/x").invocations[0]!, "", goTree)).toBeNull();
  });

  it("reads cargo's package selection in a workspace", () => {
    expect([...(resolveScope(analyzeCommand("cargo test --workspace").invocations[0]!, "", cargoTree)?.units ?? [])].sort()).toEqual(["crates/core", "crates/db"]);
    expect([...(resolveScope(analyzeCommand("cargo test").invocations[0]!, "", cargoTree)?.units ?? [])].sort()).toEqual(["crates/core", "crates/db"]);
    expect([...(resolveScope(analyzeCommand("cargo test -p scan-db").invocations[0]!, "", cargoTree)?.units ?? [])]).toEqual(["crates/db"]);
    expect(resolveScope(analyzeCommand("cargo test -p unknown").invocations[0]!, "", cargoTree)).toBeNull();
  });

  it("cannot resolve what it cannot read", () => {
    expect(resolveScope(analyzeCommand("dotnet test $SOLUTION").invocations[0]!, "", dotnet)).toBeNull();
    expect(resolveScope(analyzeCommand("dotnet test Missing.sln").invocations[0]!, "", dotnet)).toBeNull();
    expect(resolveScope(analyzeCommand("pytest --pyargs scan").invocations[0]!, "", pyTree)).toBeNull();
    expect(resolveScope(analyzeCommand("mvn test -pl core -am").invocations[0]!, "", mavenTree)).toBeNull();
  });
});

describe("a test command narrowed while tests are left outside its new scope", () => {
  it.each([
    ["dotnet test Scan.sln -c Release /p:CI=true", "dotnet test tests/Scan.Tests/Scan.Tests.csproj -c Release -p:CI=true", dotnet, /Scan\.Db\.Tests\.csproj/],
    ["dotnet test", "dotnet test tests/Scan.Tests", dotnet, /Scan\.Db\.Tests\.csproj/],
    ["dotnet test Scan.sln", "cd tests/Scan.Tests && dotnet test", dotnet, /Scan\.Db\.Tests\.csproj/],
    ["go test ./...", "go test ./pkg/a", goTree, /"pkg\/b"/],
    ["go test ./...", "go test example.com/scan/pkg/a/...", goTree, /"pkg\/b"/],
    ["cargo test --workspace", "cargo test -p scan-core", cargoTree, /"crates\/db"/],
    ["cargo test --workspace", "cargo test --workspace --exclude scan-db", cargoTree, /"crates\/db"/],
    ["pytest", "pytest tests/unit", pyTree, /tests\/integration\/test_store\.py/],
    ["pytest", "pytest --ignore=tests/integration", pyTree, /tests\/integration\/test_store\.py/],
    ["npm test", "npm test -- src/filter", jsTree, /src\/db\/store\.test\.ts/],
    ["vitest run src", "vitest run lib", jsTree, /src\/filter\.test\.ts/],
    ["mvn test", "mvn test -pl core", mavenTree, /"api"/],
    ["mvn -B verify", "mvn -B verify --projects :scan-core", mavenTree, /"api"/],
  ])("%s -> %s", (before, after, tree, message) => {
    expect(messages(before, after, scoped(tree))).toMatch(message);
  });

  it("judges a step's working directory", () => {
    expect(messages("dotnet test", "dotnet test", scoped(dotnet, "", "tests/Scan.Tests"))).toMatch(/Scan\.Db\.Tests/);
    expect(messages("go test ./...", "go test ./...", scoped(goTree, "", "pkg/a"))).toMatch(/"pkg\/b"/);
  });
});

describe("a test command whose new scope still holds every test it ran", () => {
  it.each([
    ["dotnet test Scan.sln", "dotnet test tests/Scan.Tests/Scan.Tests.csproj", dotnetOneTestProject],
    ["dotnet test", "dotnet test Scan.sln", dotnet],
    ["dotnet test tests/Scan.Tests/Scan.Tests.csproj /p:CI=true", "dotnet test tests/Scan.Tests/Scan.Tests.csproj -p:CI=true -p:TestTfmsInParallel=false", dotnet],
    ["go test ./...", "go test ./pkg/...", goTree],
    ["cargo test --workspace", "cargo test -p scan-core -p scan-db", cargoTree],
    ["cargo test --workspace", "cargo test --workspace --exclude scan-macros", cargoTree],
    ["cargo test", "cargo test -p scan", cargoSingle],
    ["cargo test --all", "cargo test --workspace", cargoTree],
    ["pytest", "pytest tests", pyAllInTests],
    ["pytest", "pytest --ignore=docs", pyAllInTests],
    ["vitest run", "vitest run src", jsTree],
    ["mvn test", "mvn test -pl core,api", mavenTree],
    ["mvn test", "mvn test -pl '!docs'", mavenTree],
  ])("%s -> %s", (before, after, tree) => {
    expect(messages(before, after, scoped(tree))).toBe("");
  });

  it("keeps the textual rules for what the tree cannot tell (name filters, skips)", () => {
    expect(messages("dotnet test Scan.sln", "dotnet test tests/Scan.Tests/Scan.Tests.csproj --filter Category!=Db", scoped(dotnetOneTestProject))).toMatch(/--filter Category!=Db/);
    expect(messages("cargo test --workspace", "cargo test --workspace -- --skip store", scoped(cargoTree))).toMatch(/excludes "store"/);
    expect(messages("pytest", "pytest tests -k 'not slow'", scoped(pyAllInTests))).toMatch(/-k not slow/);
  });
});

describe("through analyzeChanges with both trees", () => {
  const files = (workflow: string): Record<string, string> => ({
    "Scan.sln": sln("tests/Scan.Tests/Scan.Tests.csproj", "tests/Scan.Db.Tests/Scan.Db.Tests.csproj"),
    "tests/Scan.Tests/Scan.Tests.csproj": testProject,
    "tests/Scan.Tests/FilterTests.cs": "public class FilterTests { [Fact] public void A() {} }\n",
    "tests/Scan.Db.Tests/Scan.Db.Tests.csproj": testProject,
    "tests/Scan.Db.Tests/StoreTests.cs": "public class StoreTests { [Fact] public void B() {} }\n",
    ".github/workflows/ci.yml": workflow,
  });
  const job = (step: string): string => `on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Test\n${step}`;

  it("a step moved into one test project's folder by working-directory leaves the other out", async () => {
    const before = files(job("        run: dotnet test -c Release\n"));
    const after = files(job("        run: dotnet test -c Release\n        working-directory: tests/Scan.Tests\n"));
    const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) } });
    expect(analysis.findings.map((finding) => finding.message).join("\n")).toMatch(/Scan\.Db\.Tests\.csproj" that it ran before/);
    expect(analysis.verdict).toBe("BLOCK");
  });

  it("a job's defaults.run.working-directory that the step's path now spells out is the same run", async () => {
    const before = files(
      `on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: tests\n    steps:\n      - name: Test\n        run: dotnet test Scan.Tests\n`,
    );
    const after = files(job("        run: dotnet test tests/Scan.Tests/Scan.Tests.csproj\n"));
    const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) } });
    expect(analysis.findings).toEqual([]);
  });
});
