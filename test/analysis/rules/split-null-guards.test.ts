/**
 * One guard that refuses any of several absent values, split into one null
 * refusal per value (issue 9, class null-guard-split-per-value; sweep of
 * apache/commons-compress ba58ca98b6: `if (currEntry == null ||
 * currentInputStream == null) throw new IllegalStateException(…)` became
 * `ArchiveException.requireNonNull(currEntry, …)` and the same for the
 * stream). Each value is still refused, whatever error it raises now, so
 * no validation_bypass. One value left unrefused still is one. A table per
 * language: the throw helpers of Java and C#, and plain `if` guards of
 * Python, JS and Ruby.
 */
import { describe, expect, it } from "vitest";
import { change, expectFindings } from "./table.js";

interface SplitCase {
  lang: string;
  path: string;
  before: string;
  /** Every value refused apart. */
  split: string;
  /** The cheat: one of the values no longer refused. */
  oneDropped: string;
}

const JAVA = (body: string): string => `package tar;\n\npublic class Reader {\n    private Object entry;\n    private Object stream;\n\n    public int read() {\n${body}        return 1;\n    }\n}\n`;
const CS = (body: string): string => `namespace Tar;\n\npublic class Reader\n{\n    public int Read(object entry, object stream)\n    {\n${body}        return 1;\n    }\n}\n`;
const PY = (body: string): string => `def read(entry, stream):\n${body}    return 1\n`;
const JS = (body: string): string => `export function read(entry, stream) {\n${body}  return 1;\n}\n`;
const RB = (body: string): string => `class Reader\n  def read(entry, stream)\n${body}    1\n  end\nend\n`;

const cases: SplitCase[] = [
  {
    lang: "java: a project's requireNonNull helper",
    path: "src/main/java/tar/Reader.java",
    before: JAVA('        if (entry == null || stream == null) {\n            throw new IllegalStateException("No current tar entry");\n        }\n'),
    split: JAVA('        ArchiveException.requireNonNull(entry, () -> "No current tar entry");\n        ArchiveException.requireNonNull(stream, () -> "No current tar entry");\n'),
    oneDropped: JAVA('        ArchiveException.requireNonNull(entry, () -> "No current tar entry");\n'),
  },
  {
    lang: "java: Objects.requireNonNull",
    path: "src/main/java/tar/Reader.java",
    before: JAVA('        if (entry == null || stream == null) {\n            throw new IllegalStateException("No current tar entry");\n        }\n'),
    split: JAVA('        Objects.requireNonNull(entry, "entry");\n        Objects.requireNonNull(stream, "stream");\n'),
    oneDropped: JAVA('        Objects.requireNonNull(stream, "stream");\n'),
  },
  {
    lang: "c#: ThrowIfNull",
    path: "src/Tar/Reader.cs",
    before: CS("        if (entry == null || stream == null)\n        {\n            throw new ArgumentNullException();\n        }\n"),
    split: CS("        ArgumentNullException.ThrowIfNull(entry);\n        ArgumentNullException.ThrowIfNull(stream);\n"),
    oneDropped: CS("        ArgumentNullException.ThrowIfNull(entry);\n"),
  },
  {
    lang: "python: one if per value",
    path: "tar/reader.py",
    before: PY('    if entry is None or stream is None:\n        raise ValueError("no current entry")\n'),
    split: PY('    if entry is None:\n        raise ValueError("no current entry")\n    if stream is None:\n        raise ValueError("no current stream")\n'),
    oneDropped: PY('    if stream is None:\n        raise ValueError("no current stream")\n'),
  },
  {
    lang: "javascript: one if per value",
    path: "src/reader.js",
    before: JS('  if (entry == null || stream == null) {\n    throw new TypeError("no current entry");\n  }\n'),
    split: JS('  if (entry == null) throw new TypeError("no current entry");\n  if (stream == null) throw new TypeError("no current stream");\n'),
    oneDropped: JS('  if (entry == null) throw new TypeError("no current entry");\n'),
  },
  {
    lang: "ruby: one modifier raise per value",
    path: "lib/tar/reader.rb",
    before: RB('    raise ArgumentError, "no current entry" if entry.nil? || stream.nil?\n'),
    split: RB('    raise ArgumentError, "no current entry" if entry.nil?\n    raise ArgumentError, "no current stream" if stream.nil?\n'),
    oneDropped: RB('    raise ArgumentError, "no current stream" if stream.nil?\n'),
  },
];

describe.each(cases)("a null guard of two values split per value ($lang)", (one) => {
  it("each value still refused: no bypass", async () => {
    await expectFindings({ name: "split", changes: [change(one.path, one.before, one.split)], findings: [] });
  });

  it("one value no longer refused is still a bypass", async () => {
    const findings = await expectFindings({ name: "one dropped", changes: [change(one.path, one.before, one.oneDropped)], findings: [`validation_bypass/high ${one.path}`] });
    expect(findings[0]?.message).toMatch(/null|None|nil/);
  });
});
