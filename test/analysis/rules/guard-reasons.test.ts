/**
 * Guards that are kept in another shape, or whose reason went with the
 * change (rules/validation.ts, the languages' guard tables): a loop guard
 * whose condition moved into a filter (`for (k of keys.filter(bad)) throw`),
 * a guard whose body became a helper that ends in the same throw, a
 * comparison chain rewritten as a match/switch whose arm keeps the
 * rejection, a sign check made by an unsigned parse whose error is checked,
 * and a guard on a build variant's constant dropped with the variant. Each
 * with its nearest cheat, which still fires. Cases of the cheat suite
 * (fixtures/cheats: *-loop-guard-into-*, *-guard-into-helper-*,
 * *-comparison-chain-as-*, *-sign-*, *-variant-*) hold the same shapes as
 * whole trees.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const JS_LOOP = "export function reject(map, allowed) {\n  for (const key of Object.keys(map)) {\n    if (!allowed.includes(key)) {\n      throw new Error(`unsupported ${key}`);\n    }\n  }\n}\n";
const JS_ENCODE =
  'export class E {\n  encode(o) {\n    const tag = typeof o;\n    if (tag !== "object") {\n      const h = this["$" + tag];\n      if (h) return h.call(this, o);\n      throw new Error(`Cannot encode ${tag}`);\n    }\n    return "{}";\n  }\n}\n';
const JS_ENCODE_HELPER = (end: string): string =>
  `export class E {\n  encode(o) {\n    if (typeof o !== "object") return this.builtIn(typeof o, o);\n    return "{}";\n  }\n\n  builtIn(tag, o) {\n    const h = this["$" + tag];\n    if (h) return h.call(this, o);\n    ${end}\n  }\n}\n`;
const RUST_CHAIN =
  'pub fn star(count: usize) -> Result<u8, String> {\n    if count > 2 {\n        return Err(String::from("too many stars"));\n    } else if count == 2 {\n        return Ok(2);\n    }\n    Ok(1)\n}\n';
const GO_UINT = (parse: string, guard: string): string =>
  `package decode\n\nimport (\n\t"encoding/json"\n\t"fmt"\n\t"strconv"\n)\n\nvar _ = strconv.Itoa\n\nfunc Uint(n json.Number) (uint64, error) {\n${parse}${guard}\treturn uint64(i), nil\n}\n`;
const GO_SIGNED = '\ti, err := n.Int64()\n\tif err != nil {\n\t\treturn 0, fmt.Errorf("decode: %s", err)\n\t}\n';
const GO_UNSIGNED = '\ti, err := strconv.ParseUint(string(n), 0, 64)\n\tif err != nil {\n\t\treturn 0, fmt.Errorf("decode: %s", err)\n\t}\n';
const GO_SIGN_GUARD = '\tif i < 0 {\n\t\treturn 0, fmt.Errorf("%d overflows uint", i)\n\t}\n';
const GO_OPTIONS = (guard: string): string => `package cmp\n\nfunc Exporter(f func(string) bool) func(string) bool {\n${guard}\treturn f\n}\n`;
const GO_GUARD = '\tif !supportExporters {\n\t\tpanic("not supported on purego builds")\n\t}\n';
const GO_PUREGO = "//go:build purego\n\npackage cmp\n\nconst supportExporters = false\n";
const GO_UNSAFE = "//go:build !purego\n\npackage cmp\n\nconst supportExporters = true\n";

const lookAlikes: RuleCase[] = [
  {
    name: "javascript: a loop guard's condition moved into .filter(), the loop throws",
    changes: [
      change(
        "src/keys.js",
        JS_LOOP,
        "export function reject(map, allowed) {\n  for (const key of Object.keys(map).filter((k) => !allowed.includes(k))) {\n    throw new Error(`unsupported ${key}`);\n  }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "csharp: a loop guard's condition moved into .Where(), the foreach throws",
    changes: [
      change(
        "src/Keys.cs",
        'public static class Keys {\n    public static void Reject(string[] keys) {\n        foreach (var key in keys) {\n            if (key.Length > 3) throw new System.ArgumentException($"long {key}");\n        }\n    }\n}\n',
        'public static class Keys {\n    public static void Reject(string[] keys) {\n        foreach (var key in keys.Where(k => k.Length > 3)) throw new System.ArgumentException($"long {key}");\n    }\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "python: a loop guard's condition moved into a filtering generator",
    changes: [
      change(
        "pkg/keys.py",
        'def reject(keys, allowed):\n    for key in keys:\n        if key not in allowed:\n            raise ValueError(f"unsupported {key}")\n',
        'def reject(keys, allowed):\n    for key in (k for k in keys if k not in allowed):\n        raise ValueError(f"unsupported {key}")\n',
      ),
    ],
    findings: [],
  },
  {
    name: "javascript: a guard's body extracted into a helper that ends in the same throw",
    changes: [change("src/encode.js", JS_ENCODE, JS_ENCODE_HELPER("throw new Error(`Cannot encode ${tag}`);"))],
    findings: [],
  },
  {
    name: "javascript: `if (!ok) throw; return v` inverted to `if (ok) return v; throw`",
    changes: [
      change(
        "src/pick.js",
        "export function pick(map, key) {\n  if (!(key in map)) {\n    throw new RangeError(`no ${key}`);\n  }\n  return map[key];\n}\n",
        "export function pick(map, key) {\n  if (key in map) {\n    return map[key];\n  }\n  throw new RangeError(`no ${key}`);\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "rust: an if/else-if comparison chain rewritten as a match on cmp",
    changes: [
      change(
        "src/lib.rs",
        RUST_CHAIN,
        'use std::cmp::Ordering;\n\npub fn star(count: usize) -> Result<u8, String> {\n    match count.cmp(&2) {\n        Ordering::Greater => return Err(String::from("too many stars")),\n        Ordering::Equal => Ok(2),\n        Ordering::Less => Ok(1),\n    }\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "go: an if/else-if chain rewritten as a tagless switch",
    changes: [
      change(
        "stars/star.go",
        'package stars\n\nimport "errors"\n\nfunc Star(count int) (int, error) {\n\tif count > 2 {\n\t\treturn 0, errors.New("too many stars")\n\t} else if count == 2 {\n\t\treturn 2, nil\n\t}\n\treturn 1, nil\n}\n',
        'package stars\n\nimport "errors"\n\nfunc Star(count int) (int, error) {\n\tswitch {\n\tcase count > 2:\n\t\treturn 0, errors.New("too many stars")\n\tcase count == 2:\n\t\treturn 2, nil\n\t}\n\treturn 1, nil\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "go: a sign check goes when the parse becomes strconv.ParseUint with its error checked",
    changes: [change("decode/uint.go", GO_UINT(GO_SIGNED, GO_SIGN_GUARD), GO_UINT(GO_UNSIGNED, ""))],
    findings: [],
  },
  {
    name: "java: `port < 0 ||` goes from a range check when the parse becomes Integer.parseUnsignedInt",
    changes: [
      change(
        "src/main/java/Ports.java",
        'final class Ports {\n  static int parse(String s) {\n    int port = Integer.parseInt(s);\n    if (port < 0 || port > 65535) throw new IllegalArgumentException("port " + s);\n    return port;\n  }\n}\n',
        'final class Ports {\n  static int parse(String s) {\n    int port = Integer.parseUnsignedInt(s);\n    if (port > 65535) throw new IllegalArgumentException("port " + s);\n    return port;\n  }\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "go: the purego variant's file deleted, and the guard on the constant it set to false",
    changes: [change("cmp/export_panic.go", GO_PUREGO, null), change("cmp/export_unsafe.go", GO_UNSAFE, null), change("cmp/options.go", GO_OPTIONS(GO_GUARD), GO_OPTIONS(""))],
    findings: [],
  },
  {
    name: "rust: the #[cfg(not(feature))] const dropped with its guard, the feature now always on",
    changes: [
      change(
        "src/lib.rs",
        '#[cfg(feature = "x")]\nconst HAS_X: bool = true;\n#[cfg(not(feature = "x"))]\nconst HAS_X: bool = false;\n\npub fn x(n: u8) -> Result<u8, String> {\n    if !HAS_X {\n        return Err(String::from("no x"));\n    }\n    Ok(n + 1)\n}\n',
        "const HAS_X: bool = true;\n\npub fn x(n: u8) -> Result<u8, String> {\n    Ok(n + 1)\n}\n",
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "javascript: the condition moved into .filter(), but the loop only warns",
    changes: [
      change(
        "src/keys.js",
        JS_LOOP,
        "export function reject(map, allowed) {\n  for (const key of Object.keys(map).filter((k) => !allowed.includes(k))) {\n    console.warn(`unsupported ${key}`);\n  }\n}\n",
      ),
    ],
    findings: ["validation_bypass/high src/keys.js"],
  },
  {
    name: "javascript: the guard's body moved into a helper that ends in a placeholder",
    changes: [change("src/encode.js", JS_ENCODE, JS_ENCODE_HELPER("return `<${tag}>`;"))],
    findings: ["validation_bypass/high src/encode.js"],
  },
  {
    name: "javascript: the helper ends in a throw of the same class with another message",
    changes: [change("src/encode.js", JS_ENCODE, JS_ENCODE_HELPER('throw new Error("unreachable");'))],
    findings: ["validation_bypass/high src/encode.js"],
  },
  {
    name: "rust: the chain becomes a match on cmp, but Greater joins Equal",
    changes: [
      change(
        "src/lib.rs",
        RUST_CHAIN,
        "use std::cmp::Ordering;\n\npub fn star(count: usize) -> Result<u8, String> {\n    match count.cmp(&2) {\n        Ordering::Less => Ok(1),\n        _ => Ok(2),\n    }\n}\n",
      ),
    ],
    findings: ["validation_bypass/high src/lib.rs"],
  },
  {
    name: "go: the sign check removed while the parse stays signed",
    changes: [change("decode/uint.go", GO_UINT(GO_SIGNED, GO_SIGN_GUARD), GO_UINT(GO_SIGNED, ""))],
    findings: ["validation_bypass/high decode/uint.go"],
  },
  {
    name: "go: the parse made unsigned, its error dropped with `_`",
    changes: [change("decode/uint.go", GO_UINT(GO_SIGNED, GO_SIGN_GUARD), GO_UINT("\ti, _ := strconv.ParseUint(string(n), 0, 64)\n", ""))],
    // The sign check and the error check removed.
    findings: ["validation_bypass/high decode/uint.go", "validation_bypass/high decode/uint.go"],
  },
  {
    name: "go: the guard removed while the purego variant stays",
    changes: [change("cmp/options.go", GO_OPTIONS(GO_GUARD), GO_OPTIONS(""))],
    findings: ["validation_bypass/high cmp/options.go"],
  },
  {
    name: "go: the purego constant flipped to true and the guard removed",
    changes: [change("cmp/export_panic.go", GO_PUREGO, GO_PUREGO.replace("false", "true")), change("cmp/options.go", GO_OPTIONS(GO_GUARD), GO_OPTIONS(""))],
    findings: ["validation_bypass/high cmp/options.go"],
  },
  {
    // Only changed files are read: the other variant is edited here; left unchanged, it would not be seen.
    name: "go: one of two variant files deleted, the guard removed, the other (edited) still sets false",
    changes: [
      change("cmp/export_panic.go", GO_PUREGO, null),
      change("cmp/export_appengine.go", GO_PUREGO.replace("purego", "appengine"), `// Variant for App Engine.\n${GO_PUREGO.replace("purego", "appengine")}`),
      change("cmp/options.go", GO_OPTIONS(GO_GUARD), GO_OPTIONS("")),
    ],
    findings: ["validation_bypass/high cmp/options.go"],
  },
];

describe("guards kept in another shape, or whose reason went with the change", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("the nearest cheats of those shapes still fire", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("facts behind them", () => {
  it("a function's last statement that throws is a fall-through guard; a switch case that throws is a guard on the matched value", async () => {
    const facts = await extractFacts("src/a.js", 'export function f(kind) {\n  switch (kind) {\n    case "old":\n      throw new Error("old");\n  }\n  throw new TypeError(`bad ${kind}`);\n}\n');
    expect(facts.code?.guards?.map((guard) => [guard.condition, guard.action, guard.fallthrough ?? false])).toEqual([
      ["", "new TypeError(`bad ${kind}`)", true],
      ['kind is "old"', 'new Error("old")', false],
    ]);
  });

  it("go: boolean consts are constants, strconv.ParseUint with its error kept binds an unsigned value", async () => {
    const facts = await extractFacts(
      "p/a.go",
      "package p\n\nconst a, b = false, 3\n\nfunc F(s string) uint64 {\n\tv, err := strconv.ParseUint(s, 10, 64)\n\tw, _ := strconv.ParseUint(s, 10, 64)\n\t_ = err\n\treturn v + w\n}\n",
    );
    expect(facts.code?.constants).toEqual([{ name: "a", value: "false", line: 3 }]);
    expect(facts.code?.functions?.[0]?.unsignedValues).toEqual(["v"]);
  });

  it("rust: `?` on a u64 parse binds an unsigned value; unwrap_or does not", async () => {
    const facts = await extractFacts(
      "src/lib.rs",
      "pub fn f(s: &str) -> Result<u64, E> {\n    let a: u64 = s.parse()?;\n    let b = s.parse::<u32>().map_err(E::from)?;\n    let c: u64 = s.parse().unwrap_or(0);\n    Ok(a + b as u64 + c)\n}\n",
    );
    expect(facts.code?.functions?.[0]?.unsignedValues).toEqual(["a", "b"]);
  });
});

/**
 * A guard's throw moved into the helper that now ends in it, its message
 * reworded as the helper accepts more (the sweep of nsubstitute 14c88b56ce:
 * "Expected to get array argument" -> "Expected to get collection argument"):
 * the same class and three quarters of the message's words keep the guard.
 * A helper ending in the same class with another message, or in no throw, keeps nothing.
 */
