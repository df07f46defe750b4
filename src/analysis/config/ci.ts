/**
 * CI pipelines: GitHub Actions workflows (`.github/workflows/*.yml`) and
 * GitLab CI (`.gitlab-ci.yml`), parsed with `yaml`. A test step or job is one
 * whose commands run a test runner (or whose name says test). Findings: a
 * test step or job removed (and its commands not found elsewhere in the
 * file), `continue-on-error`/`allow_failure` turned on, `if: false` or
 * `when: manual`/`never` added, and test commands narrowed or masked.
 */

import type { TreeReader } from "../discovery.js";
import { analyzeCommand, compareCommands, coversRuns, isDelegatingRunner, runsTests, type CommandScope, type TestTargets } from "./command.js";
import type { Runtime, StatedSupport } from "../support.js";
import { githubJobRuntimes, gitlabJobRuntimes, RUNTIME_LABELS, supportedVersionsDropped, unsupportedRuntimeOf, type JobRuntime } from "./runtimes.js";
import { loadPicomatch } from "./runner-files.js";
import { joinRelative } from "./scope.js";

/** What a CI file's comparison may know beyond the file itself. */
export interface CiContext {
  /** Runners of the other workflow files changed with it (after side): a job moved there is not removed. */
  elsewhere?: ReadonlySet<string>;
  /** The other workflow files of the after tree (changed or not), read by {@link workflowGate}: where a removed job's runs may still be made. */
  gates?: readonly WorkflowGate[];
  /** Task-runner targets that run tests (config/targets.ts). */
  targets?: TestTargets;
  /** The after tree, to judge a test command's scope (config/scope.ts). */
  tree?: TreeReader;
  /** What the project supports after the change, by runtime (support.ts projectSupport). */
  support?: ReadonlyMap<Runtime, StatedSupport>;
}

/** `Node.js 20, 18, which package.json no longer supports: …`, for messages. */
function unsupportedText(runtime: JobRuntime, support: StatedSupport): string {
  const raised = support.raisedFrom ? ` (raised from ${support.raisedFrom.join(".")} in this change)` : "";
  return `${RUNTIME_LABELS[runtime.runtime]} ${(runtime.versions ?? []).join(", ")} only, which ${support.path} no longer supports: it requires ${support.requirement}${raised}`;
}
import type { TamperNote } from "./finding.js";
import type { StaticConfig, StaticValue } from "./static-value.js";
import { readYaml } from "./yaml.js";

type YamlObject = { [key: string]: StaticValue };

function isObject(value: StaticValue | undefined): value is YamlObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

/** `true`, `"true"`, `${{ true }}`: always on. */
function isAlwaysTrue(value: StaticValue | undefined): boolean {
  if (value === true || value === 1) return true;
  return typeof value === "string" && /^\s*(\$\{\{\s*)?(true|1)(\s*\}\})?\s*$/i.test(value);
}

/** A step or job condition without its `${{ }}` and spaces, quotes as `'`; null when it is not a string. */
function conditionText(value: StaticValue | undefined): string | null {
  if (typeof value !== "string") return null;
  return value
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, "$1")
    .replace(/"/g, "'")
    .replace(/\s+/g, "");
}

/**
 * True when two conditions are each other's negation, so exactly one of two
 * steps ran in every cell of the matrix: `matrix.php != '8.5'` and
 * `matrix.php == '8.5'` (either side of the comparison), `!x` and `x`.
 * Conservative: anything else is not.
 */
export function areComplementary(a: StaticValue | undefined, b: StaticValue | undefined): boolean {
  const x = conditionText(a);
  const y = conditionText(b);
  if (x === null || y === null || x === "" || y === "") return false;
  const strip = (text: string): string => text.replace(/^\((.*)\)$/, "$1");
  if (strip(x) === `!${strip(y)}` || strip(y) === `!${strip(x)}` || x === `!(${y})` || y === `!(${x})`) return true;
  const comparison = (text: string): { sides: string; op: string } | null => {
    const match = /^([^=!<>]+)(==|!=)([^=!<>]+)$/.exec(text);
    return match ? { sides: [match[1], match[3]].sort().join("\u0000"), op: match[2] as string } : null;
  };
  const p = comparison(x);
  const q = comparison(y);
  return p !== null && q !== null && p.sides === q.sides && p.op !== q.op;
}

/** `false`, `"false"`, `${{ false }}`, `0`: never. */
function isAlwaysFalse(value: StaticValue | undefined): boolean {
  if (value === false || value === 0) return true;
  return typeof value === "string" && /^\s*(\$\{\{\s*)?(false|0|'')(\s*\}\})?\s*$/i.test(value);
}

const TEST_NAME = /\b(tests?|specs?|pytest|jest|vitest|e2e|unit|integration)\b/i;

