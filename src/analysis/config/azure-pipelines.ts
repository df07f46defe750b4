/**
 * Azure Pipelines YAML (learn.microsoft.com, "YAML schema reference for
 * Azure Pipelines"), read into the shape of a GitHub Actions workflow and
 * judged by the same rules (ci.ts {@link compareWorkflows}): test jobs and
 * steps removed, `continueOnError`, `condition: false`, test commands
 * narrowed or masked, runtime versions dropped.
 *
 * Read: a pipeline's `steps` (one job), `jobs`, or `stages[].jobs` (a job's
 * id is `<stage>.<job>`); steps `script`, `bash`, `pwsh`, `powershell`, the
 * tasks `CmdLine`, `Bash`, `PowerShell` (inline scripts), `DotNetCoreCLI`
 * with `command: test` (read as `dotnet test <projects> <arguments>`),
 * `Maven` (`mvn <goals> <options>`), `Gradle` (`gradle <tasks> <options>`),
 * `Npm` with `command: custom`, and the version tasks `UsePythonVersion`,
 * `NodeTool` / `UseNode`, `GoTool` (read as GitHub's setup actions);
 * `strategy.matrix` cells become matrix `include` entries, and `$(name)` of
 * a matrix variable becomes `${{ matrix.name }}`. `workingDirectory` under
 * `$(Build.SourcesDirectory)` or `$(System.DefaultWorkingDirectory)` (the
 * checkout) is that folder of the repository. Templates are not followed.
 */

import { compareWorkflows, type CiContext } from "./ci.js";
import type { TamperNote } from "./finding.js";
import type { StaticConfig, StaticValue } from "./static-value.js";
import { readYaml } from "./yaml.js";

type YamlObject = { [key: string]: StaticValue };
const isObject = (value: StaticValue | undefined): value is YamlObject => value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
const text = (value: StaticValue | undefined): string | null => (typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : null);

/** Version tasks and the GitHub setup action each reads as, with the input naming the version. */
const VERSION_TASKS: Record<string, [string, string, string[]]> = {
  UsePythonVersion: ["actions/setup-python@azure", "python-version", ["versionSpec"]],
  NodeTool: ["actions/setup-node@azure", "node-version", ["versionSpec", "versionSource"]],
  UseNode: ["actions/setup-node@azure", "node-version", ["version"]],
  GoTool: ["actions/setup-go@azure", "go-version", ["version"]],
};

/** `$(matrixVariable)` as `${{ matrix.matrixVariable }}` when it names a matrix variable; other text as written. */
function matrixReference(value: string, variables: ReadonlySet<string>): string {
  const match = /^\$\(([\w.-]+)\)$/.exec(value.trim());
  return match && variables.has(match[1] as string) ? `\${{ matrix.${match[1] as string} }}` : value;
}

/** A `workingDirectory` as a repository folder: the checkout's variables stripped; other variables left for the reader to refuse. */
function workingDirectory(value: StaticValue | undefined): StaticValue | undefined {
  const written = text(value);
  if (written === null) return value;
  return written.replace(/^\$\((Build\.SourcesDirectory|System\.DefaultWorkingDirectory|Build\.Repository\.LocalPath)\)\/?/, "") || ".";
}

