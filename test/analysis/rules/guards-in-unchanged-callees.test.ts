/**
 * A guard removed from a changed function because a collaborator it calls,
 * in an unchanged file, makes the same check (analysis/neighbours.ts; sweep
 * of jwtk/jjwt 7ec7dd1a19: the parser's missing-`enc` check dropped, as
 * `this.encAlgs.apply(header)`, an unchanged `IdLocator`, throws the same
 * MalformedTokenException for a missing value). The collaborator is read
 * from the after tree (a type the changed file names, in its file beside
 * it; the package's other files in Go), so the guard lives on and no
 * bypass is reported. A collaborator that throws another error, or one the
 * changed file does not call, leaves the removal a bypass.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type Finding } from "../../../src/analysis/index.js";
import { changesBetween, treeOf, unchangedBetween } from "../../helpers/trees.js";

interface Shape {
  lang: string;
  /** The unchanged collaborator: path and source, `{{guard}}` where its check of a missing value goes. */
  callee: [path: string, source: string];
  /** The changed file before (its own guard, then the call) and after (the call only). */
  changed: [path: string, before: string, after: string];
  /** The collaborator's guard for a missing value, spliced where `{{guard}}` is. */
  guard: string;
}

const SHAPES: Shape[] = [
  {
    lang: "java",
    callee: [
      "src/main/java/com/x/IdLocator.java",
      "package com.x;\n\npublic final class IdLocator {\n    private final String param;\n\n    public IdLocator(String param) { this.param = param; }\n\n    public String apply(java.util.Map<String, String> header) {\n        final String id = header.get(param);\n{{guard}}        return id;\n    }\n}\n",
    ],
    changed: [
      "src/main/java/com/x/Parser.java",
      'package com.x;\n\npublic final class Parser {\n    private final IdLocator encAlgs = new IdLocator("enc");\n\n    public String cipherFor(java.util.Map<String, String> header) {\n        final String enc = header.get("enc");\n        if (enc == null || enc.isBlank()) {\n            throw new MalformedTokenException("missing enc");\n        }\n        return "cipher:" + this.encAlgs.apply(header);\n    }\n}\n',
      'package com.x;\n\npublic final class Parser {\n    private final IdLocator encAlgs = new IdLocator("enc");\n\n    public String cipherFor(java.util.Map<String, String> header) {\n        return "cipher:" + this.encAlgs.apply(header);\n    }\n}\n',
    ],
    guard: '        if (id == null || id.isBlank()) {\n            throw new MalformedTokenException("missing " + param);\n        }\n',
  },
  {
    lang: "c#",
    callee: [
      "src/Jwt/IdLocator.cs",
      "namespace Jwt;\n\npublic sealed class IdLocator\n{\n    private readonly string _param;\n\n    public IdLocator(string param) { _param = param; }\n\n    public string Apply(IDictionary<string, string> header)\n    {\n        header.TryGetValue(_param, out var id);\n{{guard}}        return id;\n    }\n}\n",
    ],
    changed: [
      "src/Jwt/Parser.cs",
      'namespace Jwt;\n\npublic sealed class Parser\n{\n    private readonly IdLocator _encAlgs = new IdLocator("enc");\n\n    public string CipherFor(IDictionary<string, string> header)\n    {\n        if (!header.ContainsKey("enc"))\n        {\n            throw new MalformedTokenException("missing enc");\n        }\n        return "cipher:" + _encAlgs.Apply(header);\n    }\n}\n',
      'namespace Jwt;\n\npublic sealed class Parser\n{\n    private readonly IdLocator _encAlgs = new IdLocator("enc");\n\n    public string CipherFor(IDictionary<string, string> header)\n    {\n        return "cipher:" + _encAlgs.Apply(header);\n    }\n}\n',
    ],
    guard: '        if (string.IsNullOrEmpty(id))\n        {\n            throw new MalformedTokenException("missing " + _param);\n        }\n',
  },
  {
    lang: "go",
    callee: ["jwt/locate.go", "package jwt\n\nfunc locate(header map[string]string, param string) string {\n\tid := header[param]\n{{guard}}\treturn id\n}\n"],
    changed: [
      "jwt/parser.go",
      'package jwt\n\nfunc CipherFor(header map[string]string) string {\n\tif header["enc"] == "" {\n\t\tpanic(MalformedToken("missing enc"))\n\t}\n\treturn "cipher:" + locate(header, "enc")\n}\n',
      'package jwt\n\nfunc CipherFor(header map[string]string) string {\n\treturn "cipher:" + locate(header, "enc")\n}\n',
    ],
    guard: '\tif id == "" {\n\t\tpanic(MalformedToken("missing " + param))\n\t}\n',
  },
];

