/**
 * `ralph install --git-hooks` beside real hook managers: husky, lefthook
 * and simple-git-hooks are installed from the npm registry (pinned below,
 * `--ignore-scripts` so lefthook's and simple-git-hooks' postinstall never
 * touch a repository by themselves) into a temporary folder outside the
 * project; pre-commit is the one on PATH (Debian's package: .ci/run
 * installs it). Each case builds a repository with a bare remote, lets the
 * manager install its hook, installs ralph, and shows with a real `git
 * push` that the user's own pre-push step and ralph both run, that ralph
 * got the ref lines (it judges refs/heads/main and refuses a push that
 * deletes a test), that doctor names the manager and answers through it,
 * that a second install changes nothing, and that uninstall puts every
 * file back byte for byte. ralph's own commands run in-process (install
 * writes hooks that run the built binary); every push is a real `git push`
 * that runs the real hooks.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonOutput, ralphEnv, runRalphInProcess } from "../helpers/cli.js";
import { git, makeRepo, makeTempDir } from "../helpers/git.js";
import { detectHookManager, installThroughManager, preCommitStage, removeBlock, shellBlock, uninstallThroughManager, ENTRY_ID, BLOCK_BEGIN } from "../../src/hooks/git-hook-managers.js";
import { openRepository } from "../../src/store/repo.js";

/** The manager versions the tests install (npm). */
const PACKAGES = ["husky@9.1.7", "lefthook@2.2.2", "simple-git-hooks@2.14.0"];

let packagesDir = "";

