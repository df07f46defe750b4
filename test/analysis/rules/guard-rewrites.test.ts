/**
 * Guards rewritten in another shape keep the check (rules/validation.ts and
 * the languages' guard tables): the same condition on the same input
 * reaching an error exit is the same guard, whether written as an `if`, a
 * ternary raise, a `match` whose `None` arm returns the error, a let-else, or
 * one arm of merged match arms. A Java `assert` is no guard at all (Java
 * runs without -ea), and a Go `if err != nil` on an error the callee no
 * longer returns is dead. The same rewrites with the check really gone still fire.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const RUST_BEFORE =
  'pub fn parse(s: &str) -> Result<u32, String> {\n    if !s.starts_with("v") {\n        return Err(format!("bad version: {}", s));\n    }\n    let s = s.trim_start_matches("v");\n    s.parse().map_err(|_| String::from("nan"))\n}\n';

const lookAlikes: RuleCase[] = [
  {
    name: "go: a dead if err != nil removed after the callee stopped returning an error",
    changes: [
      change(
        "flags/s.go",
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) (string, error) {\n\treturn strings.TrimSpace(val), nil\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\tv, err := s.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\ts.values = append(s.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) string {\n\treturn strings.TrimSpace(val)\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\ts.values = append(s.values, s.parse(val))\n\treturn nil\n}\n',
      ),
    ],
    findings: [],
  },
  // Another type's method of the same name, changed in the same commit, still returns its error (sweep of spf13/pflag
  // 3d32e71abc: ipSliceValue.fromString lost its error while boolSliceValue.fromString kept one): the nearest definition decides.
  {
    name: "go: a dead if err != nil removed after the callee stopped returning an error, another type's method of that name still returning one",
    changes: [
      change(
        "flags/s.go",
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) (string, error) {\n\treturn strings.TrimSpace(val), nil\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\tv, err := s.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\ts.values = append(s.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) string {\n\treturn strings.TrimSpace(val)\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\ts.values = append(s.values, s.parse(val))\n\treturn nil\n}\n',
      ),
      change(
        "flags/d.go",
        'package flags\n\nimport "strconv"\n\ntype D struct{ values []int }\n\nfunc (d *D) parse(val string) (int, error) {\n\treturn strconv.Atoi(val)\n}\n\n// Append adds one value.\nfunc (d *D) Append(val string) error {\n\tv, err := d.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\td.values = append(d.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strconv"\n\ntype D struct{ values []int }\n\nfunc (d *D) parse(val string) (int, error) {\n\treturn strconv.Atoi(val)\n}\n\n// Append adds one parsed value.\nfunc (d *D) Append(val string) error {\n\tv, err := d.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\td.values = append(d.values, v)\n\treturn nil\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "rust: an if guard rewritten as a match whose None arm returns the error",
    changes: [
      change(
        "src/lib.rs",
        RUST_BEFORE,
        'pub fn parse(s: &str) -> Result<u32, String> {\n    let s = match s.strip_prefix("v") {\n        Some(s) => s,\n        None => return Err(format!("bad version: {}", s)),\n    };\n    s.parse().map_err(|_| String::from("nan"))\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "rust: an if guard rewritten as a let-else",
    changes: [
      change(
        "src/lib.rs",
        RUST_BEFORE,
        'pub fn parse(s: &str) -> Result<u32, String> {\n    let Some(s) = s.strip_prefix("v") else {\n        return Err(format!("bad version: {}", s));\n    };\n    s.parse().map_err(|_| String::from("nan"))\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "rust: two match arms repeating one guard merged into one arm",
    changes: [
      change(
        "src/lib.rs",
        "pub fn hex(s: &[u8]) -> Result<u64, E> {\n    let mut n = 0;\n    for b in s {\n        match b {\n            b'a'..=b'f' => {\n                if n > 15 {\n                    return Err(E::Long);\n                }\n                n += 1;\n            }\n            b'A'..=b'F' => {\n                if n > 15 {\n                    return Err(E::Long);\n                }\n                n += 1;\n            }\n            _ => return Err(E::Bad),\n        }\n    }\n    Ok(n)\n}\n",
        "pub fn hex(s: &[u8]) -> Result<u64, E> {\n    let mut n = 0;\n    for b in s {\n        match b {\n            b'a'..=b'f' | b'A'..=b'F' => {\n                if n > 15 {\n                    return Err(E::Long);\n                }\n                n += 1;\n            }\n            _ => return Err(E::Bad),\n        }\n    }\n    Ok(n)\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "ruby: raise e unless foul / raise Foul rewritten as a ternary raise",
    changes: [
      change(
        "lib/request.rb",
        "class Request\n  def self.perform(options)\n    yield\n  rescue IOError => e\n    raise e unless options[:foul]\n    raise Foul, e.message\n  end\nend\n",
        "class Request\n  def self.perform(options)\n    yield\n  rescue IOError => e\n    raise options[:foul] ? Foul.new(e.message) : e\n  end\nend\n",
      ),
    ],
    findings: [],
  },
  {
    name: "python: an if/else raise rewritten as raise A if c else B",
    changes: [
      change(
        "pkg/req.py",
        "def perform(options, err):\n    if options.get('foul'):\n        raise Foul(str(err))\n    else:\n        raise err\n",
        "def perform(options, err):\n    raise Foul(str(err)) if options.get('foul') else err\n",
      ),
    ],
    findings: [],
  },
  {
    name: "java: an assert statement removed in a refactor (no guard in production)",
    changes: [
      change(
        "src/main/java/Conv.java",
        'public final class Conv {\n  public static String convert(String root) {\n    assert root != null;\n    return "<" + root + "/>";\n  }\n}\n',
        'public final class Conv {\n  public static String convert(String root) {\n    return "<" + root + "/>";\n  }\n}\n',
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  // A plain function's call may reach any type's method: `d.parse` here is D's, which still returns its error (review of the nearest-definition reading).
  {
    name: "go: if err != nil removed in a plain function calling another type's method that still returns the error",
    changes: [
      change(
        "flags/s.go",
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) (string, error) {\n\treturn strings.TrimSpace(val), nil\n}\n\n// AddInt adds one parsed value to d.\nfunc AddInt(d *D, val string) error {\n\tv, err := d.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\td.values = append(d.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) string {\n\treturn strings.TrimSpace(val)\n}\n\n// AddInt adds one parsed value to d.\nfunc AddInt(d *D, val string) error {\n\tv, err := d.parse(val)\n\t_ = err\n\td.values = append(d.values, v)\n\treturn nil\n}\n',
      ),
      change(
        "flags/d.go",
        'package flags\n\nimport "strconv"\n\ntype D struct{ values []int }\n\nfunc (d *D) parse(val string) (int, error) {\n\treturn strconv.Atoi(val)\n}\n',
        'package flags\n\nimport "strconv"\n\ntype D struct{ values []int }\n\n// parse reads one value.\nfunc (d *D) parse(val string) (int, error) {\n\treturn strconv.Atoi(val)\n}\n',
      ),
    ],
    findings: ["validation_bypass/high flags/s.go"],
  },
  {
    name: "go: an if err != nil removed while its own type's callee still returns the error, another type's method of that name losing one",
    changes: [
      change(
        "flags/s.go",
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) (string, error) {\n\treturn strings.TrimSpace(val), nil\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\tv, err := s.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\ts.values = append(s.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) string {\n\treturn strings.TrimSpace(val)\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\ts.values = append(s.values, s.parse(val))\n\treturn nil\n}\n',
      ),
      change(
        "flags/d.go",
        'package flags\n\nimport "strconv"\n\ntype D struct{ values []int }\n\nfunc (d *D) parse(val string) (int, error) {\n\treturn strconv.Atoi(val)\n}\n\n// Append adds one value.\nfunc (d *D) Append(val string) error {\n\tv, err := d.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\td.values = append(d.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strconv"\n\ntype D struct{ values []int }\n\nfunc (d *D) parse(val string) (int, error) {\n\treturn strconv.Atoi(val)\n}\n\n// Append adds one value.\nfunc (d *D) Append(val string) error {\n\tv, _ := d.parse(val)\n\td.values = append(d.values, v)\n\treturn nil\n}\n',
      ),
    ],
    // The guard removed, and the error discarded with `_`.
    findings: ["validation_bypass/high flags/d.go", "validation_bypass/high flags/d.go"],
  },
  {
    name: "go: if err != nil removed while the callee still returns an error",
    changes: [
      change(
        "flags/s.go",
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) (string, error) {\n\treturn strings.TrimSpace(val), nil\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\tv, err := s.parse(val)\n\tif err != nil {\n\t\treturn err\n\t}\n\ts.values = append(s.values, v)\n\treturn nil\n}\n',
        'package flags\n\nimport "strings"\n\ntype S struct{ values []string }\n\nfunc (s *S) parse(val string) (string, error) {\n\treturn strings.TrimSpace(val), nil\n}\n\n// Append adds one value.\nfunc (s *S) Append(val string) error {\n\tv, _ := s.parse(val)\n\ts.values = append(s.values, v)\n\treturn nil\n}\n',
      ),
    ],
    // The guard removed, and the error discarded with `_`.
    findings: ["validation_bypass/high flags/s.go", "validation_bypass/high flags/s.go"],
  },
  {
    name: "rust: the guard removed, nothing in its place",
    changes: [change("src/lib.rs", RUST_BEFORE, 'pub fn parse(s: &str) -> Result<u32, String> {\n    let s = s.trim_start_matches("v");\n    s.parse().map_err(|_| String::from("nan"))\n}\n')],
    findings: ["validation_bypass/high src/lib.rs"],
  },
  {
    name: "rust: a match whose None arm stops returning the error",
    changes: [
      change(
        "src/lib.rs",
        'pub fn parse(s: &str) -> Result<u32, String> {\n    let s = match s.strip_prefix("v") {\n        Some(s) => s,\n        None => return Err(format!("bad version: {}", s)),\n    };\n    s.parse().map_err(|_| String::from("nan"))\n}\n',
        'pub fn parse(s: &str) -> Result<u32, String> {\n    let s = match s.strip_prefix("v") {\n        Some(s) => s,\n        None => s,\n    };\n    s.parse().map_err(|_| String::from("nan"))\n}\n',
      ),
    ],
    findings: ["validation_bypass/high src/lib.rs"],
  },
  {
    name: "rust: one of two different guards of merged arms dropped",
    changes: [
      change(
        "src/lib.rs",
        "pub fn hex(s: &[u8]) -> Result<u64, E> {\n    let mut n = 0;\n    for b in s {\n        match b {\n            b'a'..=b'f' => {\n                if n > 15 {\n                    return Err(E::Long);\n                }\n                n += 1;\n            }\n            b'A'..=b'F' => {\n                if n > 7 {\n                    return Err(E::Upper);\n                }\n                n += 1;\n            }\n            _ => return Err(E::Bad),\n        }\n    }\n    Ok(n)\n}\n",
        "pub fn hex(s: &[u8]) -> Result<u64, E> {\n    let mut n = 0;\n    for b in s {\n        match b {\n            b'a'..=b'f' | b'A'..=b'F' => {\n                if n > 15 {\n                    return Err(E::Long);\n                }\n                n += 1;\n            }\n            _ => return Err(E::Bad),\n        }\n    }\n    Ok(n)\n}\n",
      ),
    ],
    findings: ["validation_bypass/high src/lib.rs"],
  },
  {
    name: "ruby: raise e unless foul removed, the error always re-raised as Foul",
    changes: [
      change(
        "lib/request.rb",
        "class Request\n  def self.perform(options)\n    yield\n  rescue IOError => e\n    raise e unless options[:foul]\n    raise Foul, e.message\n  end\nend\n",
        "class Request\n  def self.perform(options)\n    yield\n  rescue IOError => e\n    raise Foul, e.message\n  end\nend\n",
      ),
    ],
    findings: ["validation_bypass/high lib/request.rb"],
  },
  {
    name: "java: an if/throw guard removed (a real guard, unlike assert)",
    changes: [
      change(
        "src/main/java/Conv.java",
        'public final class Conv {\n  public static String convert(String root) {\n    if (root == null) {\n      throw new IllegalArgumentException("root");\n    }\n    return "<" + root + "/>";\n  }\n}\n',
        'public final class Conv {\n  public static String convert(String root) {\n    return "<" + root + "/>";\n  }\n}\n',
      ),
    ],
    findings: ["validation_bypass/high src/main/java/Conv.java"],
  },
];

describe("guards rewritten in another shape keep the check", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("guards really removed under the same rewrites still fire", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