async function bypasses(shape: Shape, guard: string): Promise<Finding[]> {
  const [calleePath, callee] = shape.callee;
  const [path, before, after] = shape.changed;
  const beforeTree = { [calleePath]: callee.replace("{{guard}}", guard), [path]: before };
  const afterTree = { [calleePath]: callee.replace("{{guard}}", guard), [path]: after };
  const analysis = await analyzeChanges(changesBetween(beforeTree, afterTree), { trees: { before: treeOf(beforeTree), after: treeOf(afterTree) }, unchanged: unchangedBetween(beforeTree, afterTree) });
  return analysis.findings.filter((finding) => finding.type === "validation_bypass" && finding.severity === "high");
}

describe("a guard dropped as an unchanged collaborator the function calls makes the same check: no bypass", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    expect(await bypasses(shape, shape.guard)).toEqual([]);
  });
});

describe("the same guard dropped while the collaborator checks nothing: a bypass", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    expect((await bypasses(shape, "")).map((finding) => finding.file)).toEqual([shape.changed[0]]);
  });
});

/** The two ways a collaborator's check stops refusing for the caller: switched off by its constructor argument, or caught by the caller. */
describe("a collaborator's check the caller switches off or catches keeps nothing: a bypass", () => {
  const locator =
    "package com.x;\n\npublic final class IdLocator {\n    private final String param;\n    private final String requiredMsg;\n\n    public IdLocator(final String param, final java.util.Map<String, String> registry, final String requiredMsg) {\n        this.param = param;\n        this.requiredMsg = requiredMsg;\n    }\n\n    public String apply(java.util.Map<String, String> header) {\n        final String id = header.get(param);\n        if (id == null) {\n            if (requiredMsg != null) {\n                throw new MalformedTokenException(requiredMsg);\n            }\n            return null;\n        }\n        return id;\n    }\n}\n";
  const parser = (message: string, body: string): string =>
    `package com.x;\n\npublic final class Parser {\n    private final IdLocator encAlgs = new IdLocator<>("enc", java.util.Map.of(), ${message});\n\n    public String cipherFor(java.util.Map<String, String> header) {\n${body}    }\n}\n`;
  const guarded = '        if (header.get("enc") == null) {\n            throw new MalformedTokenException("missing enc");\n        }\n        return "cipher:" + this.encAlgs.apply(header);\n';
  const run = async (after: string, before = parser('"missing enc"', guarded)): Promise<Finding[]> => {
    const beforeTree = { "src/main/java/com/x/IdLocator.java": locator, "src/main/java/com/x/Parser.java": before };
    const afterTree = { "src/main/java/com/x/IdLocator.java": locator, "src/main/java/com/x/Parser.java": after };
    const analysis = await analyzeChanges(changesBetween(beforeTree, afterTree), {
      trees: { before: treeOf(beforeTree), after: treeOf(afterTree) },
      unchanged: unchangedBetween(beforeTree, afterTree),
    });
    return analysis.findings.filter((finding) => finding.type === "validation_bypass" && finding.severity === "high");
  };
  it("java: built with a required message, the collaborator refuses: no bypass", async () => {
    expect(await run(parser('"missing enc"', '        return "cipher:" + this.encAlgs.apply(header);\n'))).toEqual([]);
  });
  it("java: built with null for that message, the collaborator's check never fires", async () => {
    expect(await run(parser("null", '        return "cipher:" + this.encAlgs.apply(header);\n'), parser("null", guarded))).toHaveLength(1);
  });
  it("java: the call wrapped in a handler returning a default", async () => {
    expect(
      await run(
        parser(
          '"missing enc"',
          '        try {\n            return "cipher:" + this.encAlgs.apply(header);\n        } catch (MalformedTokenException e) {\n            return "cipher:none";\n        }\n',
        ),
      ),
    ).toHaveLength(1);
  });
});
