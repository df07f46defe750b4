/**
 * The Bash classifier as a table (STYLE.md §10): each command string with
 * the risk kinds it must yield, both directions (risky commands, and
 * harmless ones that merely look alike).
 */
import { describe, expect, it } from "vitest";
import { classifyBash, type BashContext, type BashRiskKind } from "../../src/hooks/bash-risk.js";

const risky: [command: string, kinds: BashRiskKind[]][] = [
  ["rm -rf build", ["recursive_delete"]],
  ["rm -r src", ["recursive_delete"]],
  ["rm -R -f dist", ["recursive_delete"]],
  ["rm --recursive x", ["recursive_delete"]],
  ["sudo rm -fr /tmp/x", ["recursive_delete"]],
  ["cd pkg && rm -rf node_modules", ["recursive_delete"]],
  // A case statement: the bash grammar of tree-sitter-wasms 0.1.13 threw in its scanner on every one ("unparsed").
  [`case "$1" in clean) rm -rf build;; esac`, ["recursive_delete"]],
  [`case $x in\n  a|b) git reset --hard;;\n  *) echo ok;;\nesac`, ["git_reset_hard"]],
  ["git rm src/a.ts", ["git_rm"]],
  ["git rm test/a.test.ts", ["git_rm", "test_file_delete"]],
  ["git reset --hard HEAD~1", ["git_reset_hard"]],
  ["git -C sub reset --hard", ["git_reset_hard"]],
  ["git checkout -- .", ["git_discard_changes"]],
  ["git checkout .", ["git_discard_changes"]],
  ["git restore .", ["git_discard_changes"]],
  ["git restore --worktree --staged src", ["git_discard_changes"]],
  ["git clean -fdx", ["git_clean"]],
  ["git stash drop", ["git_stash_drop"]],
  ["git stash clear", ["git_stash_drop"]],
  ["git push --force origin main", ["git_push_force"]],
  ["git push -f", ["git_push_force"]],
  ["git push --force-with-lease", ["git_push_force"]],
  ["git push origin +main", ["git_push_force"]],
  ["git commit --no-verify -m wip", ["hook_bypass"]],
  ["git commit -nm wip", ["hook_bypass"]],
  ["git commit -anm wip", ["hook_bypass"]],
  ["git push --no-verify", ["hook_bypass"]],
  ["HUSKY=0 git commit -m x", ["hook_bypass"]],
  ["export HUSKY=0; git commit -m x", ["hook_bypass"]],
  ["env HUSKY=0 git commit -m x", ["hook_bypass"]],
  ["SKIP_SIMPLE_GIT_HOOKS=1 git commit -m x", ["hook_bypass"]],
  ["LEFTHOOK=0 git commit -m x", ["hook_bypass"]],
  ["git -c core.hooksPath=/dev/null commit -m x", ["hook_bypass"]],
  ["git config core.hooksPath /dev/null", ["hook_bypass"]],
  ["sed -i '/it(\"adds\"/,/});/d' test/math.test.ts", ["test_file_write"]],
  ["sed -i.bak -e 's/toBe(3)/toBeDefined()/' src/math.test.ts", ["test_file_write"]],
  ["sed -i '' 's/a/b/' tests/test_math.py", ["test_file_write"]],
  ["perl -pi -e 's/assert/#assert/' tests/test_x.py", ["test_file_write"]],
  ["echo '' > test/math.test.ts", ["test_file_write"]],
  ["printf x >> tests/test_api.py", ["test_file_write"]],
  ["cat > test/a.test.ts <<'EOF'\nexport {};\nEOF", ["test_file_write"]],
  ["cat <<EOF > test/a.test.ts\nx\nEOF", ["test_file_write"]],
  ["echo x | tee test/a.test.ts", ["test_file_write"]],
  ["python3 -c \"open('tests/test_math.py','w').write('')\"", ["test_file_write"]],
  ["python3 - <<'PY'\nimport pathlib\npathlib.Path('tests/test_math.py').write_text('')\nPY", ["test_file_write"]],
  ["node -e \"require('fs').writeFileSync('test/a.test.ts', '')\"", ["test_file_write"]],
  ["cp /tmp/empty.ts test/a.test.ts", ["test_file_write"]],
  ["mv test/a.test.ts /tmp/", ["test_file_delete"]],
  ["rm test/a.test.ts", ["test_file_delete"]],
  ["echo x > vitest.config.ts", ["test_file_write"]],
  ["bash -c 'git reset --hard'", ["git_reset_hard"]],
  ['sh -c "HUSKY=0 git commit -m x"', ["hook_bypass"]],
  ["(cd sub; git clean -fd)", ["git_clean"]],
  ["echo $(git stash drop)", ["git_stash_drop"]],
  ["npm test || git checkout -- src/a.ts", ["git_discard_changes"]],
  ["eval 'rm -rf dist'", ["recursive_delete"]],
  // The agent deciding its own human gate, or granting itself an allowance.
  ["ralph approve", ["self_approval"]],
  ["npx ralph reject --loop l", ["self_approval"]],
  ["node /opt/ralph/dist/cli.js abort", ["self_approval"]],
  ["pnpm exec ralph approve", ["self_approval"]],
  ["yarn exec ralph confirm --restore", ["self_approval"]],
  ["ralph cancel && ralph resume", ["self_approval"]],
  ["git commit -m 'drop test' -m 'Ralph-Allow: test_deletion obsolete'", ["self_approval"]],
  ["git commit --trailer 'Ralph-Allow: test_disabled flaky' -m x", ["self_approval"]],
  ["git update-ref refs/ralph/l/baseline HEAD", ["self_approval"]],
  // Rewriting ralph's own state or config behind its back.
  ["echo '{}' > .aiwg/ralph/loops/l/state.json", ["ralph_state_write"]],
  ["rm -rf .aiwg/ralph", ["recursive_delete", "ralph_state_write"]],
  ["sed -i 's/max_retries: 3/max_retries: 10/' aiwg.yml", ["ralph_state_write"]],
  ["printf 'agent_persistence:\\n  enabled: false\\n' >> aiwg.yml", ["ralph_state_write"]],
  // Switching ralph's guard off: its agent settings, the git hook that runs it, git's hooksPath, its store and refs (issue 10).
  ["rm .claude/settings.json", ["guard_tamper"]],
  ["echo {} > .claude/settings.json", ["guard_tamper"]],
  ["printf '{\"disableAllHooks\": true}' > .claude/settings.local.json", ["guard_tamper"]],
  ["cat > .claude/settings.json <<'EOF'\n{}\nEOF", ["guard_tamper"]],
  ["jq 'del(.hooks)' .claude/settings.json | tee .claude/settings.json", ["guard_tamper"]],
  ["jq 'del(.hooks)' .claude/settings.json > /tmp/s && mv /tmp/s .claude/settings.json", ["guard_tamper"]],
  ["cp /tmp/empty.json .claude/settings.local.json", ["guard_tamper"]],
  ["sed -i '/ralph-managed/d' .claude/settings.json", ["guard_tamper"]],
  ["truncate -s 0 .claude/settings.json", ["guard_tamper"]],
  ["mv .claude/settings.json .claude/settings.json.off", ["guard_tamper"]],
  ["rm -rf .claude", ["recursive_delete", "guard_tamper"]],
  ["rm .git/hooks/pre-push", ["guard_tamper"]],
  ["chmod -x .git/hooks/pre-push", ["guard_tamper"]],
  ["chmod 644 .git/hooks/pre-push", ["guard_tamper"]],
  ["ln -sf /bin/true .git/hooks/pre-push", ["guard_tamper"]],
  ["echo 'exit 0' > .git/hooks/pre-push", ["guard_tamper"]],
  ["git config --unset core.hooksPath", ["guard_tamper"]],
  ["git config core.hooksPath /dev/null", ["hook_bypass"]],
  ["rm -rf .aiwg", ["recursive_delete", "guard_tamper"]],
  ["rm -rf .git/ralph", ["recursive_delete", "guard_tamper"]],
  ["rm -rf .git/refs/ralph", ["recursive_delete", "guard_tamper"]],
  ["node -e \"require('fs').writeFileSync('.claude/settings.json', '{}')\"", ["guard_tamper"]],
  ["python3 -c \"import os; os.remove('.git/hooks/pre-push')\"", ["guard_tamper"]],
  ["python3 - <<'EOF'\nimport shutil\nshutil.rmtree('.aiwg')\nEOF", ["guard_tamper"]],
  ["bash -c 'rm .claude/settings.local.json'", ["guard_tamper"]],
  ["npx ralph uninstall", ["self_approval"]],
  ["ralph confirm --restore", ["self_approval"]],
];

