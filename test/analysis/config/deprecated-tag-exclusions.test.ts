/**
 * Tests set aside by an excluded tag together with the component the same
 * change deprecates (config/deprecations.ts, runner-files.ts
 * retiredWithDeprecation; sweep of thephpleague/flysystem a847979c19: the
 * SftpV2 adapter deprecated for V3, its test class joins a `legacy` group
 * phpunit.xml.dist now excludes): medium, not critical. Tests of code that
 * is not deprecated, or was deprecated before the change, stay critical.
 */
import { describe, expect, it } from "vitest";
import { comparePhpunitXml, comparePom, compareRspecFile, type ChangeTrees } from "../../../src/analysis/config/runner-files.js";
import { deprecatedDeclarations } from "../../../src/analysis/config/deprecations.js";
import type { TamperNote } from "../../../src/analysis/config/finding.js";
import { treeOf } from "../../helpers/trees.js";

/** Two trees from path -> text maps (null: absent on that side). */
function trees(files: Record<string, [string | null, string | null]>): ChangeTrees {
  const side = (index: 0 | 1) => treeOf(Object.fromEntries(Object.entries(files).flatMap(([path, sides]) => (sides[index] === null ? [] : [[path, sides[index]]]))));
  return { before: side(0), after: side(1) };
}

interface Shape {
  lang: string;
  /** Runs the runner config's comparison over the files. */
  compare: (files: ChangeTrees) => Promise<TamperNote[]>;
  product: [path: string, plain: string, deprecated: string];
  test: [path: string, plain: string, tagged: string];
  /** A test file of another, undeprecated class, tagged too. */
  other: [path: string, plain: string, tagged: string];
}

const phpunit = (extra: string): string => `<phpunit><testsuites><testsuite name="unit"><directory>src</directory></testsuite></testsuites>${extra}</phpunit>`;
const pom = (configuration: string): string =>
  `<project><build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId>${configuration}</plugin></plugins></build></project>`;

const SHAPES: Shape[] = [
  {
    lang: "php (phpunit groups)",
    compare: (files) => comparePhpunitXml("phpunit.xml.dist", phpunit(""), phpunit("<groups><exclude><group>legacy</group></exclude></groups>"), files),
    product: [
      "src/SftpV2/SftpAdapter.php",
      "<?php\nnamespace Fly\\SftpV2;\n\nclass SftpAdapter\n{\n}\n",
      "<?php\nnamespace Fly\\SftpV2;\n\n/**\n * @deprecated use SftpV3 instead.\n */\nclass SftpAdapter\n{\n}\n",
    ],
    test: [
      "src/SftpV2/SftpAdapterTest.php",
      "<?php\nnamespace Fly\\SftpV2;\n\n/**\n * @group sftp\n */\nclass SftpAdapterTest extends TestCase\n{\n    public function testWrites(): void { $this->assertTrue((new SftpAdapter())->write()); }\n}\n",
      "<?php\nnamespace Fly\\SftpV2;\n\n/**\n * @group sftp\n * @group legacy\n */\nclass SftpAdapterTest extends TestCase\n{\n    public function testWrites(): void { $this->assertTrue((new SftpAdapter())->write()); }\n}\n",
    ],
    other: [
      "src/Ftp/FtpAdapterTest.php",
      "<?php\nnamespace Fly\\Ftp;\n\nclass FtpAdapterTest extends TestCase\n{\n    public function testWrites(): void { $this->assertTrue((new FtpAdapter())->write()); }\n}\n",
      "<?php\nnamespace Fly\\Ftp;\n\n/**\n * @group legacy\n */\nclass FtpAdapterTest extends TestCase\n{\n    public function testWrites(): void { $this->assertTrue((new FtpAdapter())->write()); }\n}\n",
    ],
  },
  {
    lang: "java (surefire excludedGroups)",
    compare: (files) => comparePom("pom.xml", pom(""), pom("<configuration><excludedGroups>legacy</excludedGroups></configuration>"), files),
    product: [
      "src/main/java/com/x/OldClient.java",
      "package com.x;\n\npublic class OldClient {\n}\n",
      "package com.x;\n\n/** @deprecated use NewClient. */\n@Deprecated\npublic class OldClient {\n}\n",
    ],
    test: [
      "src/test/java/com/x/OldClientTest.java",
      "package com.x;\n\nclass OldClientTest {\n  @Test\n  void sends() { assertTrue(new OldClient().send()); }\n}\n",
      'package com.x;\n\n@Tag("legacy")\nclass OldClientTest {\n  @Test\n  void sends() { assertTrue(new OldClient().send()); }\n}\n',
    ],
    other: [
      "src/test/java/com/x/ClientTest.java",
      "package com.x;\n\nclass ClientTest {\n  @Test\n  void sends() { assertTrue(new Client().send()); }\n}\n",
      'package com.x;\n\n@Tag("legacy")\nclass ClientTest {\n  @Test\n  void sends() { assertTrue(new Client().send()); }\n}\n',
    ],
  },
  {
    lang: "ruby (rspec --tag ~legacy)",
    compare: (files) => compareRspecFile(".rspec", "--require spec_helper\n", "--require spec_helper\n--tag ~legacy\n", files),
    product: ["lib/old_slugger.rb", "class OldSlugger\n  def slug(s) = s\nend\n", "# @deprecated Use Slugger instead.\nclass OldSlugger\n  def slug(s) = s\nend\n"],
    test: [
      "spec/old_slugger_spec.rb",
      'RSpec.describe OldSlugger do\n  it "slugs" do\n    expect(OldSlugger.new.slug("a")).to eq("a")\n  end\nend\n',
      'RSpec.describe OldSlugger, :legacy do\n  it "slugs" do\n    expect(OldSlugger.new.slug("a")).to eq("a")\n  end\nend\n',
    ],
    other: [
      "spec/slugger_spec.rb",
      'RSpec.describe Slugger do\n  it "slugs" do\n    expect(Slugger.new.slug("a")).to eq("a")\n  end\nend\n',
      'RSpec.describe Slugger, :legacy do\n  it "slugs" do\n    expect(Slugger.new.slug("a")).to eq("a")\n  end\nend\n',
    ],
  },
];

