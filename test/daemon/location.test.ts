/** Where a work tree's warm process listens (src/daemon/location.ts), on real temporary folders. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientSocketPath, fallbackSocketName, fallbackSocketPath, locateWorkTree } from "../../src/daemon/location.js";
import { makeRepo, makeTempDir } from "../helpers/git.js";

const LONG = "a-rather-long-folder-name-to-push-the-socket-path-over-the-limit-of-sun-path-xxxxxxxxxx";

describe("clientSocketPath with a recorded fallback", () => {
  it("takes the record only when it names this git dir's fallback socket (a copied or hand-edited record names another's: breaker defect 2)", () => {
    const base = makeTempDir();
    const root = join(base, "orig", LONG);
    mkdirSync(root, { recursive: true });
    makeRepoAt(root);
    const location = locateWorkTree(root)!;
    mkdirSync(location.stateDir, { recursive: true });
    const record = join(location.stateDir, "socket-path");
    const own = fallbackSocketPath(location.gitDir, { XDG_RUNTIME_DIR: "/run/user/7" }, 7);
    expect(own.endsWith(fallbackSocketName(location.gitDir))).toBe(true);
    writeFileSync(record, `${own}\n`);
    expect(clientSocketPath(location)).toBe(own);
    // The original's record, as `cp -a` of another repository leaves it.
    writeFileSync(record, `${fallbackSocketPath(join(base, "copy", LONG, ".git"), { XDG_RUNTIME_DIR: "/run/user/7" }, 7)}\n`);
    expect(clientSocketPath(location)).toBeNull();
    // Another repository's default socket, by hand.
    writeFileSync(record, "/tmp/r/.git/ralph/daemon/sock\n");
    expect(clientSocketPath(location)).toBeNull();
  });

  it("a short path uses the default socket whatever the record says", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const location = locateWorkTree(root)!;
    expect(clientSocketPath(location)).toBe(location.defaultSocketPath);
  });
});

function makeRepoAt(root: string): void {
  mkdirSync(join(root, ".git", "objects"), { recursive: true });
  mkdirSync(join(root, ".git", "refs"), { recursive: true });
  writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
}
