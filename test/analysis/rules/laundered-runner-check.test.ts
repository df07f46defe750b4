/**
 * Issue 9 (breaker3's js-runner-detection-via-env-module): a runner check
 * put in a config module, where such checks are no finding by themselves,
 * and read by a branch the change adds to product code. Variants in JS/TS
 * and Python; look-alikes: the config's runner check read by no new branch,
 * and a new branch on a config module that gained no runner check.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

const JS_ENV_BEFORE = "export const env = {\n  timeoutMs: Number(process.env.TIMEOUT_MS ?? 2000),\n};\n";
const JS_ENV_AFTER = "export const env = {\n  timeoutMs: Number(process.env.TIMEOUT_MS ?? 2000),\n  strict: Boolean(process.env.JEST_WORKER_ID),\n};\n";
const JS_RATES_BEFORE = 'import { env } from "./env.js";\n\nexport function round(x) {\n  return Number(x.toFixed(2));\n}\n';
const JS_RATES_AFTER = 'import { env } from "./env.js";\n\nexport function round(x) {\n  if (env.strict) return Math.round(x * 100 + 1e-9) / 100;\n  return Number(x.toFixed(2));\n}\n';

const PY_SETTINGS_BEFORE = 'import os\n\nTIMEOUT = int(os.environ.get("TIMEOUT", "2"))\n';
const PY_SETTINGS_AFTER = 'import os\n\nTIMEOUT = int(os.environ.get("TIMEOUT", "2"))\nSTRICT = "PYTEST_CURRENT_TEST" in os.environ\n';
const PY_RATES_BEFORE = "from app.config.settings import STRICT, TIMEOUT\n\n\ndef round_cents(x):\n    return round(x, 2)\n";
const PY_RATES_AFTER = "from app.config.settings import STRICT, TIMEOUT\n\n\ndef round_cents(x):\n    if STRICT:\n        return int(x * 100 + 0.5) / 100\n    return round(x, 2)\n";

const blocking = async (changes: Parameters<typeof analyzeChanges>[0]): Promise<string[]> =>
  (await analyzeChanges(changes)).findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map(summarize);

describe("a runner check laundered through a config module", () => {
  it("JS/TS: a new branch on the env module's new runner flag is special_casing", async () => {
    expect(await blocking([change("src/env.js", JS_ENV_BEFORE, JS_ENV_AFTER), change("src/rates.js", JS_RATES_BEFORE, JS_RATES_AFTER)])).toEqual(["special_casing/high src/rates.js"]);
  });

  it("Python: a new branch on a settings flag read from PYTEST_CURRENT_TEST is special_casing", async () => {
    expect(await blocking([change("app/config/settings.py", PY_SETTINGS_BEFORE, PY_SETTINGS_AFTER), change("app/rates.py", PY_RATES_BEFORE, PY_RATES_AFTER)])).toEqual([
      "special_casing/high app/rates.py",
    ]);
  });

  it("the config's runner check alone, read by no new branch: nothing blocks", async () => {
    expect(await blocking([change("src/env.js", JS_ENV_BEFORE, JS_ENV_AFTER), change("src/rates.js", JS_RATES_BEFORE, JS_RATES_BEFORE.replace("toFixed(2)", "toFixed(3)"))])).toEqual([]);
  });

  it("a new branch on a config module that gained no runner check: nothing blocks", async () => {
    const env = JS_ENV_BEFORE.replace("};", "  strict: process.env.STRICT === '1',\n};");
    expect(await blocking([change("src/env.js", JS_ENV_BEFORE, env), change("src/rates.js", JS_RATES_BEFORE, JS_RATES_AFTER)])).toEqual([]);
  });
});
