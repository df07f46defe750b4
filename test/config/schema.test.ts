/**
 * The config schema on strings (STYLE.md §10: tables, not copies): aiwg.yml
 * text in, the effective config or an E_CONFIG error (its path, line and
 * message) or warnings out. Goes through parseConfigText, so every case
 * also proves the line numbers.
 */
import { describe, expect, it } from "vitest";
import { flattenConfig, parseConfigText } from "../../src/config/load.js";
import { closestName, DEFAULT_CONFIG, FINDING_TYPES, formatConfigPath, normalizeConfig, type RalphConfig } from "../../src/config/schema.js";
import { isRalphError, RalphError } from "../../src/errors.js";

const NO_ENV = { env: {} };

/** Parses text that must be invalid and returns the E_CONFIG error. */
async function configError(text: string): Promise<RalphError> {
  try {
    await parseConfigText(text, "aiwg.yml", NO_ENV);
  } catch (error) {
    expect(isRalphError(error, "E_CONFIG"), String(error)).toBe(true);
    return error as RalphError;
  }
  throw new Error(`expected E_CONFIG for:\n${text}`);
}

describe("valid files", () => {
  const table: [name: string, text: string, expected: (c: RalphConfig) => unknown, value: unknown][] = [
    ["empty file", "", (c) => c, DEFAULT_CONFIG],
    ["comments only", "# nothing here\n", (c) => c, DEFAULT_CONFIG],
    ["other tools' sections only", "frameworks:\n  sdlc: true\nweird: [1, 2]\n", (c) => c, DEFAULT_CONFIG],
    ["an empty section", "agent_persistence:\n", (c) => c, DEFAULT_CONFIG],
    ["an empty subsection", "agent_persistence:\n  recovery:\n", (c) => c.recovery, DEFAULT_CONFIG.recovery],
    ["enabled: false", "agent_persistence:\n  enabled: false\n", (c) => c.enabled, false],
    ["detection mode", "agent_persistence:\n  detection:\n    mode: aggressive\n", (c) => c.detection.mode, "aggressive"],
    [
      "recovery values",
      "agent_persistence:\n  recovery:\n    max_retries: 0\n    human_gate_timeout_minutes: 30\n",
      (c) => c.recovery,
      { max_retries: 0, auto_escalate_on_critical: true, auto_revert: false, human_gate_timeout_minutes: 30 },
    ],
    ["max_retries at its maximum", "agent_persistence:\n  recovery:\n    max_retries: 10\n", (c) => c.recovery.max_retries, 10],
    ["a fraction plateau threshold stays", "agent_persistence:\n  reinforcement:\n    quality_plateau_threshold: 0.1\n", (c) => c.reinforcement.quality_plateau_threshold, 0.1],
    ["plateau threshold exactly 1 is a fraction", "agent_persistence:\n  reinforcement:\n    quality_plateau_threshold: 1\n", (c) => c.reinforcement.quality_plateau_threshold, 1],
    [
      "thresholds replace the default map, ordered by N",
      "agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_10: AGGRESSIVE\n      iteration_2: STANDARD\n",
      (c) => Object.entries(c.reinforcement.escalation_thresholds),
      [
        ["iteration_2", "STANDARD"],
        ["iteration_10", "AGGRESSIVE"],
      ],
    ],
    ["templates_dir is normalised", "agent_persistence:\n  reinforcement:\n    templates_dir: ./.aiwg//templates/\n", (c) => c.reinforcement.templates_dir, ".aiwg/templates"],
    [
      "allow rules, with and without path, and *",
      "agent_persistence:\n  detection:\n    allow:\n      - {type: test_deletion, path: 'test/old/**', reason: suite replaced}\n      - {type: '*', reason: generated code}\n",
      (c) => c.detection.allow,
      [
        { type: "test_deletion", path: "test/old/**", reason: "suite replaced" },
        { type: "*", reason: "generated code" },
      ],
    ],
    ["severity overrides", "agent_persistence:\n  detection:\n    severity:\n      feature_removal: high\n", (c) => c.detection.severity, { feature_removal: "high" }],
    [
      "the reference guide's four pattern names, no warning",
      "agent_persistence:\n  detection:\n    patterns_enabled: [test_deletion, feature_removal, coverage_regression, validation_bypass]\n",
      (c) => c.detection.patterns_enabled,
      ["test_deletion", "feature_removal", "coverage_regression", "validation_bypass"],
    ],
    [
      "loop and metrics",
      "agent_persistence:\n  loop:\n    completion_command: npm test\n    max_iterations: 200\n  metrics:\n    typescript:\n      command: npx tsc --noEmit\n",
      (c) => [c.loop.completion_command, c.loop.max_iterations, c.metrics.typescript, c.metrics.lint.command],
      ["npm test", 200, { command: "npx tsc --noEmit", timeout_ms: 120000 }, null],
    ],
    ["max_consecutive_blocks", "agent_persistence:\n  loop:\n    max_consecutive_blocks: 3\n", (c) => c.loop.max_consecutive_blocks, 3],
    ["max_consecutive_blocks defaults below Claude Code's cap of 8", "agent_persistence:\n  loop: {}\n", (c) => c.loop.max_consecutive_blocks, 5],
    [
      "hooks and store",
      "agent_persistence:\n  hooks:\n    pre_tool_decision: ask\n  store:\n    size_cap_bytes: 1048576\n",
      (c) => [c.hooks.pre_tool_decision, c.store.size_cap_bytes],
      ["ask", 1048576],
    ],
  ];
  it.each(table)("%s", async (_name, text, pick, value) => {
    const result = await parseConfigText(text, "aiwg.yml", NO_ENV);
    expect(pick(result.config)).toEqual(value);
    expect(result.warnings).toEqual([]);
  });

  it("the reference guide's own example loads without warnings and keeps its values", async () => {
    const text = `agent_persistence:
  enabled: true
  detection:
    mode: "standard"  # off, minimal, standard, aggressive
    patterns_enabled:
      - test_deletion
      - feature_removal
      - coverage_regression
      - validation_bypass
  reinforcement:
    default_level: "MINIMAL"
    escalation_thresholds:
      iteration_3: "STANDARD"
      iteration_5: "AGGRESSIVE"
    quality_plateau_threshold: 0.05  # 5% delta
  recovery:
    max_retries: 3
    auto_escalate_on_critical: true
    human_gate_timeout_minutes: null  # Block indefinitely
  best_output_selection:
    enabled: true
    quality_threshold: 70
    require_verification: false
  performance:
    detection_latency_budget_ms: 500
    max_integration_overhead_percentage: 10
`;
    const { config, warnings, sources } = await parseConfigText(text, "aiwg.yml", NO_ENV);
    expect(warnings).toEqual([]);
    expect(config).toEqual({ ...DEFAULT_CONFIG, detection: { ...DEFAULT_CONFIG.detection, patterns_enabled: ["test_deletion", "feature_removal", "coverage_regression", "validation_bypass"] } });
    expect(sources["detection.mode"]).toBe("aiwg.yml:4");
    expect(sources["detection.patterns_enabled"]).toBe("aiwg.yml:5");
    expect(sources["reinforcement.escalation_thresholds.iteration_5"]).toBe("aiwg.yml:14");
    expect(sources["performance.max_integration_overhead_percentage"]).toBe("aiwg.yml:26");
    expect(sources["performance.detection_latency_p99_budget_ms"]).toBe("default");
    expect(sources["loop.max_iterations"]).toBe("default");
  });
});

