/**
 * The warm process's binding to the real process (`ralph __daemon <work
 * tree>`, started by a client: src/daemon/client.ts startDaemon): the one
 * place under src/daemon that touches `process.env` and the standard
 * streams. While a request runs, `process.env` holds exactly that request's
 * environment and writes to `process.stdout`/`process.stderr` go to its
 * client, for whatever below `runCli` or in a dependency still reads the
 * process (requests never overlap: src/daemon/server.ts).
 */
import { serve } from "./server.js";

/** The writers of the running request, or null between requests (its output then goes nowhere: the warm process's stdio is closed). */
const sinks: { stdout: ((text: string) => void) | null; stderr: ((text: string) => void) | null } = { stdout: null, stderr: null };

function redirect(name: "stdout" | "stderr"): void {
  const stream = process[name];
  stream.write = ((chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean => {
    sinks[name]?.(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (typeof done === "function") queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
}

/** Replaces process.env's contents with `next` (the object stays the same: modules holding it see the change). */
function replaceEnvironment(next: Record<string, string>): void {
  for (const name of Object.keys(process.env)) if (!(name in next)) delete process.env[name];
  for (const [name, value] of Object.entries(next)) process.env[name] = value;
}

/**
 * Serves the work tree at `workTree` until the warm process should exit
 * (src/daemon/server.ts serve), then exits the process.
 */
export async function serveThisProcess(workTree: string, build: string, version: string, cliPath: string): Promise<never> {
  const own = { ...process.env } as NodeJS.ProcessEnv;
  redirect("stdout");
  redirect("stderr");
  await serve({
    workTree,
    build,
    version,
    cliPath,
    env: own,
    bindRequest: (env, stdout, stderr) => {
      replaceEnvironment(env);
      sinks.stdout = stdout;
      sinks.stderr = stderr;
      return {
        end: () => {
          sinks.stdout = null;
          sinks.stderr = null;
        },
      };
    },
  });
  process.exit(0);
}
