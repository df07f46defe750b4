/**
 * An alternative of a guard's condition moved into a function it calls
 * (issue 9, from the sweep of ai/nanoid a6a94d3f8d): `if (size < 0 || size >
 * 512) throw new RangeError(m)` in `token` becoming `if (size < 0) throw …`
 * there and `if (bytes > 512) throw new RangeError(m)` in the `fillPool` it
 * calls. The callee, in the change, throws the same error (class and
 * message) on the same bound, so the values the dropped alternative refused
 * are still refused. The nearest cheats still fire: the alternative dropped
 * with no callee taking it over, a callee throwing another message, a
 * callee bound that lets more values through.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface Spelling {
  lang: string;
  path: string;
  /** The product file, with CALLEE_GUARD in the callee and GUARD in the caller. */
  template: string;
  /** The caller's guard before, and after with the upper alternative dropped. */
  both: string;
  lower: string;
  /** The callee's guard after: the same throw on the same bound; a narrower bound; another message. */
  same: string;
  narrower: string;
  otherMessage: string;
}

const SPELLINGS: Spelling[] = [
  {
    lang: "js",
    path: "src/token.js",
    template:
      "function fillPool(bytes) {\n  CALLEE_GUARD\n  if (!pool || pool.length < bytes) {\n    pool = Buffer.allocUnsafe(bytes * 128)\n  }\n}\n\nexport function token(size = 21) {\n  GUARD\n  fillPool(size)\n  return pool.slice(0, size)\n}\n",
    both: "if (size < 0 || size > 512) throw new RangeError('Wrong token size')",
    lower: "if (size < 0) throw new RangeError('Wrong token size')",
    same: "if (bytes > 512) throw new RangeError('Wrong token size')",
    narrower: "if (bytes > 1024) throw new RangeError('Wrong token size')",
    otherMessage: "if (bytes > 512) throw new RangeError('Pool too large')",
  },
  {
    lang: "python",
    path: "pkg/token.py",
    template: "def fill_pool(size):\n    CALLEE_GUARD\n    return bytearray(size * 128)\n\n\ndef token(size=21):\n    GUARD\n    pool = fill_pool(size)\n    return pool[:size]\n",
    both: 'if size < 0 or size > 512:\n        raise ValueError("wrong token size")',
    lower: 'if size < 0:\n        raise ValueError("wrong token size")',
    same: 'if size > 512:\n        raise ValueError("wrong token size")',
    narrower: 'if size > 1024:\n        raise ValueError("wrong token size")',
    otherMessage: 'if size > 512:\n        raise ValueError("pool too large")',
  },
  {
    lang: "go",
    path: "token/token.go",
    template:
      'package token\n\nimport "errors"\n\nfunc fillPool(n int) ([]byte, error) {\n\tCALLEE_GUARD\n\treturn make([]byte, n*128), nil\n}\n\nfunc Token(size int) ([]byte, error) {\n\tGUARD\n\tpool, err := fillPool(size)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn pool[:size], nil\n}\n',
    both: 'if size < 0 || size > 512 {\n\t\treturn nil, errors.New("wrong token size")\n\t}',
    lower: 'if size < 0 {\n\t\treturn nil, errors.New("wrong token size")\n\t}',
    same: 'if n > 512 {\n\t\treturn nil, errors.New("wrong token size")\n\t}',
    narrower: 'if n > 1024 {\n\t\treturn nil, errors.New("wrong token size")\n\t}',
    otherMessage: 'if n > 512 {\n\t\treturn nil, errors.New("pool too large")\n\t}',
  },
  {
    lang: "java",
    path: "src/main/java/token/Tokens.java",
    template:
      "class Tokens {\n    private byte[] fillPool(int bytes) {\n        CALLEE_GUARD\n        return new byte[bytes * 128];\n    }\n\n    String token(int size) {\n        GUARD\n        return new String(fillPool(size), 0, size);\n    }\n}\n",
    both: 'if (size < 0 || size > 512) {\n            throw new IllegalArgumentException("wrong token size");\n        }',
    lower: 'if (size < 0) {\n            throw new IllegalArgumentException("wrong token size");\n        }',
    same: 'if (bytes > 512) {\n            throw new IllegalArgumentException("wrong token size");\n        }',
    narrower: 'if (bytes > 1024) {\n            throw new IllegalArgumentException("wrong token size");\n        }',
    otherMessage: 'if (bytes > 512) {\n            throw new IllegalArgumentException("pool too large");\n        }',
  },
];

/** The caller's guard `before` -> `after`, the callee's guard "" -> `callee`. */
function delegated(spelling: Spelling, name: string, callee: string, findings: string[]): RuleCase {
  const fill = (guard: string, calleeGuard: string): string => spelling.template.replace("CALLEE_GUARD", calleeGuard).replace("GUARD", guard);
  return { name: `${spelling.lang}: ${name}`, changes: [change(spelling.path, fill(spelling.both, ""), fill(spelling.lower, callee))], findings };
}

describe("an alternative of a guard moved into a callee of the change (look-alikes)", () => {
  it.each(SPELLINGS.map((spelling) => [spelling.lang, delegated(spelling, "the callee throws the same error on the same bound", spelling.same, [])] as const))("%s", async (_lang, rule) => {
    await expectFindings(rule);
  });
});

describe("an alternative of a guard dropped, no callee taking it over (cheats)", () => {
  const cases = SPELLINGS.flatMap((spelling) => {
    const fired = [`validation_bypass/high ${spelling.path}`];
    return [
      delegated(spelling, "no callee guard", "", fired),
      delegated(spelling, "the callee's bound lets more values through", spelling.narrower, fired),
      delegated(spelling, "the callee throws another message", spelling.otherMessage, fired),
    ];
  });
  it.each(cases.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
