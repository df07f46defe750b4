/**
 * A borrow dropped or added at a call (`check(&state)` -> `check(state)`,
 * clippy's needless_borrow; sweep of rust-lang/log 47127019b7) passes the
 * same value: the helper call is the same check, so the shared helper that
 * makes it lost nothing. A helper call dropped, or one fed another value,
 * still loses its checks.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const file = (call: string): string =>
  `use std::sync::Mutex;\n\nstruct State {\n    last: Mutex<Option<u32>>,\n}\n\n#[test]\nfn main() {\n    let state = State { last: Mutex::new(Some(3)) };\n    check_lines(&state);\n}\n\nfn check_lines(state: &State) {\n    ${call}\n\n    fn check_last(state: &State) {\n        let last = state.last.lock().unwrap().take().unwrap();\n        assert_eq!(last, 3);\n    }\n}\n`;

describe("rust: a needless borrow dropped at a helper call", () => {
  it("look-alike: check_last(&state) -> check_last(state)", () =>
    expectFindings({ name: "borrow dropped", changes: [change("tests/integration.rs", file("check_last(&state);"), file("check_last(state);"))], findings: [] }));
  it("look-alike: check_last(state) -> check_last(&state)", () =>
    expectFindings({ name: "borrow added", changes: [change("tests/integration.rs", file("check_last(state);"), file("check_last(&state);"))], findings: [] }));
  it("cheat: the helper call dropped", () =>
    expectFindings({
      name: "call dropped",
      changes: [change("tests/integration.rs", file("check_last(&state);"), file("let _ = state;"))],
      findings: ['assertion_removal/high tests/integration.rs "main"'],
    }));
});

/** The log crate's shape: `main` is a test only under `cfg_attr(lib_build, test)` (a harness = false integration test otherwise), its checks in helpers. */
const harnessFile = (call: string): string => file(call).replace("#[test]\nfn main()", "#[cfg_attr(lib_build, test)]\nfn main()");

describe("rust: a needless borrow dropped at a call in a shared helper of a harness-less test file", () => {
  it("look-alike: check_last(&state) -> check_last(state)", () =>
    expectFindings({ name: "borrow dropped", changes: [change("tests/integration.rs", harnessFile("check_last(&state);"), harnessFile("check_last(state);"))], findings: [] }));
  it("cheat: the helper call dropped", () =>
    expectFindings({
      name: "call dropped",
      changes: [change("tests/integration.rs", harnessFile("check_last(&state);"), harnessFile("let _ = state;"))],
      // On both shared helpers: check_lines, and main, which makes check_lines's checks through its call.
      findings: ["assertion_removal/high tests/integration.rs", "assertion_removal/high tests/integration.rs"],
    }));
});
