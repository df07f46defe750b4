/**
 * A Go value named like an error is an error exit only from a function that
 * returns an error (languages/go.ts goErrorExit; sweep of sirupsen/logrus
 * 1d2576d5a0: `case logrus.PanicLevel, …: return slog.LevelError` in a
 * function returning `slog.Leveler` was read as a guard, and its rewrite
 * into a table of levels as a removed guard). `return ErrBadLevel` from a
 * function whose results hold `error` stays a guard, and removing it is
 * still a bypass.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const LEVELS_BEFORE =
  'package slog\n\nimport "log/slog"\n\nfunc toSlogLevel(level Level) slog.Leveler {\n\tswitch level {\n\tcase PanicLevel, FatalLevel, ErrorLevel:\n\t\treturn slog.LevelError\n\tcase WarnLevel:\n\t\treturn slog.LevelWarn\n\tdefault:\n\t\treturn slog.LevelInfo\n\t}\n}\n';
const LEVELS_AFTER =
  'package slog\n\nimport "log/slog"\n\nconst slogLevelPanic = slog.LevelError + 4\n\nfunc toSlogLevel(level Level) slog.Leveler {\n\tswitch level {\n\tcase PanicLevel:\n\t\treturn slogLevelPanic\n\tcase FatalLevel:\n\t\treturn slog.LevelError + 2\n\tcase ErrorLevel:\n\t\treturn slog.Level(8)\n\tcase WarnLevel:\n\t\treturn slog.LevelWarn\n\tdefault:\n\t\treturn slog.LevelInfo\n\t}\n}\n';
const PARSE_BEFORE =
  'package slog\n\nimport "errors"\n\nvar ErrBadLevel = errors.New("bad level")\n\nfunc parseLevel(s string) (Level, error) {\n\tswitch s {\n\tcase "":\n\t\treturn 0, ErrBadLevel\n\tcase "warn":\n\t\treturn WarnLevel, nil\n\t}\n\treturn InfoLevel, nil\n}\n';
const PARSE_AFTER =
  'package slog\n\nimport "errors"\n\nvar ErrBadLevel = errors.New("bad level")\n\nfunc parseLevel(s string) (Level, error) {\n\tswitch s {\n\tcase "warn":\n\t\treturn WarnLevel, nil\n\t}\n\treturn InfoLevel, nil\n}\n';

const cases: RuleCase[] = [
  { name: "go: a level constant named LevelError returned from a switch arm, the arms rewritten", changes: [change("hooks/slog/slog.go", LEVELS_BEFORE, LEVELS_AFTER)], findings: [] },
  {
    name: "go: an ErrBadLevel arm removed from a function returning an error",
    changes: [change("hooks/slog/parse.go", PARSE_BEFORE, PARSE_AFTER)],
    findings: ["validation_bypass/high hooks/slog/parse.go"],
  },
];

describe("go values named like errors", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
