/**
 * The stderr logger, and the run it belongs to. stdout carries results only
 * (STYLE.md §5); everything a person or a debugging session needs goes
 * here. `debug` costs one boolean test when off: pass a function to defer
 * building the message.
 *
 * Each CLI run (`runCli`, src/cli/run.ts) binds its scope with
 * {@link withRun}: its stderr callback and its parsed environment
 * (src/runtime-env.ts; `RALPH_DEBUG` turns debug lines on). The binding
 * follows the run's async calls (AsyncLocalStorage), so runs served side by
 * side in one process log to their own stderr. Outside any run (a script or
 * test calling a module directly) lines are dropped.
 *
 * Only the logger, the default lock wait (src/store/lock.ts) and the wasm
 * tier-up choice (src/analysis/parsers/tree-sitter.ts, a process-wide V8
 * flag set once) read the scope; everything else receives the environment
 * as a parameter.
 *
 * Log ids, counts, paths and durations, never file contents or prompts.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { RuntimeEnv } from "./runtime-env.js";

/** One CLI run's logging scope. */
export interface RunScope {
  /** Writes text (whole lines, newline included) to the run's stderr. */
  stderr: (text: string) => void;
  /** The run's parsed environment. */
  env: RuntimeEnv;
}

const runs = new AsyncLocalStorage<RunScope>();

/** Runs `fn` inside `scope`: everything it calls (sync or async) logs to `scope.stderr`. Returns what `fn` returns. */
export function withRun<T>(scope: RunScope, fn: () => T): T {
  return runs.run(scope, fn);
}

/** The environment of the run the caller is part of, or undefined outside any run. */
export function currentRun(): RuntimeEnv | undefined {
  return runs.getStore()?.env;
}

/** Writes one line to the run's stderr when its RALPH_DEBUG is set; `message` may be a thunk. */
export function debug(message: string | (() => string)): void {
  const scope = runs.getStore();
  if (!scope?.env.debug) return;
  scope.stderr(`ralph: debug: ${typeof message === "function" ? message() : message}\n`);
}

/** Writes one warning line (`ralph: warning: <message>`) to the run's stderr. */
export function warn(message: string): void {
  runs.getStore()?.stderr(`ralph: warning: ${message}\n`);
}

/** Writes one line (`ralph: <message>`) to the run's stderr (progress and diagnostics, not results). */
export function info(message: string): void {
  runs.getStore()?.stderr(`ralph: ${message}\n`);
}