const JS_WORDY = (message: string): string => JS_ENCODE.replace("throw new Error(`Cannot encode ${tag}`);", `throw new Error(\`${message}\`);`);
const PY_ENCODE =
  'class E:\n    def encode(self, o):\n        tag = type(o).__name__\n        if not isinstance(o, dict):\n            h = getattr(self, "_" + tag, None)\n            if h:\n                return h(o)\n            raise TypeError(f"cannot encode values of type {tag}")\n        return "{}"\n';
const PY_ENCODE_HELPER = (end: string): string =>
  `class E:\n    def encode(self, o):\n        if not isinstance(o, dict):\n            return self.built_in(type(o).__name__, o)\n        return "{}"\n\n    def built_in(self, tag, o):\n        h = getattr(self, "_" + tag, None)\n        if h:\n            return h(o)\n        ${end}\n`;

const reworded: RuleCase[] = [
  {
    name: "javascript: the helper ends in the same throw, its message reworded",
    changes: [change("src/encode.js", JS_WORDY("Cannot encode values of type ${tag}"), JS_ENCODE_HELPER("throw new Error(`Cannot encode a value of type ${tag}`);"))],
    findings: [],
  },
  {
    name: "python: the helper ends in the same raise, its message reworded",
    changes: [change("pkg/encode.py", PY_ENCODE, PY_ENCODE_HELPER('raise TypeError(f"cannot encode a value of type {tag}")'))],
    findings: [],
  },
];

const rewordedCheats: RuleCase[] = [
  {
    name: "javascript: the helper ends in the same class with a message sharing too little",
    changes: [change("src/encode.js", JS_WORDY("Cannot encode values of type ${tag}"), JS_ENCODE_HELPER("throw new Error(`Unsupported input ${tag}`);"))],
    findings: ["validation_bypass/high src/encode.js"],
  },
  {
    name: "python: the helper ends in another class with the same message",
    changes: [change("pkg/encode.py", PY_ENCODE, PY_ENCODE_HELPER('raise ValueError(f"cannot encode a value of type {tag}")'))],
    findings: ["validation_bypass/high pkg/encode.py"],
  },
  {
    name: "python: the helper ends in a placeholder",
    changes: [change("pkg/encode.py", PY_ENCODE, PY_ENCODE_HELPER('return "<" + tag + ">"'))],
    findings: ["validation_bypass/high pkg/encode.py"],
  },
];

describe("a guard's throw moved into a helper with its message reworded (look-alikes)", () => {
  it.each(reworded.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a helper ending in another throw or none (cheats)", () => {
  it.each(rewordedCheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
