/**
 * Sweep of tokio-rs/bytes 0e9e4fc2f1 (`buf_tests!`): one #[test] per method
 * rewritten as a `macro_rules!` suite whose body defines #[test] fns of fixed
 * names, invoked in a module per type. The suite's tests, and their checks
 * with the macro's metavariables bound to each invocation's arguments, are
 * the moved tests' (rust-suites.ts); a per-type test that became the module
 * of its own name pairs with the test of that module that checks the same
 * methods (compare.ts pass 7b). A suite that no longer makes a check, or a
 * module of that name that checks other code, is still caught.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, edit, summarize } from "./table.js";

const PATH = "tests/reader.rs";

const BEFORE = `use rdr::Reader;

#[test]
fn test_get_u8() {
    let mut buf = &b"\\x21zomg"[..];
    assert_eq!(0x21, buf.get_u8());
}

#[test]
fn test_get_u16() {
    let mut buf = &b"\\x21\\x54zomg"[..];
    assert_eq!(0x2154, buf.get_u16());
    let mut buf = &b"\\x21\\x54zomg"[..];
    assert_eq!(0x5421, buf.get_u16_le());
}

#[test]
#[should_panic]
fn test_get_u16_buffer_underflow() {
    let mut buf = &b"\\x21"[..];
    buf.get_u16();
}

#[test]
fn test_vec_deque() {
    let mut buffer: std::collections::VecDeque<u8> = std::collections::VecDeque::new();
    buffer.extend(b"hello");
    assert_eq!(5, buffer.remaining());
    assert_eq!(b'h', buffer.get_u8());
}
`;

const AFTER = `use rdr::Reader;

const INPUT: &[u8] = b"\\x21\\x54zomg";

macro_rules! reader_tests {
    ($make_input:ident) => {
        use super::*;

        #[test]
        fn get_u8() {
            let mut buf = $make_input(INPUT);
            assert_eq!(0x21, buf.get_u8());
            assert_eq!(buf.remaining(), 5);
        }

        #[test]
        fn get_u16() {
            let mut buf = $make_input(INPUT);
            assert_eq!(0x2154, buf.get_u16());
            let mut buf = $make_input(INPUT);
            assert_eq!(0x5421, buf.get_u16_le());
        }

        #[test]
        #[should_panic]
        fn get_u16_underflow() {
            let mut buf = $make_input(&INPUT[..1]);
            buf.get_u16();
        }
    };
}

mod u8_slice {
    fn make_input(buf: &'static [u8]) -> &'static [u8] {
        buf
    }

    reader_tests!(make_input);
}

mod vec_deque {
    use std::collections::VecDeque;

    fn make_input(buf: &'static [u8]) -> VecDeque<u8> {
        buf.iter().copied().collect()
    }

    reader_tests!(make_input);
}
`;

async function findings(after: string): Promise<{ verdict: string; found: string[] }> {
  const analysis = await analyzeChanges([change(PATH, BEFORE, after)]);
  return { verdict: analysis.verdict, found: analysis.findings.map(summarize).sort() };
}

describe("tests swept into a macro_rules! suite", () => {
  it("every check made again by the suite's tests, per type: nothing blocks", async () => {
    const { verdict, found } = await findings(AFTER);
    expect(found.filter((line) => /critical|high/.test(line))).toEqual([]);
    expect(verdict).not.toBe("BLOCK");
  });

  it("the per-type test became its module: judged as an edit (its input and expectation changed), not a deletion", async () => {
    const { found } = await findings(AFTER);
    expect(found).toContain(`expectation_changed/medium ${PATH} "vec_deque > get_u8"`);
  });

  it("CHEAT: the suite's get_u16 no longer checks the little-endian read: assertion_removal", async () => {
    const { verdict, found } = await findings(edit(AFTER, "            assert_eq!(0x5421, buf.get_u16_le());\n", ""));
    expect(found).toContainEqual(expect.stringMatching(/^assertion_removal\/high tests\/reader\.rs/));
    expect(verdict).toBe("BLOCK");
  });

  it("CHEAT: the suite's assertion made a tautology: the moved check is made nowhere", async () => {
    const { verdict } = await findings(edit(AFTER, "assert_eq!(0x21, buf.get_u8());", "assert_eq!(buf.get_u8(), buf.get_u8());"));
    expect(verdict).toBe("BLOCK");
  });

  it("CHEAT: the module named for the per-type test checks other code: the test is deleted", async () => {
    const otherCode = edit(
      AFTER,
      "        buf.iter().copied().collect()\n    }\n\n    reader_tests!(make_input);\n",
      "        buf.iter().copied().collect()\n    }\n\n    #[test]\n    fn builds() {\n        assert_eq!(make_input(INPUT).len(), 6);\n    }\n",
    );
    const { verdict, found } = await findings(otherCode);
    expect(found).toContain(`test_deletion/critical ${PATH} "test_vec_deque"`);
    expect(verdict).toBe("BLOCK");
  });

  it("CHEAT: the suite is defined but never invoked: its tests do not run", async () => {
    const { verdict, found } = await findings(AFTER.replaceAll("    reader_tests!(make_input);\n", ""));
    expect(found).toContainEqual(expect.stringMatching(/^test_deletion\/critical tests\/reader\.rs "test_get_u16"/));
    expect(verdict).toBe("BLOCK");
  });
});
