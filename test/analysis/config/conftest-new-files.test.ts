/**
 * A conftest.py ignore entry that reaches no file the tree had before the
 * change leaves out only files the change adds (python-attrs/cattrs
 * 3d070824b3: `collect_ignore_glob.append(…)` of a `**` glob naming
 * test_msgspec_314_cpython.py under `if sys.version_info < (3, 14)`, beside the new 3.14-only test
 * module): no test that ran stops running, so it is no note, as a runner's
 * exclusion over no existing test is none (runner-files.ts). An entry that
 * reaches an existing test file or folder, or one computed at run time,
 * is still one; without the tree's file list every new entry naming tests
 * is.
 */
import { describe, expect, it } from "vitest";
import { compareConftest } from "../../../src/analysis/config/python.js";

const before = `import sys\n\ncollect_ignore_glob = []\nif sys.version_info < (3, 12):\n    collect_ignore_glob.append("*_695.py")\n`;
const withEntry = (line: string): string => `${before}if sys.version_info < (3, 14):\n    ${line}\n`;
const filesBefore = ["conftest.py", "test_gen.py", "test_gen_695.py", "preconf/test_msgspec.py", "preconf/__init__.py", "legacy_tests/test_old.py"];

describe("conftest ignore entries over files the change adds", () => {
  const cases: [string, string, readonly string[] | undefined, number][] = [
    ["a glob that reaches only a new module (cattrs 3d070824b3)", 'collect_ignore_glob.append("**/test_msgspec_314_cpython.py")', filesBefore, 0],
    ["a path that names only a new module (cattrs e1ad8cd952)", 'collect_ignore_glob.append("test_gen_dict_649.py")', filesBefore, 0],
    ["a collect_ignore path of a new folder", 'collect_ignore = ["py314/"]', filesBefore, 0],
    ["cheat: a glob that reaches an existing module", 'collect_ignore_glob.append("**/test_msgspec*.py")', filesBefore, 1],
    ["cheat: a collect_ignore path of an existing module", 'collect_ignore = ["test_gen.py"]', filesBefore, 1],
    ["cheat: a collect_ignore path of an existing folder", 'collect_ignore = ["legacy_tests"]', filesBefore, 1],
    ["cheat: a glob with a set that reaches an existing module", 'collect_ignore_glob.append("test_[gx]en.py")', filesBefore, 1],
    ["cheat: an entry computed at run time", "collect_ignore_glob.extend(find_slow())", filesBefore, 1],
    ["without the tree's files a new entry is still a note", 'collect_ignore_glob.append("**/test_msgspec_314_cpython.py")', undefined, 1],
  ];
  for (const [name, line, files, count] of cases) it(name, () => expect(compareConftest(before, withEntry(line), files).filter((note) => note.setting === "collect_ignore")).toHaveLength(count));
});
