/**
 * A handler that moves on to the next attempt is not a swallowed error: a
 * fallback chain (a handler that tries the next candidate in a nested try)
 * rewritten as a loop over the candidates, whose try leaves the loop on
 * success and whose empty handler lets the loop try the next one. Found by
 * ralph's own check of its hook code (findWorkTree). A handler in a loop
 * whose try does not leave it on success still swallows each failure.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";

interface Case {
  lang: string;
  path: string;
  before: string;
  after: string;
}

const fallbackRewrittenAsLoop: Case[] = [
  {
    lang: "typescript",
    path: "src/root.ts",
    before: `export function findRoot(cwd: string, fallback: string): string | null {
  try {
    return open(cwd);
  } catch {
    try {
      return open(fallback);
    } catch {
      return null;
    }
  }
}
`,
    after: `export function findRoot(cwd: string, fallback: string): string | null {
  for (const dir of [cwd, fallback]) {
    try {
      return open(dir);
    } catch {
      /* the next candidate */
    }
  }
  return null;
}
`,
  },
  {
    lang: "python",
    path: "pkg/root.py",
    before: `def find_root(cwd, fallback):
    try:
        return open_repo(cwd)
    except RepoError:
        try:
            return open_repo(fallback)
        except RepoError:
            return None
`,
    after: `def find_root(cwd, fallback):
    for d in (cwd, fallback):
        try:
            return open_repo(d)
        except RepoError:
            pass
    return None
`,
  },
  {
    lang: "java",
    path: "src/main/java/com/example/Finder.java",
    before: `package com.example;

public class Finder {
  public static Repo find(String cwd, String fallback) {
    try {
      return Repo.open(cwd);
    } catch (RepoException e) {
      try {
        return Repo.open(fallback);
      } catch (RepoException e2) {
        return null;
      }
    }
  }
}
`,
    after: `package com.example;

public class Finder {
  public static Repo find(String cwd, String fallback) {
    for (String dir : new String[] {cwd, fallback}) {
      try {
        return Repo.open(dir);
      } catch (RepoException e) {
      }
    }
    return null;
  }
}
`,
  },
  {
    lang: "csharp",
    path: "src/Finder.cs",
    before: `public static class Finder {
  public static Repo Find(string cwd, string fallback) {
    try {
      return Repo.Open(cwd);
    } catch (RepoException) {
      try {
        return Repo.Open(fallback);
      } catch (RepoException) {
        return null;
      }
    }
  }
}
`,
    after: `public static class Finder {
  public static Repo Find(string cwd, string fallback) {
    foreach (var dir in new[] { cwd, fallback }) {
      try {
        return Repo.Open(dir);
      } catch (RepoException) {
      }
    }
    return null;
  }
}
`,
  },
  {
    lang: "php",
    path: "src/Finder.php",
    before: `<?php
class Finder {
    public static function find(string $cwd, string $fallback): ?Repo {
        try {
            return Repo::open($cwd);
        } catch (RepoException $e) {
            try {
                return Repo::open($fallback);
            } catch (RepoException $e2) {
                return null;
            }
        }
    }
}
`,
    after: `<?php
class Finder {
    public static function find(string $cwd, string $fallback): ?Repo {
        foreach ([$cwd, $fallback] as $dir) {
            try {
                return Repo::open($dir);
            } catch (RepoException $e) {
            }
        }
        return null;
    }
}
`,
  },
];

const swallowedInLoop: Case[] = [
  {
    lang: "java",
    path: "src/main/java/com/example/Saver.java",
    before: `package com.example;

public class Saver {
  public static void saveAll(java.util.List<String> items) {
    for (String item : items) {
      try {
        Store.save(item);
      } catch (java.io.IOException e) {
        throw new SaveException(item, e);
      }
    }
  }
}
`,
    after: `package com.example;

public class Saver {
  public static void saveAll(java.util.List<String> items) {
    for (String item : items) {
      try {
        Store.save(item);
      } catch (java.io.IOException e) {
      }
    }
  }
}
`,
  },
  {
    lang: "typescript",
    path: "src/save.ts",
    before: `export function saveAll(items: string[]): void {
  for (const item of items) {
    try {
      save(item);
    } catch (error) {
      throw new SaveError(item, { cause: error });
    }
  }
}
`,
    after: `export function saveAll(items: string[]): void {
  for (const item of items) {
    try {
      save(item);
    } catch (error) {}
  }
}
`,
  },
  {
    lang: "python",
    path: "pkg/save.py",
    before: `def save_all(items):
    for item in items:
        try:
            save(item)
        except OSError as error:
            raise SaveError(item) from error
`,
    after: `def save_all(items):
    for item in items:
        try:
            save(item)
        except OSError as error:
            pass