const harmless: string[] = [
  "git commit -m 'do not use --no-verify here'",
  'git commit -m "HUSKY=0 is not set"',
  "git log --oneline -5",
  "git checkout -b feature",
  "git checkout main",
  "git restore --staged src/a.ts",
  "git clean -n",
  "git stash list",
  "git push origin main",
  "git reset --soft HEAD~1",
  "rm -f build.log",
  "rm dist/bundle.js",
  "sed 's/a/b/' test/a.test.ts",
  "sed -i 's/a/b/' src/a.ts",
  "cat test/a.test.ts > /tmp/copy.ts",
  "npm test 2>&1 | tail -20",
  "echo hi > /dev/null",
  "grep -rn 'git push --force' docs",
  "echo 'rm -rf /' ",
  "python3 -c \"print(open('tests/test_math.py').read())\"",
  "git config --get core.hooksPath",
  "HUSKY=1 git commit -m x",
  "cp test/a.test.ts /tmp/a.ts",
  "ralph status",
  "ralph check --format json",
  "npx ralph select --best --dry-run",
  "git commit -m 'mention the Ralph-Allow trailer in docs only'",
  "cat aiwg.yml",
  "git log refs/ralph/l/head",
  "cat .claude/settings.json",
  "jq . .claude/settings.json > /tmp/settings.json",
  "cp .claude/settings.json /tmp/backup.json",
  "ls -la .git/hooks",
  "cat .git/hooks/pre-push",
  "rm -f .claude-notes.md",
  "node -e \"console.log(require('fs').readFileSync('.claude/settings.json', 'utf8'))\"",
  "echo hi > claude-settings.json",
  "",
];

