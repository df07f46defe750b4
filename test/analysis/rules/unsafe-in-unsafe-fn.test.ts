/**
 * An `unsafe { … }` block inside an `unsafe fn` adds no unsafety: the body of
 * an `unsafe fn` already was an unsafe context, and Rust 2024's
 * `unsafe_op_in_unsafe_fn` lint asks for the block (sweep of
 * rust-lang/hashbrown 6efda58a, "MSRV 1.85, Edition 2024": 110 medium
 * validation_bypass findings, one per wrapped body). An `unsafe` block added
 * in a safe function is still one.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const BEFORE =
  "pub struct Group(u64);\n\nimpl Group {\n    pub unsafe fn load(ptr: *const u64) -> Self {\n        Group(core::ptr::read_unaligned(ptr))\n    }\n\n    pub fn first(v: &[u64]) -> Self {\n        Group(v[0])\n    }\n}\n";

describe("unsafe blocks in unsafe functions", () => {
  it("an unsafe fn's body wrapped in unsafe { } (edition 2024): nothing", async () => {
    const after = BEFORE.replace("        Group(core::ptr::read_unaligned(ptr))\n", "        unsafe { Group(core::ptr::read_unaligned(ptr)) }\n");
    await expectFindings({ name: "wrapped", changes: [change("src/group.rs", BEFORE, after)], findings: [] });
  });

  it("an unsafe block added in a safe fn: medium, as before", async () => {
    const after = BEFORE.replace("        Group(v[0])\n", "        unsafe { Group(*v.get_unchecked(0)) }\n");
    await expectFindings({ name: "safe fn", changes: [change("src/group.rs", BEFORE, after)], findings: ["validation_bypass/medium src/group.rs"] });
  });

  it("an unsafe block in a closure inside an unsafe fn is still inside it: nothing", async () => {
    const after = BEFORE.replace("        Group(core::ptr::read_unaligned(ptr))\n", "        let f = || unsafe { core::ptr::read_unaligned(ptr) };\n        Group(f())\n");
    await expectFindings({ name: "closure", changes: [change("src/group.rs", BEFORE, after)], findings: [] });
  });
});
