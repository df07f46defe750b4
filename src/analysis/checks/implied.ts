/**
 * Checks implied by a whole-value equality (issue 9, implied checks judged
 * soundly): `expect(config).toEqual({ port: 80, hosts: ["a"] })` pins every
 * part of `config`, so it implies `expect(config.port).toBe(80)` and
 * `expect(config.hosts.length).toBe(1)`, but not `expect(config.port)
 * .toBe(8080)`, which contradicts it (an impossible test made possible by
 * dropping the check that cannot pass). The expected value is read as a
 * literal (an object, a map, an array, a tuple, a struct literal, a
 * snapshot's recorded text) and the part the field check reads is looked up
 * in it; the check is implied only when that part is there and agrees.
 */

import { canonicalText, isLiteralText, literalKey, splitArguments, type Check } from "./normalise.js";

/** A literal value read from canonical text: a scalar (its canonical text), a list (array, tuple), or a record (object, map, struct). */
export type LiteralTree = { kind: "scalar"; text: string } | { kind: "list"; items: LiteralTree[] } | { kind: "record"; fields: Map<string, LiteralTree> };

/** Nesting past which a literal is not read (a bound for pathological input). */
const MAX_DEPTH = 12;

/**
 * The literal a canonical text spells, or null when it is not one (it reads
 * a name, calls a function, or does not parse). A string holding an object
 * or array (an inline snapshot's recorded text) is read as that value.
 */
