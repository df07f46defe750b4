/**
 * Module-level flags a skip condition reads, resolved to what they probe.
 * A suite names its probes once and skips on the name:
 *
 *   try:
 *       __import__("cbor2")
 *   except ImportError:
 *       NO_CBOR2 = True
 *   else:
 *       NO_CBOR2 = False
 *
 *   @pytest.mark.skipif(NO_CBOR2, reason="cbor2 not available")
 *
 * (python-attrs/cattrs 9f3e2a36b5), or `NO_ORJSON: Final =
 * python_implementation() == "PyPy"`, Go's `var onWindows = runtime.GOOS
 * == "windows"`. The name alone says nothing, so checks/skip-condition.ts
 * could not tell such a skip from one under a condition it cannot read;
 * {@link withModuleFlags} puts each flag's definition in its place
 * (`(importlib.util.find_spec("cbor2") is None)`,
 * `(python_implementation() == "PyPy")`) and the condition is judged, and
 * shown, by what it probes.
 *
 * A flag is a name bound once at the top level of the file (through an
 * expression statement or a declaration), or a Python name set to `True`
 * or `False` in the blocks of a top-level `try` that imports a module: set
 * in the `try` or `else` block it says the module imports, in an `except
 * ImportError` (or `ModuleNotFoundError`, or bare) block it says it does
 * not. A name bound twice, or to something longer than 200 characters, is
 * no flag.
 */

import type { Node } from "web-tree-sitter";

/** Longest definition text read as a flag. */
const MAX_DEFINITION = 200;

/** Node types that bind a name to a value at the top level, by shape. */
const TOP_BINDING = /^(assignment|var_spec|const_spec|const_item|static_item|let_declaration|variable_declarator|const_declaration_item|const_element)$/;

/** Node types that wrap top-level bindings. */
const WRAPPER = /^(expression_statement|var_declaration|const_declaration|lexical_declaration|variable_declaration|field_declaration|global_statement|program|source_file|module)$/;

/** Flags already read per tree root (nodes of one tree share their root's id). */
const cache = new WeakMap<Node["tree"], Map<string, string>>();

/** The flags of a file: name -> the condition it stands for (see the module comment). */
export function moduleFlags(root: Node): Map<string, string> {
  const cached = cache.get(root.tree);
  if (cached) return cached;
  const flags = new Map<string, string>();
  const seen = new Map<string, number>();
  const note = (name: string, definition: string): void => {
    seen.set(name, (seen.get(name) ?? 0) + 1);
    if (definition.length <= MAX_DEFINITION) flags.set(name, definition.replace(/\s+/g, " ").trim());
  };
  const visit = (node: Node, depth: number): void => {
    if (TOP_BINDING.test(node.type)) {
      const target = node.childForFieldName("left") ?? node.childForFieldName("name") ?? node.namedChildren[0];
      const value = node.childForFieldName("right") ?? node.childForFieldName("value");
      if (target && value && /identifier|constant|name/.test(target.type)) note(target.text, value.text);
      return;
    }
    if (node.type === "try_statement") {
      for (const [name, definition] of importProbes(node)) note(name, definition);
      return;
    }
    if (depth < 3 && WRAPPER.test(node.type)) for (const child of node.namedChildren) if (child) visit(child, depth + 1);
  };
  for (const child of root.namedChildren) if (child) visit(child, 0);
  for (const [name, count] of seen) if (count > 1) flags.delete(name);
  cache.set(root.tree, flags);
  return flags;
}

/** The modules a Python block imports: `import a.b`, `from a import b`, `__import__("a")`, `importlib.import_module("a")`. */
function importedModules(block: Node): string[] {
  const modules: string[] = [];
  for (const node of block.descendantsOfType(["import_statement", "import_from_statement", "call"])) {
    if (!node) continue;
    if (node.type === "import_statement") for (const name of node.childrenForFieldName("name")) modules.push((name?.childForFieldName("name") ?? name)?.text ?? "");
    else if (node.type === "import_from_statement") modules.push(node.childForFieldName("module_name")?.text ?? "");
    else if (/^(__import__|importlib\.import_module|import_module)$/.test(node.childForFieldName("function")?.text ?? "")) {
      const first = node.childForFieldName("arguments")?.namedChildren[0];
      if (first?.type === "string") modules.push(first.text.replace(/^[rbuf]*["']+|["']+$/gi, ""));
    }
  }
  return modules.filter((module) => module !== "");
}

/** The `NAME = True|False` assignments directly in a block: name -> the boolean. */
function booleanAssignments(block: Node | null): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const statement of block?.namedChildren ?? []) {
    const assignment = statement?.type === "expression_statement" ? statement.namedChildren[0] : null;
    if (assignment?.type !== "assignment") continue;
    const target = assignment.childForFieldName("left");
    const value = assignment.childForFieldName("right")?.text;
    if (target?.type === "identifier" && (value === "True" || value === "False")) found.set(target.text, value === "True");
  }
  return found;
}

/** True for an `except` clause that catches a failed import: ImportError, ModuleNotFoundError, a tuple holding one, Exception, or bare. */
function catchesImportError(clause: Node): boolean {
  const caught = clause.namedChildren.find((child) => child !== null && child.type !== "block")?.text ?? "";
  return caught === "" || /\b(ImportError|ModuleNotFoundError|Exception|BaseException)\b/.test(caught);
}

/** The flags a top-level Python `try` that imports a module sets (see the module comment). */
function importProbes(statement: Node): Map<string, string> {
  const probes = new Map<string, string>();
  const body = statement.childForFieldName("body");
  const modules = body ? importedModules(body) : [];
  if (modules.length === 0) return probes;
  // Written as the standard probe (importlib.util.find_spec), so the condition reads as code and as what it asks.
  const spec = (module: string, isFound: boolean): string => `importlib.util.find_spec(${JSON.stringify(module)}) is ${isFound ? "not " : ""}None`;
  const importable = modules.map((module) => spec(module, true)).join(" and ");
  const missing = modules.map((module) => spec(module, false)).join(" or ");
  const set = (assignments: Map<string, boolean>, whenImported: boolean): void => {
    for (const [name, value] of assignments) probes.set(name, value === whenImported ? importable : missing);
  };
  set(booleanAssignments(body), true);
  for (const clause of statement.namedChildren) {
    if (clause?.type === "else_clause") set(booleanAssignments(clause.childForFieldName("body") ?? clause.namedChildren.find((child) => child?.type === "block") ?? null), true);
    if (clause?.type === "except_clause" && catchesImportError(clause)) set(booleanAssignments(clause.namedChildren.find((child) => child?.type === "block") ?? null), false);
  }
  return probes;
}

/**
 * A skip condition with each module flag it reads replaced by its
 * definition in parentheses ({@link moduleFlags}); the condition as it was
 * when it reads none. Names inside string literals are left alone.
 */
export function withModuleFlags(condition: string, root: Node): string {
  const flags = moduleFlags(root);
  if (flags.size === 0) return condition;
  return condition.replace(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|[A-Za-z_][\w]*/g, (match, quoted: string | undefined, offset: number) => {
    if (quoted !== undefined) return match;
    // A member (`obj.NAME`) or a keyword argument (`reason=`) is not the flag.
    if (condition[offset - 1] === "." || /^\s*=(?!=)/.test(condition.slice(offset + match.length))) return match;
    const definition = flags.get(match);
    return definition === undefined ? match : `(${definition})`;
  });
}
