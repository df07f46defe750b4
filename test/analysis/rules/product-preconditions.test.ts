/**
 * An `assert!` in product code is a precondition of the product, not a check
 * of the tests that call it: a file that holds product code and its tests
 * (Rust's `#[cfg(test)] mod tests` beside the impl) takes assertion helpers
 * only from its test scope. Sweep of rust-lang/hashbrown 9037471eb2: the
 * `assert!` of `HashSet::get_or_insert_with` moved into a callee in
 * src/map.rs, the tests in src/set.rs were byte-identical, and ralph
 * reported "2 of the 3 assertions of test duplicate_insert were removed"
 * (high). The nearest cheat, a helper of the test module that loses its
 * assertion, is still an assertion_removal.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const TESTS = `
#[cfg(test)]
mod tests {
    use super::*;

    fn check_len(set: &Set, n: usize) {
        assert_eq!(set.len(), n);
    }

    #[test]
    fn duplicate_insert() {
        let mut set = Set::new();
        set.get_or_insert_with(1);
        set.get_or_insert_with(1);
        check_len(&set, 1);
    }
}
`;

const PRODUCT_ASSERTING = `pub struct Set { items: Vec<u32> }

impl Set {
    pub fn new() -> Self { Set { items: Vec::new() } }
    pub fn len(&self) -> usize { self.items.len() }
    pub fn get_or_insert_with(&mut self, value: u32) -> u32 {
        if !self.items.contains(&value) {
            assert!(value < 1000, "value out of range");
            self.items.push(value);
        }
        value
    }
}
`;

const PRODUCT_DELEGATING = `pub struct Set { items: Vec<u32> }

impl Set {
    pub fn new() -> Self { Set { items: Vec::new() } }
    pub fn len(&self) -> usize { self.items.len() }
    pub fn get_or_insert_with(&mut self, value: u32) -> u32 {
        if !self.items.contains(&value) {
            crate::store::insert_checked(&mut self.items, value);
        }
        value
    }
}
`;

describe("rust: a product assert! moved out of a file with inline tests", () => {
  it("does not remove the tests' assertions (no finding)", async () => {
    await expectFindings({
      name: "product assert moved",
      changes: [
        change("src/set.rs", PRODUCT_ASSERTING + TESTS, PRODUCT_DELEGATING + TESTS),
        change("src/store.rs", "", 'pub fn insert_checked(items: &mut Vec<u32>, value: u32) {\n    assert!(value < 1000, "value out of range");\n    items.push(value);\n}\n'),
      ],
      findings: [],
    });
  });

  it("a helper of the test module that loses its assertion is an assertion_removal", async () => {
    const dropped = TESTS.replace("        assert_eq!(set.len(), n);\n", "        let _ = (set, n);\n");
    await expectFindings({
      name: "test helper dropped",
      changes: [change("src/set.rs", PRODUCT_ASSERTING + TESTS, PRODUCT_ASSERTING + dropped)],
      findings: ['assertion_removal/high src/set.rs "tests > duplicate_insert"'],
    });
  });
});
