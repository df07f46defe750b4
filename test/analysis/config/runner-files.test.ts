/**
 * Runner configs of the compiled and scripting languages (runner-files.ts): exclusions judged by
 * the existing tests they leave out, excluded tags by the existing tests that carry them.
 */
import { describe, expect, it } from "vitest";
import {
  compareCargoToml,
  compareCsproj,
  compareGradle,
  comparePhpunitXml,
  comparePom,
  compareRspecFile,
  compareRspecHelper,
  taggedDeclarations,
  type ChangeTrees,
} from "../../../src/analysis/config/runner-files.js";
import { treeOf } from "../../helpers/trees.js";

/** Two trees from path -> text maps (null: absent on that side). */
function trees(files: Record<string, [string | null, string | null]>): ChangeTrees {
  const side = (index: 0 | 1) => treeOf(Object.fromEntries(Object.entries(files).flatMap(([path, sides]) => (sides[index] === null ? [] : [[path, sides[index]]]))));
  return { before: side(0), after: side(1) };
}

const JAVA_TEST = "class VatTest {\n  @Test\n  void rate() { assertEquals(1, 1); }\n}\n";
const pom = (configuration: string): string =>
  `<project><build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId>${configuration}</plugin></plugins></build></project>`;

describe("pom.xml surefire", () => {
  const files = {
    "src/test/java/com/x/VatTest.java": [JAVA_TEST, JAVA_TEST],
    "src/test/java/com/x/VatIT.java": [JAVA_TEST.replace("VatTest", "VatIT"), JAVA_TEST.replace("VatTest", "VatIT")],
  } as Record<string, [string, string]>;
  it("reports an exclude that covers an existing test class", async () => {
    const notes = await comparePom("pom.xml", pom(""), pom("<configuration><excludes><exclude>**/VatTest.java</exclude></excludes></configuration>"), trees(files));
    expect(notes.map((note) => note.detail?.excluded_tests)).toEqual([["src/test/java/com/x/VatTest.java"]]);
  });
  it("ignores excluding *IT classes surefire never ran by default", async () => {
    expect(await comparePom("pom.xml", pom(""), pom("<configuration><excludes><exclude>**/*IT.java</exclude></excludes></configuration>"), trees(files))).toEqual([]);
  });
  it("ignores an exclude over no test file, and reports skipTests turned on", async () => {
    expect(await comparePom("pom.xml", pom(""), pom("<configuration><excludes><exclude>**/generated/**</exclude></excludes></configuration>"), trees(files))).toEqual([]);
    expect((await comparePom("pom.xml", pom(""), pom("<configuration><skipTests>true</skipTests></configuration>"), trees(files))).map((note) => note.setting)).toEqual(["skipTests"]);
  });
});

describe("build.gradle", () => {
  const before = "test {\n    useJUnitPlatform()\n}\n";
  const tagged = JAVA_TEST.replace("  @Test\n", '  @Test\n  @Tag("slow")\n');
  it("reports excludeTags over a tag an existing test gains", async () => {
    const after = "test {\n    useJUnitPlatform() {\n        excludeTags 'slow'\n    }\n}\n";
    const notes = await compareGradle("build.gradle", before, after, trees({ "src/test/java/VatTest.java": [JAVA_TEST, tagged] }));
    expect(notes.map((note) => note.detail?.excluded_tag)).toEqual(["slow"]);
  });
  it("ignores excludeTags over a tag only new tests carry", async () => {
    const after = "test {\n    useJUnitPlatform() {\n        excludeTags 'slow'\n    }\n}\n";
    expect(
      await compareGradle("build.gradle", before, after, trees({ "src/test/java/VatTest.java": [JAVA_TEST, JAVA_TEST], "src/test/java/PerfTest.java": [null, tagged.replace("VatTest", "PerfTest")] })),
    ).toEqual([]);
  });
  it("reports exclude and excludeTestsMatching in the test task, not a dependency exclude", async () => {
    const files = trees({ "src/test/java/com/x/VatTest.java": [JAVA_TEST, JAVA_TEST] });
    expect((await compareGradle("build.gradle", before, "test {\n    exclude '**/VatTest.class'\n}\n", files)).length).toBe(1);
    expect((await compareGradle("build.gradle", before, "test {\n    filter {\n        excludeTestsMatching '*VatTest'\n    }\n}\n", files)).length).toBe(1);
    expect(await compareGradle("build.gradle", before, `${before}dependencies {\n    implementation('a:b:1') { exclude group: 'c' }\n}\n`, files)).toEqual([]);
  });
});

