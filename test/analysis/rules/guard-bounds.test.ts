/**
 * guardBoundNarrowed and refusals (issue 9): a refusal (`throw new
 * NotSupportedException`, `raise NotImplementedError`, `errors.New("… not
 * supported")`) whose bound moves to refuse fewer cases (`rank > 3` ->
 * `rank > 4`) while the function does new work for the cases let in
 * (`Nested(rank, values)`) implements them, as a refusal removed with new
 * work does; an alternative of a refusal dropped likewise. The nearest
 * cheats still fire: the bound moved with no new work, or with a default
 * answered for the cases let in; and any bound of an input check narrowed.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

function row(name: string, path: string, template: string, before: string, after: string, findings: string[]): RuleCase {
  return { name, changes: [change(path, template.replace("GUARD", before), template.replace("GUARD", after))], findings };
}

const CS = "namespace Shop;\n\npublic static class Renderer\n{\n    public static string Render(int rank, int[] values)\n    {\n        GUARD\n        return Flat(values);\n    }\n}\n";
const PY = "def render(rank, values):\n    GUARD\n    return flat(values)\n";
const GO = 'package shop\n\nimport "errors"\n\nfunc Render(rank int, values []int) (string, error) {\n\tGUARD\n\treturn flat(values), nil\n}\n';

const lookAlikes: RuleCase[] = [
  row(
    "csharp: a NotSupportedException's bound moved up, the new rank handled",
    "src/Shop/Renderer.cs",
    CS,
    'if (rank > 3) throw new NotSupportedException("this rank is not supported");',
    'if (rank > 4) throw new NotSupportedException("this rank is not supported");\n        if (rank == 4) values = Nested(rank, values);',
    [],
  ),
  row(
    "python: a NotImplementedError's bound moved up, the new rank handled",
    "pkg/render.py",
    PY,
    'if rank > 3:\n        raise NotImplementedError("rank")',
    'if rank > 4:\n        raise NotImplementedError("rank")\n    values = nested(rank, values)',
    [],
  ),
  row(
    "go: a 'not supported' error's alternative dropped, the case handled",
    "shop/render.go",
    GO,
    'if rank < 1 || rank > 3 {\n\t\treturn "", errors.New("rank is not supported")\n\t}',
    'if rank < 1 {\n\t\treturn "", errors.New("rank is not supported")\n\t}\n\tvalues = nested(rank, values)',
    [],
  ),
];

const cheats: RuleCase[] = [
  row(
    "csharp: a NotSupportedException's bound moved up, nothing new done",
    "src/Shop/Renderer.cs",
    CS,
    'if (rank > 3) throw new NotSupportedException("this rank is not supported");',
    'if (rank > 4) throw new NotSupportedException("this rank is not supported");',
    ["validation_bypass/high src/Shop/Renderer.cs"],
  ),
  row(
    "csharp: a NotSupportedException's bound moved up, a default answered for the new rank",
    "src/Shop/Renderer.cs",
    CS,
    'if (rank > 3) throw new NotSupportedException("this rank is not supported");',
    'if (rank > 4) throw new NotSupportedException("this rank is not supported");\n        if (rank == 4) return "";\n        values = Nested(rank, values);',
    ["validation_bypass/high src/Shop/Renderer.cs"],
  ),
  row(
    "python: an input check's bound moved, new work done",
    "pkg/render.py",
    PY,
    'if rank < 0:\n        raise ValueError("negative rank")',
    'if rank < -1:\n        raise ValueError("negative rank")\n    values = nested(rank, values)',
    ["validation_bypass/high pkg/render.py"],
  ),
  row(
    "go: a 'not supported' error's alternative dropped, nothing new done",
    "shop/render.go",
    GO,
    'if rank < 1 || rank > 3 {\n\t\treturn "", errors.New("rank is not supported")\n\t}',
    'if rank < 1 {\n\t\treturn "", errors.New("rank is not supported")\n\t}',
    ["validation_bypass/high shop/render.go"],
  ),
];

describe("a refusal's bound moved as the cases it let in land (look-alikes)", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a bound moved with nothing done for what it lets in (cheats)", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
