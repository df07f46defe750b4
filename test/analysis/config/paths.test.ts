/** Which paths are test configuration files, and which config kind reads each. */
import { describe, expect, it } from "vitest";
import { configKindOf } from "../../../src/analysis/config/index.js";
import { isAnalyzable } from "../../../src/analysis/index.js";

describe("configKindOf", () => {
  it.each([
    ["package.json", "package.json"],
    ["packages/web/package.json", "package.json"],
    ["vitest.config.ts", "vitest-config"],
    ["vitest.config.e2e.mts", "vitest-config"],
    ["vitest.unit.config.ts", "vitest-config"],
    ["apps/web/vite.config.js", "vitest-config"],
    ["jest.config.js", "jest-config"],
    ["jest.config.json", "jest-config"],
    ["jest.e2e.config.cjs", "jest-config"],
    [".mocharc.yml", "mocharc"],
    [".mocharc", "mocharc"],
    [".c8rc.json", "c8rc"],
    [".nycrc", "nycrc"],
    ["pytest.ini", "pytest.ini"],
    ["tox.ini", "tox.ini"],
    ["setup.cfg", "setup.cfg"],
    ["pyproject.toml", "pyproject.toml"],
    [".coveragerc", ".coveragerc"],
    ["tests/conftest.py", "conftest.py"],
    ["Makefile", "makefile"],
    ["build/rules.mk", "makefile"],
    [".github/workflows/ci.yaml", "github-actions"],
    [".gitlab-ci.yml", "gitlab-ci"],
    [".gitlab/ci/test.yml", "gitlab-ci"],
  ])("%s is %s", (path, kind) => {
    expect(configKindOf(path)?.id).toBe(kind);
    expect(isAnalyzable(path)).toBe(true);
  });

  it.each(["node_modules/jest/package.json", "test/fixtures/app/Makefile", "vendor/lib/tox.ini", "docs/workflows/ci.yml", ".github/dependabot.yml", "vite.config.json", "config.ts", "README.md"])(
    "%s is not a config file ralph reads",
    (path) => {
      expect(configKindOf(path)).toBeNull();
    },
  );
});
