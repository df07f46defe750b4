/**
 * Python skips that reach tests through indirection (issue 9): `raise
 * unittest.SkipTest(...)` / `raise pytest.skip.Exception(...)`, and which
 * functions of a file hand a skip to its tests (parsers/skip-reach.ts):
 * `setUp`/`setUpClass`/`setup_method`/`setup_class` (the tests of their
 * class), `setup_module`/`setup_function`/`setUpModule` and an autouse
 * fixture at module level (every test of the file), an autouse fixture in a
 * class (that class's tests), any other `@pytest.fixture` (the tests that
 * take it as a parameter, by its `name=` or function name), a module-level
 * `pytest.skip(..., allow_module_level=True)` (every test of the file), and
 * any other function (the tests that call it).
 */

import type { Node } from "../parsers/tree-sitter.js";
import type { SkipDraft, SkipReach } from "../parsers/tree-sitter.js";
import type { SkipProviderKind } from "../parsers/skip-reach.js";

/** Methods of a unittest/pytest class that run before each (or all) of its tests. */
const CLASS_SETUPS: ReadonlySet<string> = new Set(["setUp", "setUpClass", "asyncSetUp", "setup_method", "setup_class", "setup"]);

/** Module-level functions that run before the module's tests. */
const MODULE_SETUPS: ReadonlySet<string> = new Set(["setUpModule", "setup_module", "setup_function", "setup"]);

/** The decorator expressions of a function definition. */
function decorators(fn: Node): Node[] {
  const wrapper = fn.parent;
  if (wrapper?.type !== "decorated_definition") return [];
  return wrapper.namedChildren
    .filter((child): child is Node => child?.type === "decorator")
    .map((decorator) => decorator.namedChild(0))
    .filter((expression): expression is Node => expression !== null);
}

/** The class a function is a method of, or null for a module-level function (or one nested in a function). */
function enclosingClass(fn: Node): Node | null {
  const holder = fn.parent?.type === "decorated_definition" ? fn.parent.parent : fn.parent;
  const owner = holder?.type === "block" ? holder.parent : null;
  return owner?.type === "class_definition" ? owner : null;
}

/** True when a function is defined at module level. */
function isModuleLevel(fn: Node): boolean {
  const holder = fn.parent?.type === "decorated_definition" ? fn.parent.parent : fn.parent;
  return holder?.type === "module";
}

/** `@pytest.fixture`, `@fixture`, `@pytest.fixture(autouse=True, name="db")`: its autouse and name, or null. */
function fixtureOf(fn: Node): { isAutouse: boolean; name: string | null } | null {
  for (const expression of decorators(fn)) {
    const target = expression.type === "call" ? expression.childForFieldName("function") : expression;
    if (!/(^|\.)fixture$/.test(target?.text ?? "")) continue;
    const args = expression.type === "call" ? (expression.childForFieldName("arguments")?.text ?? "") : "";
    const name = /\bname\s*=\s*["']([^"']+)["']/.exec(args);
    return { isAutouse: /\bautouse\s*=\s*True\b/.test(args), name: name ? (name[1] as string) : null };
  }
  return null;
}

/** What a Python function holding a skip is to the tests of its file (see the module doc). */
export function classifyPythonSkipHolder(fn: Node): SkipProviderKind | null {
  if (fn.type !== "function_definition") return null;
  const name = fn.childForFieldName("name")?.text;
  if (!name) return null;
  const cls = enclosingClass(fn);
  const fixture = fixtureOf(fn);
  if (fixture?.isAutouse) return { kind: "setup", scope: cls, label: `autouse fixture ${name}` };
  if (fixture) return { kind: "fixture", name: fixture.name ?? name };
  if (cls && CLASS_SETUPS.has(name)) return { kind: "setup", scope: cls, label: name };
  if (!cls && isModuleLevel(fn) && MODULE_SETUPS.has(name)) return { kind: "setup", scope: null, label: name };
  return { kind: "helper", name };
}

/** How Python skips outside tests reach them. */
export const PYTHON_SKIP_REACH: SkipReach = {
  classify: classifyPythonSkipHolder,
  functionTypes: new Set(["function_definition"]),
  topLevelLabel: "a module-level skip",
  recordsCalls: "parameters",
};

/** `raise unittest.SkipTest("why")`, `raise SkipTest`, `raise pytest.skip.Exception("why")`: skips, as SkipDrafts. */
export function raisedSkips(root: Node): SkipDraft[] {
  const skips: SkipDraft[] = [];
  for (const statement of root.descendantsOfType("raise_statement")) {
    if (!statement) continue;
    const raised = statement.namedChild(0);
    const callee = raised?.type === "call" ? raised.childForFieldName("function") : raised;
    const text = callee?.text.replace(/\s+/g, "") ?? "";
    if (!/(^|\.)SkipTest$|(^|\.)skip\.Exception$/.test(text)) continue;
    const reason = raised?.type === "call" ? /["']([^"']*)["']/.exec(raised.childForFieldName("arguments")?.text ?? "") : null;
    const skip: SkipDraft = { startIndex: statement.startIndex, flag: "skipped", via: `raise ${text}`, node: statement };
    if (reason) skip.reason = reason[1] as string;
    skips.push(skip);
  }
  return skips;
}
