/**
 * The agent cannot switch its guard off (issue 10): through the built CLI,
 * in a repository with ralph's Claude Code and git hooks installed and a
 * running loop, every tool call that would change ralph's control surface
 * (its settings entries, `disableAllHooks`, the pre-push hook, the loop
 * state, `.git/ralph`) is put to the human (`ask`, saying what it would
 * change), whether it comes as a file tool or a Bash command; a write that
 * keeps ralph's entries is not. A change made behind ralph's back (a script
 * the agent wrote earlier) is reported by the next hook call, Stop, `ralph
 * status` and `ralph doctor`, and the loop does not complete until the user
 * runs `ralph confirm`. Run `npm run build` first.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { controlKindOf, describeSettingsChange, holdsControlSurface } from "../../src/hooks/control-surface.js";
import { ENTRY_ID, lefthookRun, preCommitEntry, shellBlock } from "../../src/hooks/git-hook-managers.js";
import { describeHookManagerChange } from "../../src/hooks/hook-manager-entries.js";
import { linesOf, parseJsonOutput, runRalph, runRalphInProcess, type RunResult } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";

const SESSION = "guard-session";

/** A repository with ralph's Claude and git hooks installed (in-process, hooks that run the built binary) and a running loop. */
async function installedRepo(completion = "true"): Promise<string> {
  const root = makeRepo({ "src/math.ts": "export const add = (a: number, b: number) => a + b;\n", "README.md": "# x\n" });
  expect((await runRalphInProcess(root, ["install", "--claude", "--git-hooks"])).status).toBe(0);
  expect((await runRalphInProcess(root, ["start", "Keep add working", "--completion", completion, "--id", "work"])).status).toBe(0);
  return root;
}

/** One Claude Code hook call in-process; `binary` runs the built CLI instead, as Claude Code does. */
async function hook(root: string, payload: Record<string, unknown>, binary = false): Promise<Record<string, unknown>> {
  const full = { session_id: SESSION, transcript_path: "", cwd: root, permission_mode: "default", ...payload };
  const args = ["hook", "claude", String(payload.hook_event_name)];
  const result: RunResult = binary ? runRalph(root, args, { input: JSON.stringify(full) }) : await runRalphInProcess(root, args, { input: JSON.stringify(full) });
  expect(result.status, result.stderr).toBe(0);
  expect(linesOf(result.stdout)).toHaveLength(1);
  return parseJsonOutput<Record<string, unknown>>(result);
}

const pre = (root: string, tool: string, input: Record<string, unknown>, id = `toolu_${tool}`): Promise<Record<string, unknown>> =>
  hook(root, { hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: id });

const decisionOf = (answer: Record<string, unknown>): string | undefined => (answer.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision;
const reasonOf = (answer: Record<string, unknown>): string => (answer.hookSpecificOutput as { permissionDecisionReason?: string } | undefined)?.permissionDecisionReason ?? "";

describe("describeSettingsChange (unit)", () => {
  const ralph = (command = "node cli.js hook claude Stop --ralph-managed"): string => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } });
  it.each([
    ["ralph's entries removed", ralph(), "{}", /removes ralph's Stop hook/],
    ["the file deleted", ralph(), null, /deletes the file/],
    ["the command rewritten", ralph(), ralph("true --ralph-managed"), /rewrites ralph's Stop hook command/],
    ["disableAllHooks set", "{}", '{"disableAllHooks": true}', /disableAllHooks/],
    ["made invalid JSON", ralph(), "{ nope", /invalid JSON/],
  ])("%s is a change", (_name, before, after, pattern) => {
    expect(describeSettingsChange(before, after)).toMatch(pattern);
  });

  it.each([
    ["an unrelated permission added", ralph(), JSON.stringify({ ...JSON.parse(ralph()), permissions: { allow: ["Bash(npm test:*)"] } })],
    [
      "another hook added beside ralph's",
      ralph(),
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: "command", command: "node cli.js hook claude Stop --ralph-managed" },
                { type: "command", command: "say done" },
              ],
            },
          ],
        },
      }),
    ],
    ["disableAllHooks set to false", ralph(), JSON.stringify({ ...JSON.parse(ralph()), disableAllHooks: false })],
    ["a file without ralph's entries deleted", '{"permissions": {}}', null],
    ["a new file without disableAllHooks", null, '{"permissions": {}}'],
  ])("%s is no change", (_name, before, after) => {
    expect(describeSettingsChange(before, after)).toBeNull();
  });
});

