/**
 * Swallowing: a NEW handler that discards every error of code that was
 * already there (`try: … except Exception: pass`, `try { … } catch (e) {}`,
 * `catch (Throwable t) {}`, a bare `rescue nil`, `catch (\Throwable) {}`,
 * `catch { return 0; }`), so a failure the tests would see becomes a
 * default value. validation.ts already judges handlers that existed before
 * and now swallow; this rule judges the ones the change adds.
 *
 * A handler counts when it is new in a function that existed before (per
 * function, swallowing handlers after beyond those before, less the ones
 * validation.ts reports as rewritten in place), catches everything
 * ({@link isBroadCatch}: a bare `except:`/`rescue`/`catch`, `Exception`,
 * `BaseException`, `Throwable`, `StandardError`), discards the error
 * (empty, `pass`, log-only, or a constant result: facts.ts CatchBehaviour
 * `swallows`/`returns_constant`) and guards code that was there before: every
 * function the guarded block calls was called by the function before the
 * change. A handler for one specific error (`except FileNotFoundError:
 * pass`), one that logs and rethrows, or one around new code is not.
 */

import type { CatchFact, CodeFacts } from "../facts.js";
import type { Finding } from "../types.js";
import { editedProductCode, type RuleInput } from "./context.js";
import { defineRule, report } from "./registry.js";

/** Rule id (evidence.rule). */
export const NEW_SWALLOW_RULE = "new_swallowing_handler";

/** Exception types that stand for every error of their language. */
const BROAD_TYPES: ReadonlySet<string> = new Set([
  "Exception",
  "BaseException",
  "Throwable",
  "Error",
  "RuntimeException",
  "StandardError",
  "Object",
  "object",
  "System.Exception",
  "java.lang.Exception",
  "java.lang.Throwable",
  "\\Exception",
  "\\Throwable",
  "\\Error",
]);

/** True when a handler's `caught` ({@link CatchFact.caught}) takes every error: "*", a broad type, or a union or tuple with one. */
export function isBroadCatch(caught: string | undefined): boolean {
  if (caught === undefined) return false;
  if (caught === "*") return true;
  return caught
    .replace(/^\(|\)$/g, "")
    .split(/\s*[|,]\s*/)
    .some((part) => BROAD_TYPES.has(part.trim()));
}

const SWALLOWING: ReadonlySet<CatchFact["behaviour"]> = new Set(["swallows", "returns_constant"]);
const isSwallowing = (fact: CatchFact): boolean => SWALLOWING.has(fact.behaviour);

/** Handlers (not error-handling sites) of one function. */
function handlersOf(code: CodeFacts | null, fn: string): CatchFact[] {
  return (code?.catches ?? []).filter((fact) => fact.subject === undefined && fact.function === fn);
}

function newHandlerFindings(path: string, before: CodeFacts, after: CodeFacts): Finding[] {
  const findings: Finding[] = [];
  const beforeFunctions = new Map((before.functions ?? []).map((fn) => [fn.name, fn] as const));
  const functions = new Set((after.catches ?? []).filter((fact) => fact.subject === undefined && fact.function !== "").map((fact) => fact.function));
  for (const name of functions) {
    const was = beforeFunctions.get(name);
    if (!was) continue; // a new function's handlers guard new code
    const old = handlersOf(before, name);
    const now = handlersOf(after, name);
    // validation.ts pairs handlers by order and reports one that now swallows in place of one that did not.
    const rewritten = now.filter((fact) => {
      const partner = old.find((candidate) => candidate.index === fact.index);
      return partner !== undefined && !isSwallowing(partner) && isSwallowing(fact);
    }).length;
    const gained = now.filter(isSwallowing).length - old.filter(isSwallowing).length - rewritten;
    if (gained <= 0) continue;
    const calledBefore = new Set(was.calls);
    const candidates = now.filter((fact) => {
      const partner = old.find((candidate) => candidate.index === fact.index);
      const isRewritten = partner !== undefined && !isSwallowing(partner);
      const guarded = fact.guardedCalls ?? [];
      return isSwallowing(fact) && !isRewritten && isBroadCatch(fact.caught) && guarded.length > 0 && guarded.every((call) => calledBefore.has(call));
    });
    // The last handlers are the new ones when the function gained some at its end; any order is the same finding.
    for (const fact of candidates.slice(-gained)) {
      const what = fact.behaviour === "swallows" ? "discards every error" : "turns every error into a constant result";
      const caught = fact.caught === "*" ? "a catch-all handler" : `a handler for ${fact.caught}`;
      findings.push(
        report(
          swallowingRule,
          "newHandler",
          { name, path, caught, calls: (fact.guardedCalls ?? []).map((call) => `${call}()`).join(", "), what },
          {
            file: path,
            line: fact.line,
            evidence: { rule: NEW_SWALLOW_RULE, function: name, caught: fact.caught, behaviour: fact.behaviour, guarded_calls: fact.guardedCalls },
          },
        ),
      );
    }
  }
  return findings;
}

/** New swallowing handlers over the changed product files (high validation_bypass, see the module comment). */
export function swallowingFindings(input: RuleInput): Finding[] {
  return editedProductCode(input).flatMap((file) => newHandlerFindings(file.path, file.before, file.after));
}

/**
 * The new-swallowing-handler rule: a broad handler that swallows (or returns
 * a constant) wrapped around calls the function already made. DESIGN.md
 * validation_bypass, "a catch that now swallows or returns a constant"; high,
 * as for a catch rewritten to swallow.
 */
export const swallowingRule = defineRule({
  id: "new-swallowing-handler",
  type: "validation_bypass",
  defaultSeverity: "high",
  description: "An existing function gained a broad handler that discards errors (or turns them into a constant) around calls it already made.",
  messages: {
    newHandler: "{{name}}() in {{path}} gained {{caught}} around code it already ran ({{calls}}); it {{what}}, so failures the tests would see pass",
  },
  check: ({ input }: { input: RuleInput }) => swallowingFindings(input),
});
