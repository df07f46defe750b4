/**
 * A guard removed together with the enum member it tested for
 * (rules/validation.ts isDeadMemberGuard): a match arm, `case` or equality
 * test on a member the change removed from its enum can no longer fire, so
 * removing it is no validation_bypass (dtolnay/semver dfa1d4e079: the hidden
 * `__NonExhaustive` variant and its `unreachable!()` arms went with an MSRV
 * bump). A guard on a member that survives, or on a removed constant (a
 * bound: values can still exceed it), is still a bypass.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const CS = (members: string, arms: string): string =>
  `public enum Op { Exact, Greater${members} }\n\npublic static class Matcher\n{\n    public static bool Matches(Op op, int major, int bound)\n    {\n        switch (op)\n        {\n${arms}            case Op.Greater: return major > bound;\n            default: return major == bound;\n        }\n    }\n}\n`;
const JAVA = (members: string, guard: string): string =>
  `package m;\n\npublic class Matcher {\n  public enum Op { EXACT, GREATER${members} }\n\n  public static boolean matches(Op op, int major, int bound) {\n${guard}    return op == Op.GREATER ? major > bound : major == bound;\n  }\n}\n`;
const PY = (members: string, guard: string): string =>
  `import enum\n\n\nclass Op(enum.Enum):\n    EXACT = 1\n    GREATER = 2\n${members}\n\ndef matches(op, major, bound):\n${guard}    return major > bound if op is Op.GREATER else major == bound\n`;

const lookAlikes: RuleCase[] = [
  {
    name: "c#: the `case` throwing for a hidden member removed with the member",
    changes: [change("src/Matcher.cs", CS(", Hidden", '            case Op.Hidden: throw new InvalidOperationException("unreachable");\n'), CS("", ""))],
    findings: [],
  },
  {
    name: "java: an `==` guard on a removed member removed with it",
    changes: [change("src/main/java/m/Matcher.java", JAVA(", LEGACY", '    if (op == Op.LEGACY) throw new IllegalArgumentException("legacy bounds are gone");\n'), JAVA("", ""))],
    findings: [],
  },
  {
    name: "python: an `is` guard on a removed Enum member removed with it",
    changes: [change("pkg/matcher.py", PY("    LEGACY = 3\n", '    if op is Op.LEGACY:\n        raise ValueError("legacy bounds are gone")\n'), PY("", ""))],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "c#: the `case` throwing for a member that survives is removed",
    changes: [change("src/Matcher.cs", CS(", Hidden", '            case Op.Hidden: throw new InvalidOperationException("unresolved");\n'), CS(", Hidden", ""))],
    findings: ["validation_bypass/high src/Matcher.cs"],
  },
  {
    name: "python: a guard on a removed constant (a bound) removed with it: values still exceed it",
    changes: [
      change(
        "pkg/limits.py",
        'MAX_MAJOR = 99\n\n\ndef check(major):\n    if major > MAX_MAJOR:\n        raise ValueError("major too large")\n    return major\n',
        "def check(major):\n    return major\n",
      ),
    ],
    findings: ["validation_bypass/high pkg/limits.py"],
  },
];

describe("guards removed with the enum member they tested: no bypass", () => {
  for (const rule of lookAlikes) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("guards removed while what they tested can still occur: a bypass", () => {
  for (const rule of cheats) it(rule.name, async () => void (await expectFindings(rule)));
});