describe("Cargo.toml", () => {
  const manifest = '[package]\nname = "x"\n';
  const rustTest = "#[test]\nfn works() { assert!(true); }\n";
  it("reports test = false on an existing test target", () => {
    const notes = compareCargoToml("Cargo.toml", manifest, `${manifest}\n[[test]]\nname = "named"\ntest = false\n`, trees({ "tests/named.rs": [rustTest, rustTest] }));
    expect(notes.map((note) => note.setting)).toEqual(["[[test]] named"]);
  });
  it("ignores harness = false on a custom harness with its own main", () => {
    const main = "fn main() { assert!(true); }\n";
    expect(compareCargoToml("Cargo.toml", manifest, `${manifest}\n[[test]]\nname = "cli"\nharness = false\n`, trees({ "tests/cli.rs": [null, main] }))).toEqual([]);
  });
});

describe("csproj, phpunit.xml, .rspec, spec_helper.rb", () => {
  const csTest = "public class ConvertTests {\n  [Fact]\n  public void Works() {}\n}\n";
  const csproj = (items: string): string => `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>${items}</ItemGroup></Project>`;
  it("csproj: Compile Remove over a test file, not over generated code", async () => {
    const files = trees({ "tests/U/ConvertTests.cs": [csTest, csTest], "tests/U/Generated/Api.cs": ["class Api {}", "class Api {}"] });
    expect((await compareCsproj("tests/U/U.csproj", csproj(""), csproj('<Compile Remove="ConvertTests.cs" />'), files)).length).toBe(1);
    expect(await compareCsproj("tests/U/U.csproj", csproj(""), csproj('<Compile Remove="Generated/**" />'), files)).toEqual([]);
  });
  const phpTest = "<?php\nfinal class LoanTest extends TestCase {\n    public function testPays(): void {}\n}\n";
  const phpunit = (suite: string, extra = ""): string => `<phpunit><testsuites><testsuite name="unit"><directory>tests</directory>${suite}</testsuite></testsuites>${extra}</phpunit>`;
  it("phpunit.xml: testsuite exclude over a test file, not over a fixtures folder; groups exclude over a gained group", async () => {
    const files = trees({ "tests/LoanTest.php": [phpTest, phpTest], "tests/Fixtures/data.php": ["<?php return [];", "<?php return [];"] });
    expect((await comparePhpunitXml("phpunit.xml", phpunit(""), phpunit("<exclude>tests/LoanTest.php</exclude>"), files)).length).toBe(1);
    expect(await comparePhpunitXml("phpunit.xml", phpunit(""), phpunit("<exclude>tests/Fixtures</exclude>"), files)).toEqual([]);
    const grouped = trees({ "tests/LoanTest.php": [phpTest, phpTest.replace("    public function", "    #[Group('slow')]\n    public function")] });
    expect((await comparePhpunitXml("phpunit.xml", phpunit(""), phpunit("", "<groups><exclude><group>slow</group></exclude></groups>"), grouped)).length).toBe(1);
  });
  const spec = 'RSpec.describe Slugger do\n  it "slugs", :i18n do\n    expect(1).to eq(1)\n  end\nend\n';
  it(".rspec: --tag ~x over an example tagged before, not over an untagged suite", async () => {
    expect((await compareRspecFile(".rspec", "--require spec_helper\n", "--require spec_helper\n--tag ~i18n\n", trees({ "spec/slugger_spec.rb": [spec, spec] }))).length).toBe(1);
    const plain = spec.replace(", :i18n", "");
    expect(await compareRspecFile(".rspec", "--require spec_helper\n", "--require spec_helper\n--tag ~i18n\n", trees({ "spec/slugger_spec.rb": [plain, plain] }))).toEqual([]);
  });
  it("spec_helper.rb: filter_run_excluding over metadata an existing example gains", async () => {
    const helper = "RSpec.configure do |config|\nend\n";
    const excluding = "RSpec.configure do |config|\n  config.filter_run_excluding i18n: true\nend\n";
    const plain = spec.replace(", :i18n", "");
    expect((await compareRspecHelper("spec/spec_helper.rb", helper, excluding, trees({ "spec/slugger_spec.rb": [plain, spec.replace(":i18n", "i18n: true")] }))).length).toBe(1);
    expect(await compareRspecHelper("spec/spec_helper.rb", helper, excluding, trees({ "spec/slugger_spec.rb": [plain, plain] }))).toEqual([]);
  });
  it("finds the declarations tags attach to", () => {
    expect([...taggedDeclarations('  @Tag("slow")\n  @Test\n  void big() {}\n', "java", "slow")]).toEqual(["big"]);
    expect([...taggedDeclarations('  it "x", slow: true do\n', "ruby", "slow")]).toEqual(['"x"']);
    expect([...taggedDeclarations('  it "x", slow: false do\n', "ruby", "slow")]).toEqual([]);
  });
});