const severities = (notes: readonly TamperNote[]): (string | undefined)[] => notes.map((note) => note.severity ?? "critical");

describe("tests tagged out with the component the change deprecates: medium", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [productPath, plain, deprecated] = shape.product;
    const [testPath, test, tagged] = shape.test;
    const notes = await shape.compare(trees({ [productPath]: [plain, deprecated], [testPath]: [test, tagged] }));
    expect(severities(notes)).toEqual(["medium"]);
    expect(notes[0]?.message).toMatch(/the change deprecates the code they test/);
  });
});

describe("tests tagged out while what they test is not newly deprecated: critical", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s: no deprecation", async (_lang, shape) => {
    const [productPath, plain] = shape.product;
    const [testPath, test, tagged] = shape.test;
    expect(severities(await shape.compare(trees({ [productPath]: [plain, plain], [testPath]: [test, tagged] })))).toEqual(["critical"]);
  });
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s: deprecated before the change", async (_lang, shape) => {
    const [productPath, , deprecated] = shape.product;
    const [testPath, test, tagged] = shape.test;
    expect(severities(await shape.compare(trees({ [productPath]: [deprecated, deprecated], [testPath]: [test, tagged] })))).toEqual(["critical"]);
  });
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s: another class's tests tagged out beside them", async (_lang, shape) => {
    const [productPath, plain, deprecated] = shape.product;
    const [testPath, test, tagged] = shape.test;
    const [otherPath, otherPlain, otherTagged] = shape.other;
    expect(severities(await shape.compare(trees({ [productPath]: [plain, deprecated], [testPath]: [test, tagged], [otherPath]: [otherPlain, otherTagged] })))).toEqual(["critical"]);
  });
});

describe("deprecatedDeclarations", () => {
  it("reads the declaration after a marker, past its comment and attribute lines", () => {
    expect([...deprecatedDeclarations("/**\n * @deprecated x\n */\n#[Attr]\nfinal class A {}\n", "php")]).toEqual(["A"]);
    expect([...deprecatedDeclarations('@Deprecated(since = "2")\npublic static void run(String s) {}\n', "java")]).toEqual(["run"]);
    expect([...deprecatedDeclarations("# @deprecated\ndef self.legacy_slug(s)\n", "ruby")]).toEqual(["legacy_slug"]);
  });
});