describe("invalid files: E_CONFIG naming the line and path", () => {
  const table: [name: string, text: string, line: number, path: string, message: RegExp][] = [
    [
      "unknown key with a suggestion",
      "agent_persistence:\n  recovery:\n    max_retrys: 4\n",
      3,
      "agent_persistence.recovery.max_retrys",
      /^aiwg\.yml:3: agent_persistence\.recovery\.max_retrys: unknown key \(did you mean max_retries\?\); rename it to max_retries$/,
    ],
    [
      "unknown key without a suggestion",
      "agent_persistence:\n  frobnicate: 1\n",
      2,
      "agent_persistence.frobnicate",
      /^aiwg\.yml:2: agent_persistence\.frobnicate: unknown key; remove it; known keys here: enabled, detection, /,
    ],
    [
      "unknown key in a nested metrics section",
      "agent_persistence:\n  metrics:\n    coverage:\n      sumary_path: x.json\n",
      4,
      "agent_persistence.metrics.coverage.sumary_path",
      /unknown key \(did you mean summary_path\?\)/,
    ],
    [
      "unknown key in an allow rule",
      "agent_persistence:\n  detection:\n    allow:\n      - type: test_deletion\n        reason: r\n        paths: a/**\n",
      6,
      "agent_persistence.detection.allow[0].paths",
      /unknown key \(did you mean path\?\)/,
    ],
    [
      "wrong type: string for integer",
      "agent_persistence:\n  recovery:\n    max_retries: three\n",
      3,
      "agent_persistence.recovery.max_retries",
      /: expected a number, got the string "three"; write a number$/,
    ],
    ["wrong type: fraction for integer", "agent_persistence:\n  loop:\n    max_iterations: 2.5\n", 3, "agent_persistence.loop.max_iterations", /expected an integer, got number 2\.5/],
    ["wrong type: string for boolean", "agent_persistence:\n  enabled: yes\n", 2, "agent_persistence.enabled", /expected true or false, got the string "yes"/],
    ["wrong type: a section that is a scalar", "agent_persistence:\n  recovery: 3\n", 2, "agent_persistence.recovery", /expected a map, got number 3/],
    ["wrong type: the whole section", "agent_persistence: [1]\n", 1, "agent_persistence", /^aiwg\.yml:1: agent_persistence: expected a map, got a list/],
    ["out of range: above", "agent_persistence:\n  recovery:\n    max_retries: 11\n", 3, "agent_persistence.recovery.max_retries", /11 is above the maximum 10; use at most 10$/],
    ["out of range: below", "agent_persistence:\n  loop:\n    max_iterations: 0\n", 3, "agent_persistence.loop.max_iterations", /0 is below the minimum 1; use at least 1$/],
    ["out of range: iterations over the hard cap", "agent_persistence:\n  loop:\n    max_iterations: 201\n", 3, "agent_persistence.loop.max_iterations", /above the maximum 200/],
    [
      "out of range: consecutive blocks at Claude Code's own cap",
      "agent_persistence:\n  loop:\n    max_consecutive_blocks: 8\n",
      3,
      "agent_persistence.loop.max_consecutive_blocks",
      /8 is above the maximum 7/,
    ],
    [
      "out of range: plateau over 100",
      "agent_persistence:\n  reinforcement:\n    quality_plateau_threshold: 150\n",
      3,
      "agent_persistence.reinforcement.quality_plateau_threshold",
      /150 is above the maximum 100/,
    ],
    [
      "out of range: quality threshold",
      "agent_persistence:\n  best_output_selection:\n    quality_threshold: -1\n",
      3,
      "agent_persistence.best_output_selection.quality_threshold",
      /below the minimum 0/,
    ],
    [
      "out of range: exclusive minimum",
      "agent_persistence:\n  recovery:\n    human_gate_timeout_minutes: 0\n",
      3,
      "agent_persistence.recovery.human_gate_timeout_minutes",
      /: 0 is not above 0; use a number above 0, or null for none$/,
    ],
    [
      "wrong type on a nullable field says null is allowed",
      "agent_persistence:\n  metrics:\n    lint:\n      command: 3\n",
      4,
      "agent_persistence.metrics.lint.command",
      /: expected a string or null, got number 3;/,
    ],
    [
      "bad enum value",
      "agent_persistence:\n  detection:\n    mode: paranoid\n",
      3,
      "agent_persistence.detection.mode",
      /the string "paranoid" is not allowed; use one of off, minimal, standard, aggressive$/,
    ],
    ["lower-case level", "agent_persistence:\n  reinforcement:\n    default_level: standard\n", 3, "agent_persistence.reinforcement.default_level", /use one of MINIMAL, STANDARD, AGGRESSIVE$/],
    [
      "unknown finding type lists the known ones",
      "agent_persistence:\n  detection:\n    patterns_enabled:\n      - test_deletion\n      - flaky_tests\n",
      5,
      "agent_persistence.detection.patterns_enabled[1]",
      new RegExp(`unknown finding type "flaky_tests"; use one of ${FINDING_TYPES.join(", ")}$`),
    ],
    [
      "misspelt finding type gets a suggestion",
      "agent_persistence:\n  detection:\n    severity:\n      test_deletoin: low\n",
      4,
      "agent_persistence.detection.severity.test_deletoin",
      /unknown finding type "test_deletoin" \(did you mean test_deletion\?\)/,
    ],
    [
      "unknown allow type",
      "agent_persistence:\n  detection:\n    allow:\n      - {type: nope, reason: r}\n",
      4,
      "agent_persistence.detection.allow[0].type",
      /unknown finding type "nope"; use one of .*, or \* for all$/,
    ],
    [
      "allow rule without a reason",
      "agent_persistence:\n  detection:\n    allow:\n      - {type: test_deletion}\n",
      4,
      "agent_persistence.detection.allow[0].reason",
      /expected a string, got nothing/,
    ],
    [
      "bad escalation key",
      "agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_0: STANDARD\n",
      4,
      "agent_persistence.reinforcement.escalation_thresholds.iteration_0",
      /key is not iteration_<N>; name it iteration_<positive integer>/,
    ],
    ["templates_dir outside the work tree", "agent_persistence:\n  reinforcement:\n    templates_dir: ../elsewhere\n", 3, "agent_persistence.reinforcement.templates_dir", /outside the work tree/],
    ["empty command", "agent_persistence:\n  loop:\n    completion_command: ''\n", 3, "agent_persistence.loop.completion_command", /empty; give a value, or null for none$/],
    ["YAML syntax error", "agent_persistence:\n  recovery:\n    max_retries: [1, 2\n  loop: {}\n", 4, "", /^aiwg\.yml:4: .+; fix the YAML syntax$/],
    ["duplicate keys", "agent_persistence:\n  enabled: true\n  enabled: false\n", 3, "", /^aiwg\.yml:3: .*unique.*; fix the YAML syntax$/],
    ["a file that is a list", "- a\n- b\n", 1, "", /^aiwg\.yml:1: the file is not a map of sections/],
  ];
  it.each(table)("%s", async (_name, text, line, path, message) => {
    const error = await configError(text);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("\n");
    expect(error.data.line).toBe(line);
    if (path !== "") expect(error.data.path).toBe(path);
  });

  it("several problems: the first by line in the message, all in data.issues", async () => {
    const error = await configError("agent_persistence:\n  loop:\n    max_iterations: 0\n  recovery:\n    max_retrys: 1\n    auto_revert: maybe\n");
    expect(error.message).toMatch(/^aiwg\.yml:3: agent_persistence\.loop\.max_iterations: .* \(and 2 more: see 'ralph config --check --json'\)$/);
    expect((error.data.issues as { path: string; line: number }[]).map((i) => [i.path, i.line])).toEqual([
      ["loop.max_iterations", 3],
      ["recovery.max_retrys", 5],
      ["recovery.auto_revert", 6],
    ]);
  });

  it("the file name given is the one in messages (aiwg.yaml)", async () => {
    await expect(parseConfigText("agent_persistence:\n  nope: 1\n", "aiwg.yaml", NO_ENV)).rejects.toThrow(/^aiwg\.yaml:2: agent_persistence\.nope: unknown key/);
  });
});