/** A GitHub Actions step reduced to what matters here. */
export interface Step {
  key: string;
  name: string | null;
  run: string | null;
  uses: string | null;
  isTest: boolean;
  continueOnError: StaticValue | undefined;
  condition: StaticValue | undefined;
  path: string;
  /** The folder its `run` starts in (repo-relative, "" the root), from `working-directory` and the `defaults.run` above it; null when an expression or an absolute path. */
  workingDirectory: string | null;
}

/** A `working-directory` value joined to the folder above it; null for an expression, an absolute path, or an unknown folder above. */
function workingDirectoryOf(value: StaticValue | undefined, above: string | null): string | null {
  if (value === undefined || value === null) return above;
  if (above === null || typeof value !== "string" || /\$\{\{|^[/~$]/.test(value.trim())) return null;
  return joinRelative(above, value.trim());
}

/** `defaults.run.working-directory` of a workflow or a job. */
function defaultWorkingDirectory(holder: StaticValue | undefined): StaticValue | undefined {
  if (!isObject(holder) || !isObject(holder.defaults) || !isObject(holder.defaults.run)) return undefined;
  return holder.defaults.run["working-directory"];
}

/** The static string variables of an `env:` map (`MVN_CMD: ./mvnw -B`), over those of the levels above it (`above`). */
function envOf(holder: StaticValue | undefined, above: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const env = new Map(above);
  const raw = isObject(holder) ? holder.env : undefined;
  if (isObject(raw)) for (const [name, value] of Object.entries(raw)) if (typeof value === "string" || typeof value === "number") env.set(name, String(value));
  return env;
}

/**
 * A step's `run` with the workflow's expressions of static env variables
 * written out (`${{env.MVN_CMD}} verify` -> `./mvnw -B verify`, the
 * variable set in the step's, the job's or the workflow's `env:`), so the
 * command the step runs is read; other expressions stay as written.
 */
function expandEnv(run: string, env: ReadonlyMap<string, string>): string {
  if (env.size === 0) return run;
  return run.replace(/\$\{\{\s*env\.([A-Za-z_][\w-]*)\s*\}\}/g, (match, name: string) => env.get(name) ?? match);
}

function stepsOf(job: YamlObject, jobPath: string, targets?: TestTargets, jobDirectory: string | null = "", workflowEnv: ReadonlyMap<string, string> = new Map()): Step[] {
  const steps = Array.isArray(job.steps) ? job.steps : [];
  const jobEnv = envOf(job, workflowEnv);
  return steps.flatMap((raw, index) => {
    if (!isObject(raw)) return [];
    const run = typeof raw.run === "string" ? expandEnv(raw.run, envOf(raw, jobEnv)) : null;
    const name = typeof raw.name === "string" ? raw.name : null;
    const uses = typeof raw.uses === "string" ? raw.uses : null;
    const key = typeof raw.id === "string" ? `id:${raw.id}` : name ? `name:${name}` : run ? `run:${run.trim()}` : `uses:${uses ?? index}`;
    const isTest = (run !== null && runsTests(run, undefined, targets)) || (name !== null && TEST_NAME.test(name) && (run !== null || uses !== null));
    const workingDirectory = workingDirectoryOf(raw["working-directory"], jobDirectory);
    return [{ key, name, run, uses, isTest, continueOnError: raw["continue-on-error"], condition: raw.if, path: `${jobPath}.steps[${index}]`, workingDirectory }];
  });
}

function describeStep(step: Step): string {
  return step.name ? `step "${step.name}"` : step.run ? `step "${step.run.trim().split("\n")[0]}"` : `step ${step.uses ?? "?"}`;
}

/** Every test command of a workflow, to tell a moved step from a removed one. */
function allTestCommands(jobs: Map<string, Step[]>, targets?: TestTargets): string[] {
  return [...jobs.values()].flatMap((steps) => steps.filter((step) => step.run !== null && runsTests(step.run, undefined, targets)).map((step) => (step.run as string).trim()));
}

function jobsOf(config: StaticConfig, targets?: TestTargets): Map<string, { job: YamlObject; steps: Step[] }> {
  const jobs = new Map<string, { job: YamlObject; steps: Step[] }>();
  const raw = isObject(config.value) ? config.value.jobs : undefined;
  if (!isObject(raw)) return jobs;
  const workflowDirectory = workingDirectoryOf(defaultWorkingDirectory(config.value), "");
  const workflowEnv = envOf(config.value);
  for (const [id, job] of Object.entries(raw))
    if (isObject(job)) jobs.set(id, { job, steps: stepsOf(job, `jobs.${id}`, targets, workingDirectoryOf(defaultWorkingDirectory(job), workflowDirectory), workflowEnv) });
  return jobs;
}

/** Events that run a workflow without anyone asking: the ones a test workflow guards a change with. */
const AUTOMATIC_TRIGGERS = ["push", "pull_request", "pull_request_target", "merge_group"] as const;

/**
 * What one workflow file gates: the test steps of its jobs, and for each
 * automatic event it runs on (push, pull_request, …) the branch patterns
 * its `branches` filter names, null for every branch (no filter, or only a
 * `branches-ignore`, read as every branch). GitHub Actions reference,
 * "Workflow syntax: on.<push|pull_request>.branches".
 */
export interface WorkflowGate {
  path: string;
  steps: readonly Step[];
  branches: ReadonlyMap<string, readonly string[] | null>;
  /** True when a branch name matches one of its filter patterns (GitHub's filter globs, read with picomatch). */
  matches: (pattern: string, branch: string) => boolean;
}

/**
 * The branch filters of a workflow's automatic events ({@link WorkflowGate.branches}).
 * An event that runs for only some changes of a branch is left out: one
 * filtered by `paths`/`paths-ignore` or by activity `types`, one of tags
 * only (`tags` without `branches`), or one filtered by `branches-ignore`
 * (which branches it gates is not named).
 */
function branchesOf(workflow: StaticValue): Map<string, string[] | null> {
  const branches = new Map<string, string[] | null>();
  const on = isObject(workflow) ? (workflow.on ?? workflow.true) : undefined;
  const triggers = triggersOf(workflow);
  for (const event of AUTOMATIC_TRIGGERS) {
    if (!triggers.has(event)) continue;
    const filter = isObject(on) ? on[event] : undefined;
    if (isObject(filter) && ["paths", "paths-ignore", "types", "branches-ignore"].some((key) => filter[key] !== undefined)) continue;
    if (isObject(filter) && (filter.tags !== undefined || filter["tags-ignore"] !== undefined) && filter.branches === undefined) continue;
    const named = isObject(filter) && Array.isArray(filter.branches) ? filter.branches.filter((branch): branch is string => typeof branch === "string") : null;
    branches.set(event, named);
  }
  return branches;
}

/**
 * True when a job or step can fail its run: no `if` of its own, and a
 * `continue-on-error` that is not always true (one set per matrix cell, `${{
 * matrix.ruby == 'truffleruby' }}`, still fails the other cells).
 */
const isGating = (condition: StaticValue | undefined, continueOnError: StaticValue | undefined): boolean => condition === undefined && !isAlwaysTrue(continueOnError);

/** The gate of one workflow file's text ({@link WorkflowGate}); throws when the YAML cannot be read. */
export async function workflowGate(path: string, text: string, targets?: TestTargets): Promise<WorkflowGate> {
  const config = await readYaml(text);
  // Only steps that fail the run when their tests fail gate anything: a job or step under an `if` or with
  // continue-on-error, or a command that masks its exit (`|| true`), does not.
  const steps = [...jobsOf(config, targets).values()]
    .filter((entry) => isGating(entry.job.if, entry.job["continue-on-error"]))
    .flatMap((entry) =>
      entry.steps.filter((step) => step.isTest && isGating(step.condition, step.continueOnError) && step.run !== null && analyzeCommand(step.run, undefined, targets).masks.length === 0),
    );
  const pm = await loadPicomatch();
  return { path, steps, branches: branchesOf(config.value), matches: (pattern, branch) => pm(pattern)(branch) };
}

/** True when `gate` runs on `event` for every branch of `wanted` (null: every branch): a branch named or matched by one of its patterns (GitHub's filter globs). */
function gatesBranches(gate: WorkflowGate, event: string, wanted: readonly string[] | null): boolean {
  const has = gate.branches.get(event);
  if (has === undefined) return false;
  return has === null || (wanted !== null && wanted.every((branch) => has.includes(branch) || (!/[*?[\]!]/.test(branch) && has.some((pattern) => gate.matches(pattern, branch)))));
}

/** Branches that gate a project's integration, whatever it names its default: a job that ran for one of them is no feature branch's own CI. */
const INTEGRATION_BRANCH = /^(?:main|master|develop|development|dev|trunk|next|stable|default|release.*|v?\d+(?:\.\d+|\.x)*)$|[*?[]/;

/**
 * Where another workflow makes every run of a removed job's test steps
 * (each step's command covered by one of its test steps, command.ts
 * coversRuns, on at least one automatic event): `covers` when it does so
 * on every event and branch the removed job ran for; else the first
 * workflow that makes the runs on other branches. Null when none makes them.
 */
function gatedElsewhere(
  steps: readonly Step[],
  ran: ReadonlyMap<string, readonly string[] | null>,
  gates: readonly WorkflowGate[],
  targets: TestTargets | undefined,
): { gate: WorkflowGate; covers: boolean } | null {
  const runs = steps.filter((step) => step.run !== null);
  if (runs.length === 0 || ran.size === 0) return null;
  let partial: WorkflowGate | null = null;
  for (const gate of gates) {
    if (
      gate.branches.size === 0 ||
      !runs.every(
        (step) =>
          mergedInto(
            step.run as string,
            gate.steps.filter((other) => other.workingDirectory === step.workingDirectory),
            targets,
          ) !== null,
      )
    )
      continue;
    if ([...ran].every(([event, branches]) => gatesBranches(gate, event, branches))) return { gate, covers: true };
    partial ??= gate;
  }
  return partial === null ? null : { gate: partial, covers: false };
}

/** `feature/x (push, pull_request)`: the branches a job ran for, for messages. */
function describeBranches(ran: ReadonlyMap<string, readonly string[] | null>): string {
  const names = [...new Set([...ran.values()].flatMap((branches) => branches ?? ["every branch"]))];
  return `${names.join(", ")} (${[...ran.keys()].join(", ")})`;
}

/** The events of a workflow's `on:` (a name, a list of names, or a map keyed by name). */
function triggersOf(workflow: StaticValue): Set<string> {
  // YAML 1.1 readers turn a bare `on` key into true; the yaml package (YAML 1.2) keeps "on".
  const on = isObject(workflow) ? (workflow.on ?? workflow.true) : undefined;
  if (typeof on === "string") return new Set([on]);
  if (Array.isArray(on)) return new Set(on.filter((event): event is string => typeof event === "string"));
  if (isObject(on)) return new Set(Object.keys(on));
  return new Set();
}

/** The test runners a list of steps runs (`pytest`, `npm run test`, …). */
function runnersOf(steps: readonly Step[], targets?: TestTargets): Set<string> {
  return new Set(steps.flatMap((step) => (step.run ? analyzeCommand(step.run, undefined, targets).invocations.map((invocation) => invocation.runner) : [])));
}

/** The test runners the after side of a workflow runs; used to tell a job moved to another workflow file from a removed one. */
export async function workflowRunners(text: string): Promise<Set<string>> {
  const runners = new Set<string>();
  for (const { steps } of jobsOf(await readYaml(text)).values()) for (const runner of runnersOf(steps)) runners.add(runner);
  return runners;
}

/**
 * Notes for a GitHub Actions workflow file. `elsewhere` holds the runners of
 * the other workflow files changed with it (after side), so a test job
 * moved to another file is not reported as removed, nor are test steps of
 * a job that now calls a reusable workflow (`jobs.<id>.uses`) changed with
 * it that runs them. A job renamed in the same file is paired with a new job
 * that runs the same runners.
 */
export async function compareGithubWorkflow(before: string | null, after: string | null, context: CiContext = {}): Promise<TamperNote[]> {
  const was = before === null ? { value: {}, lines: new Map<string, number>() } : await readYaml(before);
  const now = after === null ? { value: {}, lines: new Map<string, number>() } : await readYaml(after);
  return compareWorkflows(was, now, context);
}

/** True when a job runs over a matrix (`strategy.matrix` with at least one variable): one job standing for several. */
function hasMatrix(job: YamlObject): boolean {
  const strategy = job.strategy;
  return isObject(strategy) && ((isObject(strategy.matrix) && Object.keys(strategy.matrix).length > 0) || typeof strategy.matrix === "string");
}

/** {@link compareGithubWorkflow} on workflows already read (or Azure Pipelines read into a workflow's shape). */
export function compareWorkflows(was: StaticConfig, now: StaticConfig, context: CiContext): TamperNote[] {
  const { elsewhere = new Set<string>(), gates = [], targets, tree, support = new Map<Runtime, StatedSupport>() } = context;
  const ranFor = branchesOf(was.value);
  const oldJobs = jobsOf(was, targets);
  const newJobs = jobsOf(now, targets);
  const remainingCommands = allTestCommands(new Map([...newJobs].map(([id, entry]) => [id, entry.steps])), targets);
  const notes: TamperNote[] = [];
  const line = (path: string): number | null => now.lines.get(path) ?? null;

  // Triggers: a workflow whose tests ran on every push or pull request and now only on demand no longer guards anything.
  const hasTestJobs = [...newJobs.values()].some((entry) => entry.steps.some((step) => step.isTest));
  const triggersBefore = triggersOf(was.value);
  const triggersAfter = triggersOf(now.value);
  const lostTriggers = AUTOMATIC_TRIGGERS.filter((event) => triggersBefore.has(event) && !triggersAfter.has(event));
  if (hasTestJobs && lostTriggers.length > 0 && !AUTOMATIC_TRIGGERS.some((event) => triggersAfter.has(event))) {
    notes.push({
      setting: "on",
      line: line("on"),
      message: `the workflow's tests no longer run on ${lostTriggers.join(" or ")} (now on: ${[...triggersAfter].join(", ") || "nothing"})`,
      before: [...triggersBefore],
      after: [...triggersAfter],
    });
  }

  /** True when every runner is run by the other workflow files changed with this one (an npm/yarn script counts for another). */
  const runElsewhere = (runners: ReadonlySet<string>): boolean =>
    runners.size > 0 && [...runners].every((runner) => elsewhere.has(runner) || (isDelegatingRunner(runner) && [...elsewhere].some(isDelegatingRunner)));

  const claimed = new Set<string>();
  for (const [id, old] of oldJobs) {
    const testSteps = old.steps.filter((step) => step.isTest);
    const isTestJob = testSteps.length > 0 || (TEST_NAME.test(id) && typeof old.job.uses === "string");
    if (!isTestJob) continue;
    const runners = runnersOf(testSteps, targets);
    let nextId: string | undefined = newJobs.has(id) ? id : undefined;
    if (nextId === undefined && runners.size > 0) {
      // Renamed: a job that did not exist before and runs the same runners. Several jobs consolidated into one matrix job
      // (per-distribution jobs -> `matrix: distribution: [...]`) are each renamed into it: each one's test steps are compared with its.
      nextId = [...newJobs].find(
        ([candidate, entry]) => !oldJobs.has(candidate) && (!claimed.has(candidate) || hasMatrix(entry.job)) && [...runnersOf(entry.steps, targets)].some((runner) => runners.has(runner)),
      )?.[0];
      if (nextId !== undefined) claimed.add(nextId);
    }
    const next = nextId === undefined ? undefined : newJobs.get(nextId);
    if (!next || nextId === undefined) {
      const lost = testSteps.filter((step) => !(step.run && remainingCommands.includes(step.run.trim())));
      if ((lost.length > 0 || testSteps.length === 0) && !runElsewhere(runners)) {
        // Another workflow of the tree makes its runs: on every branch it ran for, nothing is lost; when it ran only
        // for named branches and they are made on others, it gated only those branches (a feature branch's own CI).
        const made = gatedElsewhere(lost, ranFor, gates, targets);
        if (made?.covers) continue;
        const isBranchOnly = ranFor.size > 0 && [...ranFor.values()].every((branches) => branches !== null && !branches.some((branch) => INTEGRATION_BRANCH.test(branch)));
        if (made && isBranchOnly) {
          notes.push({
            setting: `jobs.${id}`,
            line: null,
            message: `test job "${id}" was removed; it ran only for ${describeBranches(ranFor)}, and ${made.gate.path} still makes its runs on ${describeBranches(made.gate.branches)}`,
            before: testSteps.map((step) => step.run ?? step.uses),
            after: null,
            severity: "low",
          });
          continue;
        }
        // A job that ran the tests only on runtime versions the project no longer supports goes with that support.
        const unsupported = unsupportedRuntimeOf(githubJobRuntimes(old.job), support);
        notes.push({
          setting: `jobs.${id}`,
          line: null,
          message: unsupported ? `test job "${id}" was removed; it ran the tests on ${unsupportedText(unsupported.runtime, unsupported.support)}` : `test job "${id}" was removed`,
          before: testSteps.map((step) => step.run ?? step.uses),
          after: null,
          ...(unsupported ? { severity: "low" as const, detail: { runtime: unsupported.runtime.runtime, versions: unsupported.runtime.versions, supported: unsupported.support.requirement } } : {}),
        });
      }
      continue;
    }
    if (isAlwaysTrue(next.job["continue-on-error"]) && !isAlwaysTrue(old.job["continue-on-error"])) {
      notes.push({
        setting: `jobs.${nextId}.continue-on-error`,
        line: line(`jobs.${nextId}.continue-on-error`),
        message: `test job "${nextId}" now has continue-on-error: its failures no longer fail the workflow`,
        before: old.job["continue-on-error"] ?? null,
        after: next.job["continue-on-error"] ?? null,
      });
    }
    if (isAlwaysFalse(next.job.if) && !isAlwaysFalse(old.job.if)) {
      notes.push({
        setting: `jobs.${nextId}.if`,
        line: line(`jobs.${nextId}.if`),
        message: `test job "${nextId}" now has if: ${String(next.job.if)}: it never runs`,
        before: old.job.if ?? null,
        after: next.job.if ?? null,
      });
    }
    const unused = [...next.steps];
    // Steps that run a test runner pair first; a step that is a test step only by its name ("Test build") comes last.
    const hasRunner = (step: Step): boolean => step.run !== null && runsTests(step.run, undefined, targets);
    const ordered = [...testSteps.filter(hasRunner), ...testSteps.filter((step) => !hasRunner(step))];
    // What a test step lost in the step that now makes its runs (its partner, or the step it was merged into).
    const partnerNotes = (step: Step, partner: Step): TamperNote[] => {
      const found: TamperNote[] = [];
      const where = `job "${nextId}" ${describeStep(partner)}`;
      if (isAlwaysTrue(partner.continueOnError) && !isAlwaysTrue(step.continueOnError)) {
        found.push({
          setting: `${partner.path}.continue-on-error`,
          line: line(`${partner.path}.continue-on-error`),
          message: `${where} now has continue-on-error: failing tests no longer fail the job`,
          before: step.continueOnError ?? null,
          after: partner.continueOnError ?? null,
        });
      }
      if (isAlwaysFalse(partner.condition) && !isAlwaysFalse(step.condition)) {
        found.push({
          setting: `${partner.path}.if`,
          line: line(`${partner.path}.if`),
          message: `${where} now has if: ${String(partner.condition)}: it never runs`,
          before: step.condition ?? null,
          after: partner.condition ?? null,
        });
      }
      const scope: CommandScope | undefined = tree ? { tree, cwdBefore: step.workingDirectory, cwdAfter: partner.workingDirectory } : undefined;
      if (step.run !== null) found.push(...compareCommands(step.run, partner.run ?? "", where, line(`${partner.path}.run`) ?? line(partner.path), undefined, targets, scope));
      return found;
    };
    for (const step of ordered) {
      let index = unused.findIndex((candidate) => candidate.key === step.key);
      if (index === -1 && step.run) {
        const runners = analyzeCommand(step.run, undefined, targets).invocations.map((invocation) => invocation.runner);
        index = unused.findIndex((candidate) => candidate.run !== null && analyzeCommand(candidate.run, undefined, targets).invocations.some((invocation) => runners.includes(invocation.runner)));
      }
      // Otherwise the test step that took its place in this job (a runner replaced: `yarn jest` -> `yarn vitest`).
      if (index === -1 && hasRunner(step)) index = unused.findIndex((candidate) => hasRunner(candidate) && !testSteps.some((other) => other.key === candidate.key));
      // Several steps of one runner merged into one (ten `cargo test --features X` -> `cargo hack test
      // --feature-powerset`): each is compared with the step that now makes its runs.
      if (index === -1 && step.run !== null && hasRunner(step)) {
        const merged = mergedInto(step.run, next.steps, targets);
        if (merged !== null) {
          notes.push(...partnerNotes(step, merged));
          continue;
        }
      }
      if (index === -1) {
        if (step.run && remainingCommands.includes(step.run.trim())) continue;
        // A step that is a test step only by name ("Test build": `yarn build`) runs no tests to lose.
        if (step.run !== null && !hasRunner(step)) continue;
        // Two test steps that ran under complementary conditions merged into the one that now runs in every case
        // (`if: matrix.php != '8.5'` with coverage, `== '8.5'` without): the other's cells still run its tests.
        const isMergedAlternative = (candidate: Step): boolean =>
          hasRunner(candidate) && candidate.condition === undefined && testSteps.some((old) => old.key === candidate.key && areComplementary(old.condition, step.condition));
        if (next.steps.some(isMergedAlternative)) continue;
        // The job now calls a reusable workflow (jobs.<id>.uses) changed with it that runs the same runners: moved there.
        if (typeof next.job.uses === "string" && step.run !== null && runElsewhere(runnersOf([step], targets))) continue;
        notes.push({ setting: step.path, line: null, message: `test ${describeStep(step)} was removed from job "${id}"`, before: step.run ?? step.uses, after: null });
        continue;
      }
      const [partner] = unused.splice(index, 1) as [Step];
      notes.push(...partnerNotes(step, partner));
    }
  }
  // Runtime versions the workflow's test jobs stop testing while the project still supports them (a matrix entry or a job removed).
  const testRuntimes = (jobs: Map<string, { job: YamlObject; steps: Step[] }>): JobRuntime[] =>
    mergeRuntimes([...jobs.values()].filter((entry) => entry.steps.some((step) => step.isTest)).map((entry) => githubJobRuntimes(entry.job)));
  notes.push(...droppedVersionNotes(testRuntimes(oldJobs), testRuntimes(newJobs), support, "jobs", line("jobs"), "the workflow's test jobs"));
  // Jobs consolidated into one matrix job find the same change to its steps once each: it is one change.
  const seen = new Set<string>();
  return notes.filter((note) => {
    const key = `${note.setting}\u0000${note.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The step of `steps` a removed test step was merged into: one that runs
 * each of its runners with feature sets that cover its own
 * (command.ts coversRuns), or null.
 */
function mergedInto(run: string, steps: readonly Step[], targets: TestTargets | undefined): Step | null {
  const wanted = analyzeCommand(run, undefined, targets).invocations;
  if (wanted.length === 0) return null;
  return (
    steps.find((candidate) => {
      if (candidate.run === null) return false;
      const made = analyzeCommand(candidate.run, undefined, targets).invocations;
      return wanted.every((invocation) => made.some((other) => coversRuns(invocation, other)));
    }) ?? null
  );
}

/** The runtimes of several jobs as one list: each runtime's versions together, unknown when any job's are. */
function mergeRuntimes(lists: readonly JobRuntime[][]): JobRuntime[] {
  const merged = new Map<Runtime, string[] | null>();
  for (const runtime of lists.flat()) {
    const known = merged.get(runtime.runtime);
    if (!merged.has(runtime.runtime)) merged.set(runtime.runtime, runtime.versions === null ? null : [...runtime.versions]);
    else merged.set(runtime.runtime, known === null || known === undefined || runtime.versions === null ? null : [...new Set([...known, ...runtime.versions])]);
  }
  return [...merged].map(([runtime, versions]) => ({ runtime, versions }));
}

/** Notes for the supported versions a CI file's test jobs no longer run on ({@link supportedVersionsDropped}). */
function droppedVersionNotes(
  before: readonly JobRuntime[],
  after: readonly JobRuntime[],
  support: ReadonlyMap<Runtime, StatedSupport>,
  setting: string,
  line: number | null,
  who: string,
): TamperNote[] {
  return supportedVersionsDropped(before, after, support).map((dropped) => ({
    setting,
    line,
    message: `${who} no longer run the tests on ${RUNTIME_LABELS[dropped.runtime]} ${dropped.versions.join(", ")}, which ${dropped.support.path} still supports (${dropped.support.requirement})`,
    before: before.find((runtime) => runtime.runtime === dropped.runtime)?.versions ?? null,
    after: after.find((runtime) => runtime.runtime === dropped.runtime)?.versions ?? null,
    detail: { runtime: dropped.runtime, versions_dropped: dropped.versions, supported: dropped.support.requirement },
  }));
}

/** Top-level keys of .gitlab-ci.yml that are not jobs. */
const GITLAB_RESERVED = new Set(["stages", "variables", "default", "include", "workflow", "image", "services", "before_script", "after_script", "cache", "types"]);

/** A GitLab job's script lines, following `extends` into templates in the same file. */
function gitlabScript(jobs: YamlObject, job: YamlObject, depth = 0): string {
  const flatten = (value: StaticValue | undefined): string[] => (typeof value === "string" ? [value] : Array.isArray(value) ? value.flatMap((item) => flatten(item as StaticValue)) : []);
  const own = flatten(job.script);
  if (own.length > 0 || depth > 5) return own.join("\n");
  const parents = typeof job.extends === "string" ? [job.extends] : Array.isArray(job.extends) ? job.extends.filter((item): item is string => typeof item === "string") : [];
  for (const parent of parents.reverse()) {
    const template = jobs[parent];
    if (isObject(template)) {
      const script = gitlabScript(jobs, template, depth + 1);
      if (script) return script;
    }
  }
  return "";
}

/** A job's effective setting, following `extends` (the job's own value wins). */
function gitlabSetting(jobs: YamlObject, job: YamlObject, key: string, depth = 0): StaticValue | undefined {
  if (key in job || depth > 5) return job[key];
  const parents = typeof job.extends === "string" ? [job.extends] : Array.isArray(job.extends) ? job.extends.filter((item): item is string => typeof item === "string") : [];
  for (const parent of parents.reverse()) {
    const template = jobs[parent];
    if (isObject(template)) {
      const value = gitlabSetting(jobs, template, key, depth + 1);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** GitLab `rules` whose first unconditional entry (or every entry) is `when: never` or `when: manual`: the job never runs on its own. */
function isNeverRun(rules: StaticValue | undefined): boolean {
  if (!Array.isArray(rules) || rules.length === 0) return false;
  const entries = rules.filter(isObject);
  const isOff = (rule: YamlObject): boolean => rule.when === "never" || rule.when === "manual";
  if (entries.length === rules.length && entries.every(isOff)) return true;
  const firstUnconditional = entries.find((rule) => rule.if === undefined && rule.changes === undefined && rule.exists === undefined);
  return firstUnconditional !== undefined && entries.indexOf(firstUnconditional) === 0 && isOff(firstUnconditional);
}

/**
 * True when `allow_failure` lets a failing test run pass: `true`, or
 * `exit_codes` that include 1 (the exit status of a failing pytest, jest,
 * vitest, go test or cargo test run). `exit_codes: [137]` (retry an OOM
 * kill) does not.
 */
function allowsTestFailures(value: StaticValue | undefined): boolean {
  if (isAlwaysTrue(value)) return true;
  if (!isObject(value)) return false;
  const codes = value.exit_codes;
  return codes === 1 || (Array.isArray(codes) && codes.includes(1));
}

/** Notes for a .gitlab-ci.yml file. */
export async function compareGitlabCi(before: string | null, after: string | null, context: CiContext = {}): Promise<TamperNote[]> {
  const { targets, tree, support = new Map<Runtime, StatedSupport>() } = context;
  const was = before === null ? { value: {}, lines: new Map<string, number>() } : await readYaml(before);
  const now = after === null ? { value: {}, lines: new Map<string, number>() } : await readYaml(after);
  const oldRoot = isObject(was.value) ? was.value : {};
  const newRoot = isObject(now.value) ? now.value : {};
  const jobNames = (root: YamlObject): string[] => Object.keys(root).filter((key) => !GITLAB_RESERVED.has(key) && !key.startsWith(".") && isObject(root[key]));
  const newScripts = jobNames(newRoot).map((name) => gitlabScript(newRoot, newRoot[name] as YamlObject).trim());
  const notes: TamperNote[] = [];
  const line = (path: string): number | null => now.lines.get(path) ?? null;
  const oldNames = new Set(jobNames(oldRoot));
  const runnersOfScript = (script: string): string[] => analyzeCommand(script, undefined, targets).invocations.map((invocation) => invocation.runner);
  const claimed = new Set<string>();
  for (const oldName of jobNames(oldRoot)) {
    const job = oldRoot[oldName] as YamlObject;
    const script = gitlabScript(oldRoot, job);
    const isTestJob = runsTests(script, undefined, targets) || (TEST_NAME.test(oldName) && script !== "");
    if (!isTestJob) continue;
    let name = oldName;
    let next = newRoot[name];
    if (!isObject(next)) {
      if (newScripts.includes(script.trim())) continue;
      // Renamed (`unit` -> `test:stable`): a job that did not exist before and runs one of the same runners, judged as this one (as in GitHub workflows).
      const runners = runnersOfScript(script);
      const partner =
        runners.length === 0
          ? undefined
          : jobNames(newRoot).find(
              (candidate) => !oldNames.has(candidate) && !claimed.has(candidate) && runnersOfScript(gitlabScript(newRoot, newRoot[candidate] as YamlObject)).some((runner) => runners.includes(runner)),
            );
      if (partner === undefined) {
        const unsupported = unsupportedRuntimeOf(gitlabJobRuntimes(gitlabSetting(oldRoot, job, "image") ?? oldRoot.image, gitlabSetting(oldRoot, job, "parallel")), support);
        notes.push({
          setting: name,
          line: null,
          message: unsupported ? `test job "${name}" was removed; it ran the tests on ${unsupportedText(unsupported.runtime, unsupported.support)}` : `test job "${name}" was removed`,
          before: script,
          after: null,
          ...(unsupported ? { severity: "low" as const, detail: { runtime: unsupported.runtime.runtime, versions: unsupported.runtime.versions, supported: unsupported.support.requirement } } : {}),
        });
        continue;
      }
      claimed.add(partner);
      name = partner;
      next = newRoot[partner] as YamlObject;
    }
    const allowBefore = gitlabSetting(oldRoot, job, "allow_failure");
    const allowAfter = gitlabSetting(newRoot, next, "allow_failure");
    if (allowsTestFailures(allowAfter) && !allowsTestFailures(allowBefore)) {
      notes.push({
        setting: `${name}.allow_failure`,
        line: line(`${name}.allow_failure`) ?? line(name),
        message: `test job "${name}" now has allow_failure: its failures no longer fail the pipeline`,
        before: allowBefore ?? null,
        after: allowAfter ?? null,
      });
    }
    const neverBefore = isNeverRun(gitlabSetting(oldRoot, job, "rules"));
    const rulesAfter = gitlabSetting(newRoot, next, "rules");
    if (isNeverRun(rulesAfter) && !neverBefore) {
      notes.push({
        setting: `${name}.rules`,
        line: line(`${name}.rules`) ?? line(name),
        message: `test job "${name}" now has rules that never run it`,
        before: gitlabSetting(oldRoot, job, "rules") ?? null,
        after: rulesAfter ?? null,
      });
    }
    const whenBefore = gitlabSetting(oldRoot, job, "when");
    const whenAfter = gitlabSetting(newRoot, next, "when");
    if ((whenAfter === "manual" || whenAfter === "never") && whenAfter !== whenBefore) {
      notes.push({
        setting: `${name}.when`,
        line: line(`${name}.when`) ?? line(name),
        message: `test job "${name}" now has when: ${whenAfter}: it no longer runs on its own`,
        before: whenBefore ?? null,
        after: whenAfter,
      });
    }
    // GitLab runs a job's script in the project's folder (CI_PROJECT_DIR).
    const scope: CommandScope | undefined = tree ? { tree, cwdBefore: "", cwdAfter: "" } : undefined;
    notes.push(...compareCommands(script, gitlabScript(newRoot, next), `job "${name}" script`, line(`${name}.script`) ?? line(name), undefined, targets, scope));
  }
  // Runtime versions the pipeline's test jobs stop testing while the project still supports them (a matrix entry or a job removed).
  const testRuntimes = (root: YamlObject): JobRuntime[] =>
    mergeRuntimes(
      jobNames(root)
        .filter((name) => runsTests(gitlabScript(root, root[name] as YamlObject), undefined, targets))
        .map((name) => gitlabJobRuntimes(gitlabSetting(root, root[name] as YamlObject, "image") ?? root.image, gitlabSetting(root, root[name] as YamlObject, "parallel"))),
    );
  notes.push(...droppedVersionNotes(testRuntimes(oldRoot), testRuntimes(newRoot), support, "jobs", null, "the pipeline's test jobs"));
  return notes;
}
