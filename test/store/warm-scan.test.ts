/** The warm process's bookkeeping of dirty sets (src/store/warm-scan.ts): what a snapshot is handed, and when. */
import { describe, expect, it } from "vitest";
import { DirtySetLedger, MAX_CARRIED_PATHS } from "../../src/store/warm-scan.js";

const paths = (list: string[], sinceMs: number) => ({ kind: "paths" as const, paths: new Set(list), sinceMs });
const full = { kind: "full" as const, reason: "first take" };

describe("DirtySetLedger", () => {
  it("hands nothing (a full scan) until a full scan was persisted after a take", () => {
    const ledger = new DirtySetLedger("/w");
    const first = ledger.add(full, 100);
    expect(first.takeDirty("/w")).toBeUndefined();
    const second = ledger.add(paths(["a.ts"], 100), 200);
    // The full scan of the first request never persisted: still owed in full.
    expect(second.takeDirty("/w")).toBeUndefined();
    second.persisted("/w", 210);
    const third = ledger.add(paths(["b.ts"], 200), 300);
    expect(third.takeDirty("/w")).toEqual({ paths: new Set(["b.ts"]), sinceMs: 200 });
  });

  it("hands the set to the request's first snapshot of the watched work tree only", () => {
    const ledger = new DirtySetLedger("/w");
    ledger.add(full, 100).persisted("/w", 110);
    const scan = ledger.add(paths(["a.ts"], 100), 200);
    expect(scan.takeDirty("/w/nested")).toBeUndefined();
    expect(scan.takeDirty("/w")).toEqual({ paths: new Set(["a.ts"]), sinceMs: 100 });
    expect(scan.takeDirty("/w")).toBeUndefined();
  });

  it("carries a set no snapshot persisted into the next request, from its first take's start", () => {
    const ledger = new DirtySetLedger("/w");
    ledger.add(full, 100).persisted("/w", 110);
    ledger.add(paths(["a.ts"], 100), 200); // a request that never snapshotted
    const scan = ledger.add(paths(["b.ts"], 200), 300);
    expect(scan.takeDirty("/w")).toEqual({ paths: new Set(["a.ts", "b.ts"]), sinceMs: 100 });
    expect(ledger.owedPaths).toBe(2);
  });

  it("keeps owing a set when the persisted scan began before the latest take", () => {
    const ledger = new DirtySetLedger("/w");
    ledger.add(full, 100).persisted("/w", 110);
    const scan = ledger.add(paths(["a.ts"], 100), 200);
    scan.persisted("/w", 150);
    scan.persisted("/other", 250);
    expect(ledger.owedPaths).toBe(1);
    scan.persisted("/w", 200);
    expect(ledger.owedPaths).toBe("none");
  });

  it("owes a full scan once the carried union grows past the limit, or a take says full", () => {
    const ledger = new DirtySetLedger("/w");
    ledger.add(full, 100).persisted("/w", 110);
    ledger.add(
      paths(
        Array.from({ length: MAX_CARRIED_PATHS }, (_, i) => `f${i}`),
        100,
      ),
      200,
    );
    expect(ledger.owedPaths).toBe(MAX_CARRIED_PATHS);
    expect(ledger.add(paths(["one-more"], 200), 300).takeDirty("/w")).toBeUndefined();
    expect(ledger.owedPaths).toBe("full");
    ledger.add(paths([], 300), 400).persisted("/w", 410);
    ledger.add(paths(["x"], 400), 500);
    expect(ledger.add(full, 600).takeDirty("/w")).toBeUndefined();
  });
});