/** One Azure step as a GitHub step (`name`, `run` or `uses`/`with`, `if`, `continue-on-error`, `working-directory`). */
function stepOf(step: YamlObject, variables: ReadonlySet<string>): YamlObject {
  const common: YamlObject = {};
  if (text(step.displayName) !== null) common.name = text(step.displayName);
  if (step.condition !== undefined) common.if = step.condition;
  if (step.continueOnError !== undefined) common["continue-on-error"] = step.continueOnError;
  if (step.workingDirectory !== undefined) common["working-directory"] = workingDirectory(step.workingDirectory) ?? null;
  for (const key of ["script", "bash", "pwsh", "powershell"]) {
    const run = text(step[key]);
    if (run !== null) return { ...common, run };
  }
  const task = text(step.task);
  if (task === null) return { ...common, uses: text(step.template) !== null ? `template:${text(step.template) as string}` : "azure:step" };
  const name = task.replace(/@\d+$/, "");
  const inputs = isObject(step.inputs) ? step.inputs : {};
  const input = (key: string): string => text(inputs[key]) ?? "";
  if (inputs.workingDirectory !== undefined && common["working-directory"] === undefined) common["working-directory"] = workingDirectory(inputs.workingDirectory) ?? null;
  const run = (command: string): YamlObject => ({ ...common, run: command.replace(/\s+/g, " ").trim() });
  switch (name) {
    case "CmdLine":
    case "Bash":
    case "PowerShell":
      return input("targetType") === "filePath" ? { ...common, uses: `azure:${name}` } : { ...common, run: input("script") };
    case "DotNetCoreCLI":
      return input("command") === "test" ? run(`dotnet test ${input("projects").split(/\r?\n/).join(" ")} ${input("arguments")}`) : { ...common, uses: `azure:${name}` };
    case "Maven":
      return run(`mvn ${input("goals") || "package"} ${input("options")}`);
    case "Gradle":
      return run(`gradle ${input("tasks") || "build"} ${input("options")}`);
    case "Npm":
      return input("command") === "custom" ? run(`npm ${input("customCommand")}`) : { ...common, uses: `azure:${name}` };
    default: {
      const version = VERSION_TASKS[name];
      if (!version) return { ...common, uses: `azure:${name}` };
      const [uses, key, sources] = version;
      const value = sources.map((source) => text(inputs[source])).find((found) => found !== null && found !== "spec");
      return { ...common, uses, with: value ? { [key]: matrixReference(value, variables) } : {} };
    }
  }
}

/** One Azure job as a GitHub job. */
function jobOf(job: YamlObject): YamlObject {
  const strategy = isObject(job.strategy) ? job.strategy : {};
  const matrix = strategy.matrix;
  const cells = isObject(matrix) ? Object.values(matrix).filter(isObject) : [];
  const variables = new Set(cells.flatMap((cell) => Object.keys(cell)));
  const converted: YamlObject = {
    steps: (Array.isArray(job.steps) ? job.steps : []).filter(isObject).map((step) => stepOf(step, variables)),
  };
  if (matrix !== undefined) converted.strategy = { matrix: isObject(matrix) ? { include: cells } : matrix };
  if (job.condition !== undefined) converted.if = job.condition;
  if (job.continueOnError !== undefined) converted["continue-on-error"] = job.continueOnError;
  if (job.workingDirectory !== undefined) converted.defaults = { run: { "working-directory": workingDirectory(job.workingDirectory) ?? null } };
  return converted;
}

/** A pipeline read into a workflow's shape: `{ on: [push], jobs }`. Line numbers are not carried over. */
export function pipelineAsWorkflow(config: StaticConfig): StaticConfig {
  const root = isObject(config.value) ? config.value : {};
  const jobs: YamlObject = {};
  const addJobs = (list: StaticValue | undefined, prefix: string): void => {
    if (!Array.isArray(list)) return;
    list.filter(isObject).forEach((job, index) => {
      const id = text(job.job) ?? text(job.deployment) ?? `job${index + 1}`;
      jobs[`${prefix}${id}`] = jobOf(job);
    });
  };
  if (Array.isArray(root.stages)) {
    root.stages.filter(isObject).forEach((stage, index) => addJobs(stage.jobs, `${text(stage.stage) ?? `stage${index + 1}`}.`));
  }
  addJobs(root.jobs, "");
  if (Array.isArray(root.steps)) jobs.pipeline = jobOf(root);
  // Triggers (`trigger`, `pr`) are not compared: every pipeline reads as running on push.
  return { value: { on: ["push"], jobs }, lines: new Map() };
}

/** Notes for an Azure Pipelines file, judged as a workflow ({@link pipelineAsWorkflow}). */
export async function compareAzurePipeline(before: string | null, after: string | null, context: CiContext = {}): Promise<TamperNote[]> {
  const empty: StaticConfig = { value: {}, lines: new Map() };
  const was = before === null ? empty : pipelineAsWorkflow(await readYaml(before));
  const now = after === null ? empty : pipelineAsWorkflow(await readYaml(after));
  return compareWorkflows(was, now, context);
}