describe("PreToolUse: a tool call that would switch the guard off goes to the human", () => {
  it("file tools: a Write or Edit that drops ralph's hooks, disableAllHooks in settings.local.json, a Write of the pre-push hook or of .git/ralph are asked; a Write keeping ralph's entries is not", async () => {
    const root = await installedRepo();
    const settingsPath = join(root, ".claude", "settings.json");
    const settings = readFileSync(settingsPath, "utf8");
    const parsed = JSON.parse(settings) as { hooks: Record<string, unknown> };
    const withoutStop = { ...parsed, hooks: { ...parsed.hooks } };
    delete withoutStop.hooks.Stop;
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      ["Write settings.json without ralph's hooks", "Write", { file_path: settingsPath, content: '{ "permissions": {} }\n' }, /removes ralph's .*hooks/],
      ["Write settings.json without the Stop hook", "Write", { file_path: settingsPath, content: JSON.stringify(withoutStop, null, 2) }, /removes ralph's Stop hook/],
      ["Edit that cuts the Stop entry", "Edit", { file_path: settingsPath, old_string: '"Stop"', new_string: '"NotAnEvent"' }, /removes ralph's Stop hook/],
      ["MultiEdit that rewrites a command", "MultiEdit", { file_path: settingsPath, edits: [{ old_string: "hook claude Stop", new_string: "--version; true" }] }, /Stop/],
      ["Write settings.local.json with disableAllHooks", "Write", { file_path: join(root, ".claude", "settings.local.json"), content: '{ "disableAllHooks": true }\n' }, /disableAllHooks/],
      ["Write of the pre-push hook", "Write", { file_path: join(root, ".git", "hooks", "pre-push"), content: "#!/bin/sh\nexit 0\n" }, /git hook that runs ralph/],
      ["Write into .git/ralph", "Write", { file_path: join(root, ".git", "ralph", "guard", "record.json"), content: "{}" }, /\.git\/ralph/],
    ];
    for (const [name, tool, input, pattern] of cases) {
      const answer = await pre(root, tool, input);
      expect(decisionOf(answer), name).toBe("ask");
      expect(reasonOf(answer), name).toMatch(pattern);
    }
    // Nothing was written by the hook itself.
    expect(readFileSync(settingsPath, "utf8")).toBe(settings);
    const keeps = { ...parsed, permissions: { allow: ["Bash(npm test:*)"] } };
    expect(await pre(root, "Write", { file_path: settingsPath, content: JSON.stringify(keeps, null, 2) })).toEqual({});
    expect(await pre(root, "Edit", { file_path: settingsPath, old_string: '"hooks": {', new_string: '"permissions": { "allow": ["Read"] },\n  "hooks": {' })).toEqual({});
  });

  it.each([
    "rm .claude/settings.json",
    "echo {} > .claude/settings.json",
    "rm .git/hooks/pre-push",
    "chmod -x .git/hooks/pre-push",
    "rm -rf .aiwg",
    "node -e \"require('fs').writeFileSync('.claude/settings.json', '{}')\"",
    "git config --unset core.hooksPath",
    "cat > .claude/settings.local.json <<'EOF'\n{\"disableAllHooks\": true}\nEOF",
  ])("Bash %j is asked, saying what it would change", async (command) => {
    const root = await installedRepo();
    const answer = await pre(root, "Bash", { command });
    expect(decisionOf(answer)).toBe("ask");
    expect(reasonOf(answer)).toMatch(/would change how ralph guards this session/);
  });

  it("Bash through an absolute path from a subdirectory is asked too", async () => {
    const root = await installedRepo();
    // Through the built binary, as Claude Code calls it (the in-process calls above answer the same way).
    const answer = await hook(
      root,
      { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `rm ${root}/.claude/settings.json` }, cwd: join(root, "src"), tool_use_id: "toolu_abs" },
      true,
    );
    expect(decisionOf(answer)).toBe("ask");
  });
});

describe("hook managers' files: only ralph's entry in them is part of the guard (unit)", () => {
  const lefthookJobs = `pre-push:\n  jobs:\n    - name: ${ENTRY_ID}\n      run: ${JSON.stringify(lefthookRun())}\n      use_stdin: true\n    - name: lint\n      run: npm run lint\n`;
  const lefthookCommands = `pre-push:\n  commands:\n    ${ENTRY_ID}:\n      run: ${JSON.stringify(lefthookRun())}\n      use_stdin: true\n    lint:\n      run: npm run lint\n`;
  const preCommit = `repos:\n  - repo: local\n    hooks:\n      - id: ${ENTRY_ID}\n        name: ralph pre-push guard\n        entry: ${JSON.stringify(preCommitEntry())}\n        language: system\n        stages: [pre-push]\n        pass_filenames: false\n        always_run: true\n`;
  const packageJson = JSON.stringify({ name: "x", scripts: { test: "vitest" }, "simple-git-hooks": { "pre-commit": "npx lint-staged", "pre-push": `${shellBlock()}\nnpm test` } }, null, 2);
  const simpleJson = JSON.stringify({ "pre-push": `${shellBlock()}\nnpm test` }, null, 2);
  const husky = `#!/bin/sh\n${shellBlock()}\nnpm test\n`;
  it.each([
    ["lefthook jobs: ralph's job removed", "lefthook.yml", lefthookJobs, "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n", /removes ralph's pre-push entry/],
    ["lefthook jobs: ralph's run rewritten", "lefthook.yml", lefthookJobs, lefthookJobs.replace("ralph_hook=", "true; ralph_hook="), /rewrites ralph's pre-push entry/],
    [
      "lefthook jobs: ralph's job skipped",
      ".lefthook.yml",
      lefthookJobs,
      lefthookJobs.replace("      use_stdin: true\n", "      use_stdin: true\n      skip: true\n"),
      /rewrites ralph's pre-push entry/,
    ],
    ["lefthook: the whole pre-push hook skipped", "lefthook.yaml", lefthookJobs, `${lefthookJobs}  skip: true\n`, /sets skip on the pre-push hook/],
    ["lefthook commands: ralph's command removed", "lefthook-local.yml", lefthookCommands, "pre-push:\n  commands:\n    lint:\n      run: npm run lint\n", /removes ralph's pre-push entry/],
    ["lefthook: made invalid YAML", ".config/lefthook.yml", lefthookJobs, "pre-push: [unclosed\n", /unreadable/],
    ["pre-commit: ralph's hook moved off the pre-push stage", ".pre-commit-config.yaml", preCommit, preCommit.replace("stages: [pre-push]", "stages: [manual]"), /rewrites ralph's pre-push entry/],
    ["pre-commit: the file deleted", ".pre-commit-config.yaml", preCommit, null, /deletes the file/],
    [
      "simple-git-hooks in package.json: ralph's block cut from pre-push",
      "package.json",
      packageJson,
      JSON.stringify({ name: "x", scripts: { test: "vitest" }, "simple-git-hooks": { "pre-commit": "npx lint-staged", "pre-push": "npm test" } }, null, 2),
      /removes ralph's pre-push entry/,
    ],
    ["simple-git-hooks .simple-git-hooks.json: the pre-push key dropped", ".simple-git-hooks.json", simpleJson, "{}", /removes ralph's pre-push entry/],
    ["husky .husky/pre-push: the block deleted", ".husky/pre-push", husky, "#!/bin/sh\nnpm test\n", /removes ralph's pre-push entry/],
    ["husky .husky/pre-push: an exit 0 put inside the block", ".husky/pre-push", husky, husky.replace("ralph_in=$(mktemp)", "exit 0; ralph_in=$(mktemp)"), /rewrites ralph's pre-push entry/],
    [
      "lefthook-local.yml: a new file overriding ralph's job by name (lefthook merges it over lefthook.yml)",
      "lefthook-local.yml",
      null,
      `pre-push:\n  jobs:\n    - name: ${ENTRY_ID}\n      skip: true\n`,
      /overrides ralph's ralph-pre-push job/,
    ],
    [
      "lefthook-local.yml: ralph's command replaced by name",
      ".lefthook-local.yml",
      "pre-commit:\n  jobs:\n    - run: npm run fmt\n",
      `pre-commit:\n  jobs:\n    - run: npm run fmt\npre-push:\n  commands:\n    ${ENTRY_ID}:\n      run: "true"\n`,
      /overrides ralph's ralph-pre-push job/,
    ],
    [
      "lefthook-local.yml: the whole pre-push hook skipped",
      "lefthook-local.yml",
      "pre-commit:\n  jobs:\n    - run: npm run fmt\n",
      "pre-commit:\n  jobs:\n    - run: npm run fmt\npre-push:\n  skip: true\n",
      /sets skip on the pre-push hook/,
    ],
  ])("%s is a change", async (_name, path, before, after, pattern) => {
    expect(await describeHookManagerChange(path, before, after)).toMatch(pattern);
  });

  it.each([
    ["lefthook: a job of your own added", "lefthook.yml", lefthookJobs, `${lefthookJobs}pre-commit:\n  jobs:\n    - run: npm run fmt\n`],
    ["lefthook: another pre-push job edited", "lefthook.yml", lefthookJobs, lefthookJobs.replace("npm run lint", "npm run lint -- --quiet")],
    ["lefthook: re-indented, same content", "lefthook.yml", lefthookCommands, lefthookCommands.replace(/^ {2}/gm, "    ")],
    ["pre-commit: another repo added", ".pre-commit-config.yaml", preCommit, `${preCommit}  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n`],
    ["package.json: a script and a dependency changed", "package.json", packageJson, packageJson.replace('"test": "vitest"', '"test": "vitest run", "lint": "eslint ."')],
    ["package.json: the user's part of pre-push changed", "package.json", packageJson, packageJson.replace("\\nnpm test", "\\nnpm test && npm run lint")],
    ["husky: a line added after the block", ".husky/pre-push", husky, `${husky}npm run lint\n`],
    ["a file without ralph's entry deleted", "lefthook.yml", "pre-push:\n  jobs:\n    - run: npm test\n", null],
    ["package.json without simple-git-hooks rewritten", "package.json", '{"name": "x"}', "{}"],
    ["lefthook-local.yml: a job of your own", "lefthook-local.yml", null, "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n"],
  ])("%s is no change", async (_name, path, before, after) => {
    expect(await describeHookManagerChange(path, before, after)).toBeNull();
  });

  it("names every file and variant lefthook, pre-commit, simple-git-hooks and husky read; with the work tree, only while it holds ralph's entry", async () => {
    for (const path of [
      "lefthook.yml",
      ".lefthook.yml",
      "lefthook.yaml",
      ".lefthook.yaml",
      "lefthook-local.yml",
      ".lefthook-local.yml",
      "lefthook-local.yaml",
      ".lefthook-local.yaml",
      ".config/lefthook.yml",
      ".config/lefthook-local.yaml",
      ".pre-commit-config.yaml",
      ".pre-commit-config.yml",
      "package.json",
      ".simple-git-hooks.json",
      ".simple-git-hooks.cjs",
      ".simple-git-hooks.js",
      "simple-git-hooks.json",
      ".husky/pre-push",
    ]) {
      expect(controlKindOf(path), path).toBe("hook-manager");
    }
    expect(controlKindOf(".husky/_/h")).toBe("git-hook");
    expect(controlKindOf("src/package.json")).toBeNull();
    expect(controlKindOf(".husky/pre-commit")).toBeNull();
    const root = makeRepo({ "package.json": '{"name": "x"}\n', "lefthook.yml": lefthookJobs, ".husky/pre-push": "npm test\n", ".husky/_/h": "#!/bin/sh\n" });
    expect(controlKindOf("package.json", { workTree: root })).toBeNull();
    expect(controlKindOf("lefthook.yml", { workTree: root })).toBe("hook-manager");
    expect(controlKindOf(".husky/_/h", { workTree: root })).toBeNull();
    expect(holdsControlSurface(".husky", { workTree: root })).toBe(false);
    // lefthook.yml holds ralph's job, so its local file (merged over it) counts, though it holds none itself.
    expect(controlKindOf("lefthook-local.yml", { workTree: root })).toBe("hook-manager");
    expect(controlKindOf(".pre-commit-config.yaml", { workTree: root })).toBeNull();
    writeFileSync(join(root, ".husky", "pre-push"), husky);
    expect(controlKindOf(".husky/_/h", { workTree: root })).toBe("git-hook");
    expect(holdsControlSurface(".husky", { workTree: root })).toBe(true);
  });
});

/** A repository whose pre-push guard ralph registered through a hook manager (`setup` makes the manager's files), with a running loop. */
async function managedRepo(files: Record<string, string>, setup: (root: string) => void = () => undefined): Promise<string> {
  const root = makeRepo({ "src/math.ts": "export const add = (a: number, b: number) => a + b;\n", ...files });
  setup(root);
  const install = await runRalphInProcess(root, ["install", "--claude", "--git-hooks"]);
  expect(install.status, install.stderr).toBe(0);
  expect((await runRalphInProcess(root, ["start", "Keep add working", "--completion", "true", "--id", "work"])).status).toBe(0);
  return root;
}

describe("PreToolUse: the hook managers' files holding ralph's entry", () => {
  const MANAGERS: { name: string; file: string; files: Record<string, string>; setup?: (root: string) => void; keep: (text: string) => string; drop: (text: string) => string }[] = [
    {
      name: "lefthook (lefthook.yml)",
      file: "lefthook.yml",
      files: { "lefthook.yml": "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n" },
      keep: (text) => `${text}pre-commit:\n  jobs:\n    - run: npm run fmt\n`,
      drop: () => "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n",
    },
    {
      name: "pre-commit (.pre-commit-config.yaml)",
      file: ".pre-commit-config.yaml",
      files: { ".pre-commit-config.yaml": "repos: []\n" },
      keep: (text) => `${text}# reviewed\n`,
      drop: () => "repos: []\n",
    },
    {
      name: "simple-git-hooks (package.json)",
      file: "package.json",
      files: { "package.json": `${JSON.stringify({ name: "x", scripts: { test: "vitest" }, "simple-git-hooks": { "pre-push": "npm test" } }, null, 2)}\n` },
      keep: (text) => text.replace('"test": "vitest"', '"test": "vitest run"'),
      drop: () => `${JSON.stringify({ name: "x", scripts: { test: "vitest" }, "simple-git-hooks": { "pre-push": "npm test" } }, null, 2)}\n`,
    },
    {
      name: "husky (.husky/pre-push)",
      file: ".husky/pre-push",
      files: { ".husky/pre-push": "npm test\n", ".husky/_/h": "#!/usr/bin/env sh\n" },
      setup: (root) => git(root, ["config", "core.hooksPath", ".husky/_"]),
      keep: (text) => `${text}npm run lint\n`,
      drop: () => "npm test\n",
    },
  ];
  for (const m of MANAGERS) {
    it(`${m.name}: a write keeping ralph's entry is allowed; one dropping it, rm, mv and a redirection over it are asked`, async () => {
      const root = await managedRepo(m.files, m.setup);
      const path = join(root, m.file);
      const installed = readFileSync(path, "utf8");
      expect(installed).toContain("/ralph/hooks/pre-push");
      expect(decisionOf(await pre(root, "Write", { file_path: path, content: m.keep(installed) }))).not.toBe("ask");
      const dropped = await pre(root, "Write", { file_path: path, content: m.drop(installed) });
      expect(decisionOf(dropped)).toBe("ask");
      expect(reasonOf(dropped)).toMatch(/removes ralph's pre-push entry/);
      for (const command of [`rm ${m.file}`, `mv ${m.file} ${m.file}.bak`, `echo '' > ${m.file}`, `sed -i 's/ralph_hook/x/' ${m.file}`]) {
        const answer = await pre(root, "Bash", { command });
        expect(decisionOf(answer), command).toBe("ask");
        expect(reasonOf(answer), command).toMatch(/hook manager's file holding ralph's pre-push entry/);
      }
      expect(readFileSync(path, "utf8")).toBe(installed);
    });
  }

  it("husky's generated .husky/_ (its h runs .husky/pre-push) is asked while .husky/pre-push holds ralph's entry", async () => {
    const root = await managedRepo({ ".husky/pre-push": "npm test\n", ".husky/_/h": "#!/usr/bin/env sh\n" }, (r) => git(r, ["config", "core.hooksPath", ".husky/_"]));
    expect(decisionOf(await pre(root, "Write", { file_path: join(root, ".husky", "_", "h"), content: "exit 0\n" }))).toBe("ask");
    expect(decisionOf(await pre(root, "Bash", { command: "rm -rf .husky" }))).toBe("ask");
    expect(decisionOf(await pre(root, "Bash", { command: "rm -rf .husky/_" }))).toBe("ask");
  });

  it("a manager's file that does not hold ralph's entry is no part of the guard (ralph registered elsewhere)", async () => {
    const root = await managedRepo({ "lefthook.yml": "pre-push:\n  jobs:\n    - run: npm test\n", ".pre-commit-config.yaml": "repos: []\n" });
    expect(readFileSync(join(root, ".pre-commit-config.yaml"), "utf8")).not.toContain("/ralph/hooks/pre-push");
    expect(decisionOf(await pre(root, "Bash", { command: "rm .pre-commit-config.yaml" }))).not.toBe("ask");
    expect(decisionOf(await pre(root, "Write", { file_path: join(root, ".pre-commit-config.yaml"), content: "repos: [] # none\n" }))).not.toBe("ask");
  });
});

describe("after the fact: a change made behind ralph's back", () => {
  it("is reported by the next hook call, keeps Stop from completing the loop until `ralph confirm`, and shows in status and doctor", async () => {
    const root = await installedRepo("true");
    // A script the agent wrote earlier drops ralph's Stop hook and marks the loop completed.
    const settingsPath = join(root, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as { hooks: Record<string, unknown> };
    delete settings.hooks.Stop;
    writeFileSync(settingsPath, JSON.stringify(settings));
    const statePath = join(root, ".aiwg", "ralph", "loops", "work", "state.json");
    const original = readFileSync(statePath, "utf8");
    writeFileSync(statePath, original.replace(/"max_iterations": \d+/, '"max_iterations": 200'));

    const next = await pre(root, "Read", { file_path: join(root, "README.md") });
    expect(next.systemMessage).toMatch(/ralph's guard was changed outside ralph/);
    expect(next.systemMessage).toContain(".claude/settings.json: removes ralph's Stop hook");
    expect(next.systemMessage).toContain("state of loop work was changed outside ralph");
    // Reported once per new change, not on every tool call…
    expect((await pre(root, "Read", { file_path: join(root, "README.md") })).systemMessage).toBeUndefined();
    // …and on every Stop, which does not run the loop's check: the loop is not completed although `true` passes.
    const stop = await hook(root, { hook_event_name: "Stop", stop_hook_active: false }, true); // the built binary, as Claude Code calls it
    expect(stop.decision).toBeUndefined();
    expect(stop.systemMessage).toMatch(/ralph confirm/);
    expect(JSON.parse(readFileSync(statePath, "utf8")).status).toBe("running");

    const status = await runRalphInProcess(root, ["status", "--json"]);
    expect(status.status).toBe(0);
    expect(parseJsonOutput<{ guard_changes: { path: string }[] }>(status).guard_changes.map((c) => c.path)).toEqual([".claude/settings.json", ".aiwg/ralph/loops/work/state.json"]);
    expect((await runRalphInProcess(root, ["status"])).stdout).toContain("ralph confirm");
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(await runRalphInProcess(root, ["doctor", "--json"])).guard_changes).toHaveLength(2);

    // The user restores the state from ralph's copy and puts the hooks back; the loop then runs and completes.
    const confirm = await runRalphInProcess(root, ["confirm", "--restore", "--json"]);
    expect(confirm.status, confirm.stderr).toBe(0);
    expect(parseJsonOutput<{ restored: string[] }>(confirm).restored).toEqual([".aiwg/ralph/loops/work/state.json"]);
    expect(readFileSync(statePath, "utf8")).toBe(original);
    expect((await runRalphInProcess(root, ["install", "--claude"])).status).toBe(0);
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(await runRalphInProcess(root, ["status", "--json"])).guard_changes).toEqual([]);
    const after = await hook(root, { hook_event_name: "Stop", stop_hook_active: false });
    expect(after.systemMessage).toBeUndefined();
    expect(JSON.parse(readFileSync(statePath, "utf8")).status).toBe("completed");
  });

  it("`ralph iterate` (a shell-driven loop) holds while a change is pending, as Stop does: no check runs, exit 2, the loop completes only after `ralph confirm`", async () => {
    const root = await installedRepo("true");
    const statePath = join(root, ".aiwg", "ralph", "loops", "work", "state.json");
    const original = readFileSync(statePath, "utf8");
    // A script rewrites the loop's limit and drops ralph's Stop hook behind ralph's back.
    writeFileSync(statePath, original.replace(/"max_iterations": \d+/, '"max_iterations": 200'));
    const settingsPath = join(root, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as { hooks: Record<string, unknown> };
    delete settings.hooks.Stop;
    writeFileSync(settingsPath, JSON.stringify(settings));

    for (let attempt = 0; attempt < 2; attempt++) {
      const held = await runRalphInProcess(root, ["iterate", "--json"]);
      expect(held.status, held.stdout).toBe(2);
      expect(held.stderr).toMatch(/ralph's guard was changed outside ralph/);
      expect(held.stderr).toContain("ralph confirm");
      expect(held.stderr).toContain(".claude/settings.json: removes ralph's Stop hook");
      const data = JSON.parse(held.stdout) as { error: { data: { held: string; status: string; guard_changes: unknown[] } } };
      expect(data.error.data.held).toBe("guard");
      expect(data.error.data.status).toBe("running");
      expect(data.error.data.guard_changes).toHaveLength(2);
      // The completion command (`true`) did not run: the loop is neither completed nor one iteration further.
      const state = JSON.parse(readFileSync(statePath, "utf8")) as { status: string; iteration: number };
      expect(state.status).toBe("running");
      expect(state.iteration).toBe(0);
    }

    expect((await runRalphInProcess(root, ["confirm", "--restore"])).status).toBe(0);
    expect(readFileSync(statePath, "utf8")).toBe(original);
    const done = await runRalphInProcess(root, ["iterate", "--json"]);
    expect(done.status).toBe(2);
    expect(done.stderr).not.toMatch(/guard was changed/);
    expect(JSON.parse(readFileSync(statePath, "utf8")).status).toBe("completed");
  });

  it("a deleted loop state (rm -rf .aiwg) and a removed pre-push hook are noticed; status says the copy can restore it", async () => {
    const root = await installedRepo("false");
    rmSync(join(root, ".aiwg"), { recursive: true, force: true });
    rmSync(join(root, ".git", "hooks", "pre-push"));
    const status = await runRalphInProcess(root, ["status", "--loop", "work"]);
    expect(status.status).toBe(2);
    expect(status.stderr).toContain("ralph confirm --restore");
    const doctor = parseJsonOutput<{ guard_changes: { detail: string }[] }>(await runRalphInProcess(root, ["doctor", "--json"]));
    expect(doctor.guard_changes.map((c) => c.detail).join("\n")).toMatch(/pre-push hook ralph installed was removed[\s\S]*state of loop work was deleted[\s\S]*active loop mark/);
    expect((await runRalphInProcess(root, ["confirm", "--restore"])).status).toBe(0);
    expect(JSON.parse(readFileSync(join(root, ".aiwg", "ralph", "loops", "work", "state.json"), "utf8")).loop_id).toBe("work");
    expect(readFileSync(join(root, ".aiwg", "ralph", "active"), "utf8").trim()).toBe("work");
    expect((await runRalphInProcess(root, ["status"])).status).toBe(0);
  });

  it("a change the user allowed when PreToolUse asked is accepted at its PostToolUse, not reported; a hook made non-executable is", async () => {
    const root = await installedRepo("false");
    const local = join(root, ".claude", "settings.local.json");
    expect(decisionOf(await pre(root, "Write", { file_path: local, content: '{ "disableAllHooks": true }\n' }, "toolu_allowed"))).toBe("ask");
    writeFileSync(local, '{ "disableAllHooks": true }\n'); // the user said yes: the tool ran
    const post = await hook(root, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: local, content: "" }, tool_response: {}, tool_use_id: "toolu_allowed" });
    expect(post.systemMessage).toBeUndefined();
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(await runRalphInProcess(root, ["status", "--json"])).guard_changes).toEqual([]);
    chmodSync(join(root, ".git", "hooks", "pre-push"), 0o644);
    expect((await pre(root, "Read", { file_path: join(root, "README.md") })).systemMessage).toMatch(/no longer executable/);
    const kept = await runRalphInProcess(root, ["confirm", "--json"]);
    expect(parseJsonOutput<{ changes: unknown[] }>(kept).changes).toHaveLength(1);
    expect((await pre(root, "Read", { file_path: join(root, "README.md") })).systemMessage).toBeUndefined();
  });

  it("a hook manager's file losing ralph's entry behind ralph's back is reported (lefthook, simple-git-hooks); an edit keeping it is not; a lefthook-local skip is", async () => {
    const lefthook = await managedRepo({ "lefthook.yml": "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n" });
    const config = join(lefthook, "lefthook.yml");
    writeFileSync(config, `${readFileSync(config, "utf8")}pre-commit:\n  jobs:\n    - run: npm run fmt\n`); // keeps ralph's job
    expect((await pre(lefthook, "Read", { file_path: join(lefthook, "src/math.ts") })).systemMessage).toBeUndefined();
    writeFileSync(join(lefthook, "lefthook-local.yml"), "pre-push:\n  skip: true\n"); // a script the agent wrote earlier
    expect(String((await pre(lefthook, "Read", { file_path: join(lefthook, "src/math.ts") })).systemMessage)).toMatch(/lefthook-local\.yml: sets skip on the pre-push hook/);
    writeFileSync(config, "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n");
    const doctor = parseJsonOutput<{ guard_changes: { path: string; detail: string }[] }>(await runRalphInProcess(lefthook, ["doctor", "--json"]));
    expect(doctor.guard_changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "lefthook.yml", detail: "removes ralph's pre-push entry" }), expect.objectContaining({ path: "lefthook-local.yml" })]),
    );
    // A Stop lets the session end but does not complete the loop while the change is pending (as for the settings files).
    const stop = await hook(lefthook, { hook_event_name: "Stop", stop_hook_active: false });
    expect(stop.systemMessage).toMatch(/ralph confirm/);
    expect(JSON.parse(readFileSync(join(lefthook, ".aiwg", "ralph", "loops", "work", "state.json"), "utf8")).status).toBe("running");
    expect((await runRalphInProcess(lefthook, ["confirm"])).status).toBe(0);
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(await runRalphInProcess(lefthook, ["status", "--json"])).guard_changes).toEqual([]);

    const simple = await managedRepo({ "package.json": `${JSON.stringify({ name: "x", "simple-git-hooks": { "pre-push": "npm test" } }, null, 2)}\n` });
    const manifest = join(simple, "package.json");
    writeFileSync(manifest, `${JSON.stringify({ name: "x", "simple-git-hooks": { "pre-push": "npm test" } }, null, 2)}\n`);
    const status = parseJsonOutput<{ guard_changes: { path: string; detail: string }[] }>(await runRalphInProcess(simple, ["status", "--json"]));
    expect(status.guard_changes).toEqual([expect.objectContaining({ path: "package.json", detail: "removes ralph's pre-push entry" })]);
  });

  it("ralph's own writes (install, start, Stop, uninstall) are never reported", async () => {
    const root = await installedRepo("false");
    await hook(root, { hook_event_name: "Stop", stop_hook_active: false });
    expect((await runRalphInProcess(root, ["cancel"])).status).toBe(0);
    expect((await runRalphInProcess(root, ["start", "Another", "--completion", "false", "--id", "other"])).status).toBe(0);
    expect((await runRalphInProcess(root, ["uninstall", "--git-hooks"])).status).toBe(0);
    expect(existsSync(join(root, ".git", "hooks", "pre-push"))).toBe(false);
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(await runRalphInProcess(root, ["status", "--json"])).guard_changes).toEqual([]);
    expect((await pre(root, "Read", { file_path: join(root, "README.md") })).systemMessage).toBeUndefined();
  });
});
