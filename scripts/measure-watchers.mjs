#!/usr/bin/env node
/**
 * Measures one file watcher on a generated tree (docs/decisions/0004-watcher.md):
 * time to ready (ms), resident size added (MB), inotify watches held, events
 * seen after a burst of writes, and what it does when the event loop is
 * blocked during the burst (the kernel queue, /proc/sys/fs/inotify/max_queued_events,
 * overflows for a reader on the JS thread).
 *
 *   node scripts/measure-watchers.mjs <parcel|fswatch> <files> [burst] [--block]
 *
 * Prints one JSON line. One watcher per process, so the resident size is its own.
 * Watch-limit behaviour: run it under `unshare -U -r sh -c 'echo 500 >
 * /proc/sys/user/max_inotify_watches; node scripts/measure-watchers.mjs ...'`
 * (a limit for that user namespace only).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [kind = "parcel", filesArg = "30000", burstArg = "20000"] = process.argv.slice(2);
const block = process.argv.includes("--block");
const files = Number(filesArg);
const burst = Math.min(Number(burstArg), files);
const perDir = 100;

/** Files in folders of 100, folders 10 to a parent (three levels at 100k). */
function generate(root, count) {
  const paths = [];
  for (let i = 0; i < count; i++) {
    const d = Math.floor(i / perDir);
    const dir = join(root, `a${Math.floor(d / 100)}`, `b${Math.floor(d / 10) % 10}`, `c${d % 10}`);
    if (i % perDir === 0) mkdirSync(dir, { recursive: true });
    const file = join(dir, `f${i}.txt`);
    writeFileSync(file, `file ${i}\n`);
    paths.push(file);
  }
  return paths;
}

function inotifyWatches() {
  let watches = 0;
  for (const fd of readdirSync("/proc/self/fdinfo")) {
    let link;
    try {
      link = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (!link.includes("inotify")) continue;
    const info = readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
    watches += info.split("\n").filter((l) => l.startsWith("inotify wd:")).length;
  }
  return watches;
}

const rssMB = () => process.memoryUsage().rss / 1048576;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const root = mkdtempSync(join(tmpdir(), "ralph-watch-"));
const out = { kind, files, burst, block, maxUserWatches: Number(readFileSync("/proc/sys/user/max_inotify_watches", "utf8")) };
try {
  const paths = generate(root, files);
  const seen = new Set();
  let errors = [];
  let lastEvent = performance.now();
  const rssBefore = rssMB();
  const t0 = performance.now();
  let close;
  try {
    if (kind === "parcel") {
      const parcel = await import("@parcel/watcher");
      const sub = await parcel.subscribe(root, (err, events) => {
        if (err) errors.push(String(err.message ?? err));
        for (const e of events) seen.add(e.path);
        lastEvent = performance.now();
      });
      close = () => sub.unsubscribe();
    } else {
      const w = watch(root, { recursive: true }, (_type, name) => {
        if (name) seen.add(join(root, name));
        lastEvent = performance.now();
      });
      w.on("error", (e) => errors.push(String(e.message)));
      close = () => w.close();
    }
  } catch (error) {
    out.startError = String(error.message ?? error).slice(0, 200);
  }
  out.readyMs = Math.round(performance.now() - t0);
  await sleep(300);
  out.rssAddedMB = Math.round(rssMB() - rssBefore);
  out.watches = inotifyWatches();
  seen.clear();
  errors = errors.slice(0, 3);
  if (close) {
    const written = paths.slice(0, burst);
    const t1 = performance.now();
    for (const p of written) writeFileSync(p, "changed\n", { flag: "a" });
    if (block) {
      // The JS thread busy for 2 s after the burst (a long synchronous snapshot): nothing reads the queue meanwhile.
      const until = performance.now() + 2000;
      while (performance.now() < until);
    }
    out.burstWriteMs = Math.round(performance.now() - t1);
    lastEvent = performance.now();
    while (performance.now() - lastEvent < 1500) await sleep(100);
    out.burstSeen = written.filter((p) => seen.has(p)).length;
    out.burstLost = burst - out.burstSeen;
    out.errors = errors;
    await close();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
process.exit(0);