beforeAll(() => {
  packagesDir = realpathSync(mkdtempSync(join(tmpdir(), "ralph-managers-")));
  writeFileSync(join(packagesDir, "package.json"), '{"name":"ralph-manager-fixtures","private":true}\n');
  const result = spawnSync("npm", ["install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", ...PACKAGES], {
    cwd: packagesDir,
    encoding: "utf8",
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`npm install ${PACKAGES.join(" ")} failed (the registry or the npm cache is needed): ${result.stderr}`);
}, 200_000);

afterAll(() => {
  if (packagesDir) rmSync(packagesDir, { recursive: true, force: true });
});

const TESTS_BEFORE = `import { expect, it } from "vitest";
it("adds numbers", () => {
  expect(1 + 1).toBe(2);
});
it("keeps the sign", () => {
  expect(-1 * 1).toBe(-1);
});
`;
const TESTS_AFTER = `import { expect, it } from "vitest";
it("adds numbers", () => {
  expect(1 + 1).toBe(2);
});
`;

/** The environment of git pushes and manager commands: the test git env, the managers' bins on PATH, a private pre-commit cache. */
function managerEnv(root: string): NodeJS.ProcessEnv {
  return { ...ralphEnv, PATH: `${join(packagesDir, "node_modules", ".bin")}:${process.env.PATH ?? ""}`, PRE_COMMIT_HOME: join(root, "..", "pre-commit-home"), CI: "" };
}

function run(root: string, command: string, args: string[]): string {
  return execFileSync(command, args, { cwd: root, env: managerEnv(root), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

/** A repository (with `files`) whose bare remote `origin` already has `main`, and the managers' node_modules linked in. */
function makeSetup(files: Record<string, string>): { root: string; remote: string } {
  const root = makeRepo({ "test/math.test.ts": TESTS_BEFORE, "src/math.ts": "export const add = (a: number, b: number) => a + b;\n", ".gitignore": "node_modules\n", ...files });
  symlinkSync(join(packagesDir, "node_modules"), join(root, "node_modules"));
  const remote = join(makeTempDir("ralph-remote-"), "remote.git");
  git(root, ["init", "-q", "--bare", remote]);
  git(root, ["remote", "add", "origin", remote]);
  git(root, ["push", "-q", "origin", "main"]);
  return { root, remote };
}

function push(root: string): { status: number | null; output: string } {
  const result = spawnSync("git", ["push", "origin", "main"], { cwd: root, env: managerEnv(root), encoding: "utf8", timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function remoteMain(remote: string): string {
  return execFileSync("git", ["--git-dir", remote, "rev-parse", "main"], { env: ralphEnv, encoding: "utf8" }).trim();
}

/** A user's own pre-push step: prints a marker and the first ref line it read (the shell forms: husky, simple-git-hooks, lefthook). */
const USER_STEP = `echo "user-step: $(head -n 1)" >&2`;

interface Case {
  name: string;
  files: Record<string, string>;
  /** Installs the manager's hook into the repository. */
  setUp(root: string): void;
  /** The files ralph may edit, compared byte for byte after uninstall. */
  watched: string[];
  /** Whether the user's step sees git's ref lines too (pre-commit hands stdin to no hook). */
  userSeesRefLines: boolean;
  /** Re-runs the manager after ralph changed its config, when it needs that (simple-git-hooks), or commits the config (pre-commit runs only with its config staged). */
  rerun?(root: string): void;
}

const CASES: Case[] = [
  {
    name: "husky v9",
    files: { "package.json": '{\n  "name": "app",\n  "private": true\n}\n' },
    setUp(root) {
      run(root, "husky", []);
      writeFileSync(join(root, ".husky", "pre-push"), `${USER_STEP}\n`);
    },
    watched: [".husky/pre-push", "package.json"],
    userSeesRefLines: true,
  },
  {
    name: "lefthook",
    files: { "lefthook.yml": `# the team's hooks\npre-push:\n  jobs:\n    - name: user-step\n      run: '${USER_STEP}'\n      use_stdin: true\n` },
    setUp(root) {
      run(root, "lefthook", ["install"]);
    },
    watched: ["lefthook.yml"],
    userSeesRefLines: true,
  },
  {
    name: "simple-git-hooks (package.json)",
    files: { "package.json": `{\n  "name": "app",\n  "simple-git-hooks": {\n    "pre-push": ${JSON.stringify(USER_STEP)}\n  }\n}\n` },
    setUp(root) {
      run(root, "simple-git-hooks", []);
    },
    watched: ["package.json"],
    userSeesRefLines: true,
    rerun(root) {
      run(root, "simple-git-hooks", []);
    },
  },
  {
    name: "pre-commit",
    files: {
      ".pre-commit-config.yaml": `# the team's hooks\nrepos:\n  - repo: local\n    hooks:\n      - id: user-step\n        name: user-step\n        entry: "sh -c 'echo user-step: $PRE_COMMIT_TO_REF >&2'"\n        language: system\n        stages: [${preCommitStage(preCommitVersion())}]\n        pass_filenames: false\n        always_run: true\n        verbose: true\n`,
    },
    setUp(root) {
      run(root, "pre-commit", ["install", "--hook-type", "pre-push"]);
    },
    watched: [".pre-commit-config.yaml"],
    userSeesRefLines: false,
    rerun(root) {
      git(root, ["add", ".pre-commit-config.yaml"]);
      git(root, ["commit", "-q", "-m", "pre-commit config"]);
    },
  },
];

function preCommitVersion(): string | null {
  const result = spawnSync("pre-commit", ["--version"], { encoding: "utf8" });
  return result.status === 0 ? (/(\d+\.\d+\.\d+)/.exec(result.stdout)?.[1] ?? null) : null;
}

describe("ralph beside a hook manager (real managers, real git push)", () => {
  it("pre-commit is installed (Debian's package; .ci/run installs it)", async () => {
    expect(preCommitVersion(), "pre-commit is not on PATH: apt-get install pre-commit").not.toBeNull();
  });

  for (const c of CASES) {
    it(`${c.name}: both run on a push, ralph gets the ref lines and refuses a deleted test; doctor answers through the manager; uninstall restores every file`, async () => {
      const { root, remote } = makeSetup(c.files);
      c.setUp(root);
      const before = new Map(c.watched.map((path) => [path, existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null]));

      const installed = await runRalphInProcess(root, ["install", "--git-hooks", "--json"], { env: managerEnv(root) });
      expect(installed.status, installed.stderr).toBe(0);
      const report = parseJsonOutput<{ git_hooks: { manager: string; changed: boolean } }>(installed);
      expect(report.git_hooks.manager).toBe(c.name.split(" ")[0]);
      c.rerun?.(root);
      const afterInstall = new Map(c.watched.map((path) => [path, existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null]));
      const again = parseJsonOutput<{ git_hooks: { changed: boolean } }>(await runRalphInProcess(root, ["install", "--git-hooks", "--json"], { env: managerEnv(root) }));
      expect(again.git_hooks.changed).toBe(false);
      for (const [path, text] of afterInstall) expect(existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null, path).toBe(text);

      const doctor = parseJsonOutput<{ git_hooks: { manager: string; status: string; detail: string } }>(await runRalphInProcess(root, ["doctor", "--json"], { env: managerEnv(root) }));
      expect(doctor.git_hooks.manager).toBe(report.git_hooks.manager);
      expect(doctor.git_hooks.status, doctor.git_hooks.detail).toBe("ok");

      // A harmless change goes through; both steps ran and both saw the update.
      writeFileSync(join(root, "README.md"), "# app\n");
      git(root, ["add", "README.md"]);
      git(root, ["commit", "-q", "-m", "readme"]);
      const head = git(root, ["rev-parse", "HEAD"]).trim();
      const ok = push(root);
      expect(ok.status, ok.output).toBe(0);
      expect(ok.output).toMatch(/ralph: pre-push origin: refs\/heads\/main: PASS/);
      expect(ok.output).toContain(c.userSeesRefLines ? `user-step: refs/heads/main ${head} refs/heads/main` : `user-step: ${head}`);
      expect(remoteMain(remote)).toBe(head);

      // A change that deletes a test is refused.
      writeFileSync(join(root, "test", "math.test.ts"), TESTS_AFTER);
      git(root, ["commit", "-q", "-am", "simplify the tests"]);
      const refused = push(root);
      expect(refused.status, refused.output).not.toBe(0);
      expect(refused.output).toMatch(/ralph: pre-push origin: refs\/heads\/main: BLOCK/);
      expect(refused.output).toContain("test_deletion");
      expect(remoteMain(remote)).toBe(head);

      const removed = await runRalphInProcess(root, ["uninstall", "--git-hooks", "--json"], { env: managerEnv(root) });
      expect(removed.status, removed.stderr).toBe(0);
      for (const [path, text] of before) expect(existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null, path).toBe(text);
      expect(existsSync(join(root, ".git", "ralph", "hooks", "pre-push"))).toBe(false);
      c.rerun?.(root);
      const after = push(root);
      expect(after.status, after.output).toBe(0);
      expect(after.output).not.toContain("ralph: pre-push");
      expect(after.output).toContain("user-step");
    }, 120_000);
  }

  it("--manager none beside husky: husky's own hook, chained as pre-push.ralph-chained, still finds .husky/pre-push by $0", async () => {
    const { root, remote } = makeSetup(CASES[0]!.files);
    CASES[0]!.setUp(root);
    const installed = await runRalphInProcess(root, ["install", "--git-hooks", "--manager", "none", "--json"], { env: managerEnv(root) });
    expect(installed.status, installed.stderr).toBe(0);
    expect(existsSync(join(root, ".husky", "_", "pre-push.ralph-chained"))).toBe(true);
    writeFileSync(join(root, "README.md"), "# app\n");
    git(root, ["add", "README.md"]);
    git(root, ["commit", "-q", "-m", "readme"]);
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    const ok = push(root);
    expect(ok.status, ok.output).toBe(0);
    expect(ok.output).toContain(`user-step: refs/heads/main ${head} refs/heads/main`);
    expect(ok.output).toMatch(/ralph: pre-push origin: refs\/heads\/main: PASS/);
    expect(remoteMain(remote)).toBe(head);
  }, 120_000);

  it("doctor fails, naming the manager's own step, when git does not reach ralph's entry; install says what to run", async () => {
    // lefthook.yml is there, lefthook's hook is not installed.
    const lefthook = makeSetup(CASES[1]!.files);
    const installed = parseJsonOutput<{ git_hooks: { manager: string; notes: string[] } }>(
      await runRalphInProcess(lefthook.root, ["install", "--git-hooks", "--json"], { env: managerEnv(lefthook.root) }),
    );
    expect(installed.git_hooks.manager).toBe("lefthook");
    expect(installed.git_hooks.notes.join(" ")).toContain("lefthook install");
    const doctor = await runRalphInProcess(lefthook.root, ["doctor", "--json"], { env: managerEnv(lefthook.root) });
    expect(doctor.status).toBe(2);
    expect(parseJsonOutput<{ git_hooks: { status: string; detail: string } }>(doctor).git_hooks).toMatchObject({ status: "failed", detail: expect.stringContaining("lefthook install") });
    run(lefthook.root, "lefthook", ["install"]);
    expect(parseJsonOutput<{ git_hooks: { status: string } }>(await runRalphInProcess(lefthook.root, ["doctor", "--json"], { env: managerEnv(lefthook.root) })).git_hooks.status).toBe("ok");

    // simple-git-hooks wrote .git/hooks/pre-push before ralph's entry was added, and was not run again.
    const simple = makeSetup(CASES[2]!.files);
    CASES[2]!.setUp(simple.root);
    expect((await runRalphInProcess(simple.root, ["install", "--git-hooks"], { env: managerEnv(simple.root) })).status).toBe(0);
    const stale = parseJsonOutput<{ git_hooks: { manager: string; status: string; detail: string } }>(await runRalphInProcess(simple.root, ["doctor", "--json"], { env: managerEnv(simple.root) }));
    expect(stale.git_hooks).toMatchObject({ manager: "simple-git-hooks", status: "failed", detail: expect.stringContaining("npx simple-git-hooks") });
  }, 120_000);

  it("a clone where ralph is not installed (the manager's config is committed) lets the push through with one line", async () => {
    const { root } = makeSetup(CASES[1]!.files);
    run(root, "lefthook", ["install"]);
    expect((await runRalphInProcess(root, ["install", "--git-hooks"], { env: managerEnv(root) })).status).toBe(0);
    rmSync(join(root, ".git", "ralph", "hooks"), { recursive: true, force: true });
    writeFileSync(join(root, "test", "math.test.ts"), TESTS_AFTER);
    git(root, ["commit", "-q", "-am", "simplify the tests"]);
    const result = push(root);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain("ralph: pre-push: not checked: ralph is not installed in this clone");
  }, 120_000);
});

describe("hook manager detection and edits (unit)", () => {
  it("detects by core.hooksPath, the hook file's text, then the config files; none otherwise", async () => {
    const root = makeRepo({ "README.md": "x\n" });
    const detect = () => detectHookManager(openRepository(root)).manager;
    expect(detect()).toBe("none");
    writeFileSync(join(root, "lefthook.yml"), "pre-commit:\n");
    expect(detect()).toBe("lefthook");
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    writeFileSync(join(root, ".git", "hooks", "pre-push"), "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n# ID: 138fd403232d2ddd5efb44317e38bf03\n");
    expect(detect()).toBe("pre-commit");
    writeFileSync(join(root, ".git", "hooks", "pre-push"), "#!/bin/sh\necho mine\n");
    expect(detect()).toBe("none");
    git(root, ["config", "core.hooksPath", ".husky/_"]);
    expect(detect()).toBe("husky");
  });

  it("the shell block comes out exactly as it went in, shebang kept first", async () => {
    for (const text of ["echo one\n", "#!/bin/sh\necho one\n", "#!/bin/sh", ""]) {
      const withBlock = text.startsWith("#!") ? text.replace(/^(#![^\n]*\n?)/, (m) => `${m.endsWith("\n") ? m : `${m}\n`}${shellBlock()}\n`) : `${shellBlock()}\n${text}`;
      expect(removeBlock(withBlock)).toBe(text.startsWith("#!") && !text.endsWith("\n") ? `${text}\n` : text);
    }
  });

  it("husky: a second install leaves the file as it is (the block stays after the shebang); uninstall gives the bytes back", async () => {
    const original = "#!/bin/sh\necho mine\n";
    const root = makeRepo({ ".husky/pre-push": original });
    git(root, ["config", "core.hooksPath", ".husky/_"]);
    const repo = openRepository(root);
    const path = join(root, ".husky", "pre-push");
    expect((await installThroughManager(repo, detectHookManager(repo), "/usr/bin/node", "/opt/ralph/dist/cli.js")).changed).toBe(true);
    const once = readFileSync(path, "utf8");
    expect(once.startsWith(`#!/bin/sh\n${BLOCK_BEGIN}\n`)).toBe(true);
    expect(once.endsWith("\necho mine\n")).toBe(true);
    expect((await installThroughManager(repo, detectHookManager(repo), "/usr/bin/node", "/opt/ralph/dist/cli.js")).changed).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(once);
    // Another machine's paths change only the runner, never the shared file.
    expect((await installThroughManager(repo, detectHookManager(repo), "/other/node", "/other/cli.js")).changed).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(once);
    await uninstallThroughManager(repo);
    expect(readFileSync(path, "utf8")).toBe(original);
  });

  const EDITED_CASES: { name: string; file: string; text: string; edit: (text: string) => string; holds: (text: string) => boolean }[] = [
    {
      name: "lefthook, the older commands: map",
      file: "lefthook.yml",
      text: "pre-push:\n  commands:\n    lint:\n      run: npm run lint\n",
      edit: (text) => `${text}# added by a teammate\n`,
      holds: (text) => text.includes(`${ENTRY_ID}:`) && text.includes("use_stdin: true"),
    },
    {
      name: "lefthook, jobs",
      file: "lefthook.yml",
      text: "pre-push:\n  jobs:\n    - name: lint\n      run: npm run lint\n",
      edit: (text) => text.replace("npm run lint", "npm run lint -- --fix"),
      holds: (text) => text.indexOf(ENTRY_ID) < text.indexOf("lint") && text.includes("use_stdin: true"),
    },
    {
      name: "pre-commit",
      file: ".pre-commit-config.yaml",
      text: "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.0.0\n    hooks:\n      - id: trailing-whitespace\n",
      edit: (text) => `${text}# a note\n`,
      holds: (text) => text.includes(`id: ${ENTRY_ID}`) && text.includes("repo: local") && text.includes("pass_filenames: false"),
    },
    {
      name: "simple-git-hooks, .simple-git-hooks.json",
      file: ".simple-git-hooks.json",
      text: '{\n    "pre-commit": "npx lint-staged",\n    "pre-push": "npm test"\n}\n',
      edit: (text) => text.replace("npx lint-staged", "npx lint-staged --quiet"),
      holds: (text) => (JSON.parse(text) as Record<string, string>)["pre-push"] === `${shellBlock()}\nnpm test`,
    },
  ];
  for (const c of EDITED_CASES) {
    it(`${c.name}: ralph's entry is added, once; a file edited since install loses only ralph's entry`, async () => {
      const root = makeRepo({ [c.file]: c.text });
      const repo = openRepository(root);
      const path = join(root, c.file);
      const first = await installThroughManager(repo, detectHookManager(repo), "/usr/bin/node", "/opt/ralph/dist/cli.js", { preCommitVersion: "3.5.0" });
      expect(first.file).toBe(path);
      const installed = readFileSync(path, "utf8");
      expect(c.holds(installed), installed).toBe(true);
      expect((await installThroughManager(repo, detectHookManager(repo), "/usr/bin/node", "/opt/ralph/dist/cli.js", { preCommitVersion: "3.5.0" })).changed).toBe(false);
      writeFileSync(path, c.edit(installed));
      const removed = await uninstallThroughManager(repo);
      expect(removed.edited).toEqual([path]);
      expect(readFileSync(path, "utf8")).toBe(c.edit(c.text));
    });
  }

  it("a config ralph cannot read or does not write is refused with what to do; the file is untouched", async () => {
    for (const [file, text, pattern] of [
      ["lefthook.yml", "pre-push: [unclosed\n", /not valid YAML/],
      [".simple-git-hooks.js", "module.exports = { 'pre-push': 'npm test' };\n", /does not edit \(it is code\)/],
      ["lefthook.toml", "[pre-push]\n", /does not edit/],
    ] as const) {
      const root = makeRepo({ [file]: text });
      const repo = openRepository(root);
      await expect(installThroughManager(repo, detectHookManager(repo), "/usr/bin/node", "/opt/ralph/dist/cli.js")).rejects.toMatchObject({ code: "E_USAGE", message: expect.stringMatching(pattern) });
      expect(readFileSync(join(root, file), "utf8")).toBe(text);
    }
  });

  it("pre-commit's stage name: push before 3.2, pre-push since", async () => {
    expect(preCommitStage("3.0.4")).toBe("push");
    expect(preCommitStage("2.21.0")).toBe("push");
    expect(preCommitStage("3.2.0")).toBe("pre-push");
    expect(preCommitStage("4.0.1")).toBe("pre-push");
    expect(preCommitStage(null)).toBe("pre-push");
  });

  it("a core.hooksPath from the global config is not written into without --global", async () => {
    const root = makeRepo({ "README.md": "x\n" });
    const shared = makeTempDir("ralph-global-hooks-");
    const globalConfig = join(makeTempDir("ralph-gitconfig-"), "gitconfig");
    writeFileSync(globalConfig, `[core]\n\thooksPath = ${shared}\n`);
    const env = { GIT_CONFIG_GLOBAL: globalConfig };
    const refused = await runRalphInProcess(root, ["install", "--git-hooks", "--json"], { env });
    expect(refused.status).toBe(2);
    expect(existsSync(join(shared, "pre-push"))).toBe(false);
    const forced = await runRalphInProcess(root, ["install", "--git-hooks", "--global"], { env });
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(shared, "pre-push"), "utf8")).toContain("ralph-managed");
  });
});