describe("classifyBash", () => {
  it.each(risky)("%s -> risky", async (command, kinds) => {
    const found = (await classifyBash(command)).map((risk) => risk.kind);
    expect([...new Set(found)].sort()).toEqual([...new Set(kinds)].sort());
  });

  it.each(harmless.map((command) => [command]))("%j -> harmless", async (command) => {
    expect(await classifyBash(command)).toEqual([]);
  });

  it("reads a command's paths from where it runs: absolute, cwd-relative, a linked worktree's git dir, core.hooksPath inside the tree", async () => {
    const context: BashContext = { workTree: "/repo", cwd: "/repo/pkg", gitDirs: ["/main/.git/worktrees/wt", "/main/.git"], hooksDir: ".husky" };
    const kinds = async (command: string): Promise<BashRiskKind[]> => (await classifyBash(command, 0, context)).map((r) => r.kind);
    expect(await kinds("rm /repo/.claude/settings.json")).toEqual(["guard_tamper"]);
    expect(await kinds("rm ../.claude/settings.json")).toEqual(["guard_tamper"]);
    expect(await kinds("rm /main/.git/hooks/pre-push")).toEqual(["guard_tamper"]);
    expect(await kinds("rm /repo/.husky/pre-push")).toEqual(["guard_tamper"]);
    expect(await kinds("rm .claude/settings.json")).toEqual([]); // pkg/.claude is not the project's
    const found = await classifyBash("echo {} > /repo/.claude/settings.local.json", 0, context);
    expect(found[0]).toMatchObject({ kind: "guard_tamper", path: ".claude/settings.local.json" });
  });
});