export function readLiteral(text: string, depth = 0): LiteralTree | null {
  if (depth > MAX_DEPTH || text === "") return null;
  if (isLiteralText(text) || /^-\d/.test(text)) {
    const inner = /^"(.*)"$/s.exec(text)?.[1];
    if (inner !== undefined && /^\s*[[{]/.test(inner)) {
      const snapshot = readLiteral(canonicalText(inner.replace(/\\"/g, '"').replace(/\\n/g, "\n")), depth + 1);
      if (snapshot) return snapshot;
    }
    return { kind: "scalar", text };
  }
  const open = /^(?:vec!|[A-Z][\w:.]*)?([[({])/.exec(text);
  if (!open || !text.endsWith({ "[": "]", "(": ")", "{": "}" }[open[1] as "[" | "(" | "{"])) return null;
  const inner = text.slice((open[0] as string).length, -1);
  const parts = inner === "" ? [] : splitArguments(inner);
  const isNamed = (open[0] as string).length > 1;
  const fieldsOf = (separator: RegExp): Map<string, LiteralTree> | null => {
    const fields = new Map<string, LiteralTree>();
    for (const part of parts) {
      const match = separator.exec(part);
      if (!match) return null;
      const value = readLiteral(match[2] as string, depth + 1);
      if (!value) return null;
      fields.set((match[1] as string).replace(/^"(.*)"$/, "$1"), value);
    }
    return fields;
  };
  if (open[1] === "{") {
    // An object or map (`{port:80}`, `{"port":80}`, Ruby's `{"port"=>80}`), or a struct literal (`Config{Port:80}`, `Config { port: 80 }`).
    const fields = fieldsOf(/^("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)(?::|=>)(.+)$/s);
    return fields ? { kind: "record", fields } : null;
  }
  if (open[1] === "(" && isNamed && !(open[0] as string).startsWith("vec!")) {
    // A constructor with keywords (`Config(port=80)`, `Owner(pid=1)`): a record; positional arguments are not read.
    const fields = parts.length > 0 ? fieldsOf(/^([A-Za-z_]\w*)=(.+)$/s) : new Map<string, LiteralTree>();
    return fields ? { kind: "record", fields } : null;
  }
  const items: LiteralTree[] = [];
  for (const part of parts) {
    const item = readLiteral(part, depth + 1);
    if (!item) return null;
    items.push(item);
  }
  return { kind: "list", items };
}

/** The steps of a member/index path in canonical text (`.port`, `["k"]`, `[0]`, `.0`, `.length`), or null when the text is no such path. */
function pathSteps(path: string): string[] | null {
  const steps: string[] = [];
  const step = /^(?:\??\.([A-Za-z_$][\w$]*|\d+)|\[(\d+|"(?:[^"\\]|\\.)*")\])/;
  let rest = path;
  while (rest !== "") {
    const match = step.exec(rest);
    if (!match) return null;
    steps.push((match[1] ?? match[2] ?? "").replace(/^"(.*)"$/, "$1"));
    rest = rest.slice((match[0] as string).length);
  }
  return steps;
}

/**
 * The part of a literal a path reads; "absent" when the literal spells out
 * a record or list that has no such part (an exact equality then says the
 * part is not there), null when it cannot be told (a scalar's member).
 */
function partAt(tree: LiteralTree, steps: readonly string[]): LiteralTree | "absent" | null {
  let at: LiteralTree = tree;
  for (const step of steps) {
    if (at.kind === "record") {
      const next = at.fields.get(step);
      if (!next) return "absent";
      at = next;
    } else if (at.kind === "list") {
      if ((step === "length" || step === "len") && steps[steps.length - 1] === step) return { kind: "scalar", text: String(at.items.length) };
      if (!/^\d+$/.test(step)) return null;
      const next = at.items[Number(step)];
      if (!next) return "absent";
      at = next;
    } else return null;
  }
  return at;
}

/** The literal text of a part, canonical (lists and records as written again), for comparison with an expected value. */
function textOf(tree: LiteralTree): string {
  if (tree.kind === "scalar") return literalKey(tree.text);
  if (tree.kind === "list") return `[${tree.items.map(textOf).join(",")}]`;
  return `{${[...tree.fields].map(([key, value]) => `${key}:${textOf(value)}`).join(",")}}`;
}

/**
 * A check of a record's keys (`params.keys.must_include "bio"`, `"bio" in
 * params.keys()`, negated: `wont_include`) read from the literal: true when
 * the record at `path` (before its `.keys`) has the key (lacks it, negated),
 * false when it does not; null when the record cannot be read; undefined
 * when the part is no key check.
 */
function impliedKeyCheck(part: Check, path: string, literal: LiteralTree): boolean | null | undefined {
  const record = /^(.*?)\.keys(?:\(\))?$/s.exec(path)?.[1];
  if (part.relation !== "contains" || record === undefined || part.expected === undefined) return undefined;
  const steps = pathSteps(record);
  const key = readLiteral(part.expected);
  if (!steps || key?.kind !== "scalar") return null;
  const found = partAt(literal, steps);
  if (found === null || (found !== "absent" && found.kind !== "record")) return null;
  const name = key.text.replace(/^"(.*)"$/s, "$1");
  return (found !== "absent" && found.fields.has(name)) !== part.isNegated;
}

/**
 * Whether `whole` (an equality of a value to a literal) implies `part`, a
 * check of a part of that value (`part.subject` = `whole.subject`, or the
 * local `whole` read it through, followed by a member or index path): true
 * when the part is in the literal and
 * agrees with the check (equal, a null check, a truthiness check, a
 * length); false when it is there and disagrees or the literal (an exact
 * record or list) has no such part; null when it cannot be
 * told (the expected value is no literal, the path reads something the
 * literal does not spell out, the relation is another).
 */
export function impliedByWhole(part: Check, whole: Check): boolean | null {
  if ((whole.relation !== "equal" && whole.relation !== "snapshot") || whole.isNegated || whole.expected === undefined) return null;
  // The whole value as the after check reads it, or as the local it was read through (`config` of `config.port`).
  const base = [whole.subject, whole.local].find(
    (candidate) => candidate !== undefined && candidate !== "" && part.subject.startsWith(candidate) && /^\??[.[]/.test(part.subject.slice(candidate.length)),
  );
  if (base === undefined) return null;
  const literal = readLiteral(whole.expectedValue ?? whole.expected);
  if (!literal) return null;
  const keys = impliedKeyCheck(part, part.subject.slice(base.length), literal);
  if (keys !== undefined) return keys;
  const steps = pathSteps(part.subject.slice(base.length));
  if (!steps || part.isNegated) return null;
  const relation = part.relation;
  // A length check's subject is the collection itself (`config.hosts` of `len(config.hosts) == 1`).
  const found = partAt(literal, relation === "length" ? [...steps, "length"] : steps);
  if (found === null) return null;
  // A part the exact literal does not have: the equality says it is not there, so a check of its value contradicts it.
  if (found === "absent") return relation === "nullish" ? true : relation === "falsy" ? true : false;
  const text = textOf(found);
  if (relation === "equal" && part.expected !== undefined) {
    const expected = readLiteral(part.expected);
    return expected ? textOf(expected) === text : null;
  }
  if (relation === "length" && part.expected !== undefined) return /^\d+$/.test(part.expected) ? part.expected === text : null;
  // A part that holds the expected item or substring (`bio.must_include "hell"` of `"bio" => "hello"`).
  if (relation === "contains" && part.expected !== undefined) {
    const item = readLiteral(part.expected);
    if (!item) return null;
    if (found.kind === "list") return found.items.some((candidate) => textOf(candidate) === textOf(item));
    const [haystack, needle] = [found, item].map((tree) => (tree.kind === "scalar" ? /^"(.*)"$/s.exec(tree.text)?.[1] : undefined));
    return haystack !== undefined && needle !== undefined ? haystack.includes(needle) : null;
  }
  if (relation === "nullish") return /^(?:null|nil|None|undefined)$/.test(text);
  if (relation === "truthy" || relation === "falsy") {
    if (!/^(?:true|false|True|False)$/.test(text)) return null;
    return /^(?:true|True)$/.test(text) === (relation === "truthy");
  }
  return null;
}