describe("warnings: legal but probably not meant", () => {
  const table: [name: string, text: string, warnings: { path: string; line: number | null; message: RegExp }[], check?: (c: RalphConfig) => void][] = [
    [
      "plateau threshold in percent",
      "agent_persistence:\n  reinforcement:\n    quality_plateau_threshold: 5\n",
      [{ path: "reinforcement.quality_plateau_threshold", line: 3, message: /^5 read as 5% \(0\.05\); write a fraction from 0 to 1$/ }],
      (c) => expect(c.reinforcement.quality_plateau_threshold).toBe(0.05),
    ],
    [
      "levels that go down as N grows",
      "agent_persistence:\n  reinforcement:\n    escalation_thresholds:\n      iteration_3: AGGRESSIVE\n      iteration_6: STANDARD\n",
      [{ path: "reinforcement.escalation_thresholds.iteration_6", line: 5, message: /^STANDARD is weaker than AGGRESSIVE at iteration_3/ }],
      (c) => expect(c.reinforcement.escalation_thresholds).toEqual({ iteration_3: "AGGRESSIVE", iteration_6: "STANDARD" }),
    ],
    [
      "a threshold below the default level",
      "agent_persistence:\n  reinforcement:\n    default_level: STANDARD\n    escalation_thresholds:\n      iteration_2: MINIMAL\n",
      [{ path: "reinforcement.escalation_thresholds.iteration_2", line: 5, message: /^MINIMAL is weaker than STANDARD at default_level/ }],
    ],
    [
      "aliases mapped onto DESIGN.md types",
      "agent_persistence:\n  detection:\n    patterns_enabled: [test_skip, reward_hacking, test_deletion]\n    severity:\n      coverage_drop: low\n",
      [
        { path: "detection.patterns_enabled[0]", line: 3, message: /^"test_skip" is not one of ralph's finding types; read as test_disabled$/ },
        { path: "detection.patterns_enabled[1]", line: 3, message: /"reward_hacking" .* read as special_casing$/ },
        { path: "detection.severity.coverage_drop", line: 5, message: /read as coverage_regression$/ },
      ],
      (c) => {
        expect(c.detection.patterns_enabled).toEqual(["test_disabled", "special_casing", "test_deletion"]);
        expect(c.detection.severity).toEqual({ coverage_regression: "low" });
      },
    ],
    [
      "quality threshold written as a fraction",
      "agent_persistence:\n  best_output_selection:\n    quality_threshold: 0.7\n",
      [{ path: "best_output_selection.quality_threshold", line: 3, message: /did you mean 70\?$/ }],
      (c) => expect(c.best_output_selection.quality_threshold).toBe(0.7),
    ],
    [
      "p99 budget below p95",
      "agent_persistence:\n  performance:\n    detection_latency_budget_ms: 800\n    detection_latency_p99_budget_ms: 600\n",
      [{ path: "performance.detection_latency_p99_budget_ms", line: 4, message: /below the p95 budget \(800 ms\)/ }],
    ],
    ["no finding type enabled", "agent_persistence:\n  detection:\n    patterns_enabled: []\n", [{ path: "detection.patterns_enabled", line: 3, message: /no finding type enabled/ }]],
  ];
  it.each(table)("%s", async (_name, text, expected, check) => {
    const { config, warnings } = await parseConfigText(text, "aiwg.yml", NO_ENV);
    expect(warnings).toHaveLength(expected.length);
    expected.forEach((w, i) => {
      expect(warnings[i]?.path).toBe(w.path);
      expect(warnings[i]?.line).toBe(w.line);
      expect(warnings[i]?.message).toMatch(w.message);
    });
    check?.(config);
  });
});

describe("sources", () => {
  it("names the line of every value written, default for the rest", async () => {
    const text = "tools:\n  other: 1\nagent_persistence:\n  recovery:\n    max_retries: 5\n  detection:\n    severity:\n      reward_hacking: high\n  loop:\n    completion_command: npm test\n";
    const { sources, config } = await parseConfigText(text, "aiwg.yml", NO_ENV);
    expect(sources["recovery.max_retries"]).toBe("aiwg.yml:5");
    expect(sources["recovery.auto_revert"]).toBe("default");
    expect(sources["detection.severity.special_casing"]).toBe("aiwg.yml:7"); // an alias key: the map's line
    expect(sources["loop.completion_command"]).toBe("aiwg.yml:10");
    expect(sources["reinforcement.escalation_thresholds.iteration_3"]).toBe("default");
    expect(config.detection.severity).toEqual({ special_casing: "high" });
    // Every leaf has a source, and nothing else does.
    expect(Object.keys(sources)).toEqual(flattenConfig(config).map(([path]) => path));
    expect(Object.keys(sources)).toContain("metrics.coverage.summary_path");
    expect(Object.keys(sources)).toContain("daemon.idle_ms");
    expect(Object.keys(sources)).toHaveLength(38);
  });
});

describe("env overrides", () => {
  const table: [env: Record<string, string>, fileValue: string | null, autoRevert: boolean, source: string, warning: RegExp | null][] = [
    [{ RALPH_AUTO_REVERT: "1" }, null, true, "env:RALPH_AUTO_REVERT", null],
    [{ RALPH_AUTO_REVERT: "true" }, "false", true, "env:RALPH_AUTO_REVERT", null],
    [{ RALPH_AUTO_REVERT: "0" }, "true", false, "env:RALPH_AUTO_REVERT", null],
    [{ RALPH_AUTO_REVERT: "FALSE" }, null, false, "env:RALPH_AUTO_REVERT", null],
    [{ RALPH_AUTO_REVERT: "" }, "true", true, "aiwg.yml:3", null],
    [{ RALPH_AUTO_REVERT: "yes" }, "true", true, "aiwg.yml:3", /^RALPH_AUTO_REVERT="yes" ignored: use 1, true, 0 or false$/],
    [{}, null, false, "default", null],
  ];
  it.each(table)("%j over a file saying %s", async (env, fileValue, autoRevert, source, warning) => {
    const text = fileValue === null ? "" : `agent_persistence:\n  recovery:\n    auto_revert: ${fileValue}\n`;
    const result = await parseConfigText(text, "aiwg.yml", { env });
    expect(result.config.recovery.auto_revert).toBe(autoRevert);
    expect(result.sources["recovery.auto_revert"]).toBe(source);
    if (warning) expect(result.warnings).toEqual([{ path: "recovery.auto_revert", line: null, message: expect.stringMatching(warning) }]);
    else expect(result.warnings).toEqual([]);
  });

  it("RALPH_PRETOOL_DECISION=ask sets hooks.pre_tool_decision", async () => {
    const result = await parseConfigText(null, "aiwg.yml", { env: { RALPH_PRETOOL_DECISION: "ask" } });
    expect(result.config.hooks.pre_tool_decision).toBe("ask");
    expect(result.sources["hooks.pre_tool_decision"]).toBe("env:RALPH_PRETOOL_DECISION");
  });
});

describe("units", () => {
  it("formatConfigPath joins keys with dots and indexes with brackets", () => {
    expect(formatConfigPath(["detection", "allow", 0, "reason"])).toBe("detection.allow[0].reason");
    expect(formatConfigPath([])).toBe("");
  });
  it("closestName suggests typos only", () => {
    expect(closestName("max_retrys", ["max_retries", "auto_revert"])).toBe("max_retries");
    expect(closestName("enabeld", ["enabled", "detection"])).toBe("enabled");
    expect(closestName("zzz", ["enabled", "detection"])).toBeNull();
  });
  it("normalizeConfig of nothing is the defaults, and DEFAULT_CONFIG is frozen", () => {
    expect(normalizeConfig(undefined)).toEqual({ config: DEFAULT_CONFIG, errors: [], warnings: [] });
    expect(Object.isFrozen(DEFAULT_CONFIG.detection.patterns_enabled)).toBe(true);
    expect(DEFAULT_CONFIG.detection.patterns_enabled).toEqual([...FINDING_TYPES]);
  });
});
