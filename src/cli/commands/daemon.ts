/**
 * `ralph daemon status|stop [--json]`: the work tree's warm process
 * (src/daemon/). `status` shows its pid, socket, uptime, requests served,
 * resident size and build, or that none runs; `stop` asks it to finish its
 * queued requests and exit, and waits (up to 5 s) until it has. Both work
 * whatever build the warm process is. One that does not answer (stopped,
 * hung) but whose pid in daemon.json is verifiably this work tree's server
 * (src/daemon/pidfile.ts) is shown as running and not answering, and `stop`
 * ends it: SIGTERM, then SIGKILL after 2 s, then removes its socket.
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { queryDaemon, locateWorkTree } from "../../daemon/client.js";
import { endDaemon, isAlive, silentDaemon } from "../../daemon/pidfile.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";

const Options = z.strictObject({ json: z.optional(z.boolean()) });

/** How long `stop` waits for the process to be gone, ms. */
const STOP_WAIT_MS = 5000;

/** Runs the command; see the module doc. @throws RalphError E_USAGE for another action than status or stop; E_NOT_A_REPO outside a work tree. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  parseOptions(Options, raw, "daemon");
  const action = args[0] ?? "status";
  if (action !== "status" && action !== "stop") {
    throw new RalphError("E_USAGE", `unknown action '${action}': use 'ralph daemon status' or 'ralph daemon stop'`, { data: { action } });
  }
  const location = locateWorkTree(ctx.cwd);
  if (location === null) throw new RalphError("E_NOT_A_REPO", `not a git work tree: ${ctx.cwd}; run ralph inside one`, { data: { path: ctx.cwd } });
  if (action === "status") {
    const status = await queryDaemon(ctx.cwd, "control", "status");
    if (status === null || status.type !== "status") {
      const silent = silentDaemon(location);
      if (silent !== null) {
        return {
          json: { running: true, answering: false, pid: silent.pid, socket: silent.socket, work_tree: location.workTree },
          text: `warm process ${silent.pid} for ${location.workTree} is not answering (stopped or hung); every call waits for it, then runs in-process: 'ralph daemon stop' ends it`,
        };
      }
      return { json: { running: false, work_tree: location.workTree }, text: `no warm process for ${location.workTree}` };
    }
    const json = {
      running: true,
      answering: true,
      pid: status.pid,
      socket: status.socket,
      work_tree: status.workTree,
      build: status.build,
      uptime_ms: status.uptimeMs,
      requests_served: status.requestsServed,
      rss_bytes: status.rssBytes,
      idle_timeout_ms: status.idleTimeoutMs,
    };
    const text = [
      `warm process ${status.pid} for ${status.workTree}`,
      `  socket    ${status.socket}`,
      `  build     ${status.build}`,
      `  uptime    ${Math.round(status.uptimeMs / 1000)} s (exits after ${Math.round(status.idleTimeoutMs / 1000)} s idle)`,
      `  requests  ${status.requestsServed}`,
      `  rss       ${(status.rssBytes / 1024 / 1024).toFixed(1)} MiB`,
    ].join("\n");
    return { json, text };
  }
  const answer = await queryDaemon(ctx.cwd, "control", "stop");
  if (answer === null || answer.type !== "stopping") {
    const silent = silentDaemon(location);
    if (silent === null) return { json: { stopped: false, running: false, work_tree: location.workTree }, text: `no warm process for ${location.workTree}` };
    const signal = await endDaemon(silent, location);
    return {
      json: { stopped: signal !== null, running: signal === null, pid: silent.pid, signal, work_tree: location.workTree },
      text: signal !== null ? `warm process ${silent.pid} did not answer: ended it (${signal})` : `warm process ${silent.pid} did not answer and survived SIGKILL`,
    };
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (isAlive(answer.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  const gone = !isAlive(answer.pid);
  return {
    json: { stopped: gone, running: !gone, pid: answer.pid, work_tree: location.workTree },
    text: gone ? `stopped warm process ${answer.pid}` : `warm process ${answer.pid} is still finishing its requests`,
  };
}