`,
  },
];

async function blocking(testCase: Case): Promise<string[]> {
  const analysis = await analyzeChanges([{ path: testCase.path, before: testCase.before, after: testCase.after }]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => `${finding.type}: ${finding.message}`);
}

describe("a fallback chain rewritten as a loop over candidates", () => {
  it.each(fallbackRewrittenAsLoop.map((testCase) => [testCase.lang, testCase] as const))("%s: is no finding", async (_, testCase) => {
    expect(await blocking(testCase)).toEqual([]);
  });
});

describe("a handler in a loop whose try does not leave it on success", () => {
  it.each(swallowedInLoop.map((testCase) => [testCase.lang, testCase] as const))("%s: still swallows each failure", async (_, testCase) => {
    const findings = await blocking(testCase);
    expect(findings.some((finding) => finding.startsWith("validation_bypass"))).toBe(true);
  });
});

// A handler's fallback moved after the try: the try returns on success and an empty handler falls through to the code
// after the try, which handles the failure (found sweeping: a number parser's float fallback narrowed, JS and Python).
// When all that follows is a constant return, the handler returns that constant; when nothing follows, it swallows.
const fallbackMovedAfterTry: Case[] = [
  {
    lang: "javascript",
    path: "src/parse.js",
    before: "export function parse(raw) {\n  try {\n    return BigInt(raw);\n  } catch (error) {\n    const value = Number(raw);\n    return Number.isNaN(value) ? null : value;\n  }\n}\n",
    after:
      "export function parse(raw) {\n  try {\n    return BigInt(raw);\n  } catch {\n    // not an integer\n  }\n  if (/[.eE]/.test(raw)) {\n    const value = Number(raw);\n    return Number.isNaN(value) ? null : value;\n  }\n  return null;\n}\n",
  },
  {
    lang: "python",
    path: "pkg/parse.py",
    before: "def parse(raw):\n    try:\n        return int(raw, 10)\n    except ValueError:\n        try:\n            return float(raw)\n        except ValueError:\n            return None\n",
    after:
      "def parse(raw):\n    try:\n        return int(raw, 10)\n    except ValueError:\n        pass\n\n    if '.' in raw or 'e' in raw:\n        try:\n            return float(raw)\n        except ValueError:\n            return None\n\n    return None\n",
  },
  {
    lang: "java",
    path: "src/main/java/p/Parse.java",
    before: "class Parse {\n  static Number parse(String raw) {\n    try {\n      return Long.parseLong(raw);\n    } catch (NumberFormatException e) {\n      return fallback(raw);\n    }\n  }\n}\n",
    after:
      'class Parse {\n  static Number parse(String raw) {\n    try {\n      return Long.parseLong(raw);\n    } catch (NumberFormatException e) {\n    }\n    if (raw.contains(".")) {\n      return fallback(raw);\n    }\n    return null;\n  }\n}\n',
  },
  {
    lang: "csharp",
    path: "src/P/Parse.cs",
    before: "class Parse {\n  static object Run(string raw) {\n    try {\n      return long.Parse(raw);\n    } catch (FormatException) {\n      return Fallback(raw);\n    }\n  }\n}\n",
    after:
      'class Parse {\n  static object Run(string raw) {\n    try {\n      return long.Parse(raw);\n    } catch (FormatException) {\n    }\n    if (raw.Contains(".")) {\n      return Fallback(raw);\n    }\n    return null;\n  }\n}\n',
  },
];

const emptyHandlerAfterReturningTry: Case[] = [
  // A new catch-all wrapped around a guard, falling through to a default (fixtures/cheats java/php-catch-throwable-swallowed).
  {
    lang: "java: a new catch-all around a guard, a default after it",
    path: "src/main/java/p/HostPort.java",
    before:
      "class HostPort {\n  static HostPort parse(String text) {\n    int colon = text.lastIndexOf(':');\n    if (colon < 1) {\n      throw new IllegalArgumentException(\"missing port\");\n    }\n    return new HostPort(text, colon);\n  }\n}\n",
    after:
      "class HostPort {\n  static HostPort parse(String text) {\n    try {\n      int colon = text.lastIndexOf(':');\n      if (colon < 1) {\n        throw new IllegalArgumentException(\"missing port\");\n      }\n      return new HostPort(text, colon);\n    } catch (Throwable t) {\n    }\n    log(text);\n    return new HostPort(text, 80);\n  }\n}\n",
  },
  {
    lang: "typescript: a new catch around a guard, a default after it",
    path: "src/port.ts",
    before: 'export function parse(text: string): number {\n  const port = Number(text);\n  if (Number.isNaN(port)) throw new RangeError("bad port");\n  return port;\n}\n',
    after:
      'export function parse(text: string): number {\n  try {\n    const port = Number(text);\n    if (Number.isNaN(port)) throw new RangeError("bad port");\n    return port;\n  } catch {}\n  note(text);\n  return fallbackPort(text);\n}\n',
  },
  {
    lang: "javascript: nothing after the try",
    path: "src/parse.js",
    before: "export function parse(raw) {\n  try {\n    return BigInt(raw);\n  } catch (error) {\n    return Number(raw);\n  }\n}\n",
    after: "export function parse(raw) {\n  try {\n    return BigInt(raw);\n  } catch {}\n}\n",
  },
  {
    lang: "python: only a bare return after the try",
    path: "pkg/parse.py",
    before: "def parse(raw):\n    try:\n        return int(raw)\n    except ValueError:\n        return float(raw)\n",
    after: "def parse(raw):\n    try:\n        return int(raw)\n    except ValueError:\n        pass\n    return\n",
  },
];

describe("a handler's fallback moved after a try that returns on success", () => {
  it.each(fallbackMovedAfterTry.map((testCase) => [testCase.lang, testCase] as const))("%s: is no finding", async (_, testCase) => {
    expect(await blocking(testCase)).toEqual([]);
  });
});

describe("an empty handler after a returning try with no fallback after it", () => {
  it.each(emptyHandlerAfterReturningTry.map((testCase) => [testCase.lang, testCase] as const))("%s: still swallows", async (_, testCase) => {
    const findings = await blocking(testCase);
    expect(findings.some((finding) => finding.startsWith("validation_bypass"))).toBe(true);
  });
});
