/**
 * Python's validation schemas as {@link SchemaFact}s (notation `keyword`),
 * so the validation_bypass rule's schema_loosened check (shared with zod,
 * yup and joi) judges pydantic models and marshmallow schemas too.
 *
 * A model class gives one fact for itself (key `Model`: its config and
 * model validators) and one per field (key `Model.field`: the field's
 * constraint names). What counts, per the pydantic docs ("Fields",
 * "Constrained types", "Validators", "Configuration"):
 * - `Field(...)`, `conint/constr/conlist/...(...)`, `StringConstraints(...)`
 *   keywords: `gt`, `ge`, `lt`, `le`, `multiple_of`, `min_length`,
 *   `max_length`, `pattern`, … (`Annotated[int, Field(gt=0)]` too);
 *   `strict=True` -> `strict`, `allow_inf_nan=False` -> `finite`;
 * - constrained types: `PositiveInt` -> `gt`, `EmailStr` -> `email`,
 *   `HttpUrl` -> `url`, `StrictStr` -> `strict`, …; annotated-types
 *   metadata (`Gt(0)` -> `gt`, `MinLen(1)` -> `min_length`);
 * - `Optional[X]` / `X | None` -> `nullable`, a `None` default ->
 *   `optional` and `nullable` (the value may be None either way, so
 *   `x: str = None` -> `x: Optional[str] = None` changes nothing), `Any` ->
 *   `any`; a field's tokens are a set;
 * - a field validator, however written (`@field_validator("a")`,
 *   `@validator("a")`, `Annotated[..., AfterValidator(f)]`, any of
 *   `Before/Plain/WrapValidator`), -> `validator`, so moving one from a
 *   decorator into the annotation keeps it; `@model_validator` /
 *   `@root_validator` -> `model_validator`;
 * - `model_config = ConfigDict(extra="forbid")` (or a dict, a v1
 *   `class Config`, class keywords) -> `extra=forbid`, `extra="allow"` ->
 *   `extra=allow`, `strict=True` -> `strict`.
 * And per marshmallow's docs (fields.Field, "Validation", "Handling
 * unknown fields"): `required=True` -> `required`, one `validate` per
 * validator, `allow_none=True` -> `nullable`, `fields.Email` -> `email`,
 * `fields.Url` -> `url`, `fields.Raw` -> `any`, `@validates("a")`,
 * `@validates_schema`, Meta `unknown = INCLUDE|EXCLUDE`.
 *
 * A field whose annotation is one name this module does not know (`age:
 * Age`, a type alias declared elsewhere) is `opaque`: its constraints may
 * live in that name, so none is reported dropped.
 */

import { PYDANTIC_CONSTRAINT_KEYWORDS } from "../facts.js";
import { namedChildren, stringValue, type Node } from "../parsers/tree-sitter.js";
import type { CodeContext, SchemaDraft } from "../parsers/tree-sitter-code.js";

/** Base classes that make a pydantic model (pydantic v1/v2, pydantic-settings, SQLModel). */
const PYDANTIC_BASES: ReadonlySet<string> = new Set(["BaseModel", "BaseSettings", "RootModel", "GenericModel", "SQLModel"]);

/** Keywords of `Field`, `con*` and `StringConstraints` that constrain the value: each is its own token. */
const CONSTRAINT_KEYWORDS: ReadonlySet<string> = new Set(PYDANTIC_CONSTRAINT_KEYWORDS);

/** A name -> tokens table from groups of names sharing their tokens. */
function tokensByName(groups: readonly (readonly [readonly string[], readonly string[]])[]): ReadonlyMap<string, readonly string[]> {
  return new Map(groups.flatMap(([names, tokens]) => names.map((name) => [name, tokens] as const)));
}

/** pydantic's constrained types -> the constraints they carry. */
const CONSTRAINED_TYPES = tokensByName([
  [["PositiveInt", "PositiveFloat"], ["gt"]],
  [["NegativeInt", "NegativeFloat"], ["lt"]],
  [["NonNegativeInt", "NonNegativeFloat"], ["ge"]],
  [["NonPositiveInt", "NonPositiveFloat"], ["le"]],
  [["StrictStr", "StrictInt", "StrictFloat", "StrictBool", "StrictBytes"], ["strict"]],
  [["EmailStr", "NameEmail"], ["email"]],
  [["AnyUrl", "AnyHttpUrl", "HttpUrl", "FileUrl", "FtpUrl", "WebsocketUrl", "AnyWebsocketUrl"], ["url"]],
  [["UUID1", "UUID3", "UUID4", "UUID5"], ["uuid"]],
  [["FiniteFloat"], ["finite"]],
  [["Any"], ["any"]],
]);

/** annotated-types metadata (`Annotated[int, Gt(0)]`) -> the token of the same constraint. */
const ANNOTATED_TYPES = tokensByName([
  [["Gt"], ["gt"]],
  [["Ge"], ["ge"]],
  [["Lt"], ["lt"]],
  [["Le"], ["le"]],
  [["MultipleOf"], ["multiple_of"]],
  [["MinLen"], ["min_length"]],
  [["MaxLen"], ["max_length"]],
  [["Len"], ["min_length", "max_length"]],
  [["Strict"], ["strict"]],
  [["Predicate", "AfterValidator", "BeforeValidator", "PlainValidator", "WrapValidator"], ["validator"]],
]);

/** Calls whose keywords are constraints: `Field`, the `con*` functions, `StringConstraints`, `Interval`. */
const CONSTRAINT_CALL = /^(Field|con(int|float|str|bytes|list|set|frozenset|decimal|date)|StringConstraints|Interval)$/;

/** Names an annotation may use without hiding constraints: builtins, typing, the standard library's value types. */
const PLAIN_TYPES: ReadonlySet<string> = new Set([
  "str",
  "int",
  "float",
  "bool",
  "bytes",
  "bytearray",
  "complex",
  "list",
  "dict",
  "set",
  "frozenset",
  "tuple",
  "object",
  "type",
  "Optional",
  "Union",
  "List",
  "Dict",
  "Set",
  "FrozenSet",
  "Tuple",
  "Sequence",
  "Mapping",
  "Iterable",
  "Literal",
  "Annotated",
  "Decimal",
  "UUID",
  "Path",
  "date",
  "datetime",
  "time",
  "timedelta",
  "IPv4Address",
  "IPv6Address",
  "Json",
  "SecretStr",
  "SecretBytes",
]);

/** marshmallow field classes -> the constraint they carry (`fields.Email`) or loosen (`fields.Raw`). */
const MARSHMALLOW_FIELD_TYPES = tokensByName([
  [["Email"], ["email"]],
  [["Url", "URL"], ["url"]],
  [["UUID"], ["uuid"]],
  [["Raw"], ["any"]],
]);

/** Decorators that validate one or more named fields (`"*"`: every field, so the model) -> their token. */
const FIELD_VALIDATORS: ReadonlyMap<string, string> = new Map([
  ["field_validator", "validator"],
  ["validator", "validator"],
  ["validates", "validates"],
]);
/** Decorators that validate the whole model or schema -> their token. */
const MODEL_VALIDATORS: ReadonlyMap<string, string> = new Map([
  ["model_validator", "model_validator"],
  ["root_validator", "model_validator"],
  ["validates_schema", "validates_schema"],
]);

/** Imports that make a file's classes candidates: pydantic (and its siblings), marshmallow (and its integrations). */
const IMPORTS_PYDANTIC = /^\s*(?:from|import)\s+(?:pydantic|pydantic_settings|sqlmodel)\b/m;
const IMPORTS_MARSHMALLOW = /^\s*(?:from|import)\s+(?:marshmallow|flask_marshmallow|marshmallow_sqlalchemy|marshmallow_dataclass)\b/m;

type SchemaKind = "pydantic" | "marshmallow";

/** Last dotted name of an identifier or attribute (`pydantic.Field` -> "Field"), else null. */
function lastName(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "identifier") return node.text;
  if (node.type === "attribute") return node.childForFieldName("attribute")?.text ?? null;
  return null;
}

/** The last name of a call's callee (`fields.Str(...)` -> "Str"), else null. */
const calleeName = (call: Node): string | null => lastName(call.childForFieldName("function"));

/** Plain string values of a call's positional arguments (`@field_validator("a", "b", mode="before")` -> ["a", "b"]). */
function positionalStrings(call: Node): string[] {
  const args = call.childForFieldName("arguments");
  return (args ? namedChildren(args) : []).flatMap((arg) => {
    const value = arg.type === "string" && arg.descendantsOfType("interpolation").length === 0 ? stringValue(arg) : null;
    return value === null ? [] : [value];
  });
}

/** The keyword arguments of a call, by name. */
function keywordArguments(call: Node): Map<string, Node> {
  const keywords = new Map<string, Node>();
  const args = call.childForFieldName("arguments");
  for (const arg of args ? namedChildren(args) : []) {
    if (arg.type !== "keyword_argument") continue;
    const name = arg.childForFieldName("name")?.text;
    const value = arg.childForFieldName("value");
    if (name && value) keywords.set(name, value);
  }
  return keywords;
}

const isFalsy = (node: Node): boolean => node.type === "false" || node.type === "none";
const isTrue = (node: Node): boolean => node.type === "true";

/** Tokens of constraint keywords (`Field(gt=0, strict=True)` -> ["gt", "strict"]); a `None`/`False` value constrains nothing. */
function constraintTokens(call: Node): string[] {
  const tokens: string[] = [];
  for (const [name, value] of keywordArguments(call)) {
    if (name === "allow_inf_nan") {
      if (value.type === "false") tokens.push("finite");
    } else if (name === "strict") {
      if (isTrue(value)) tokens.push("strict");
    } else if (name === "default") {
      if (value.type === "none") tokens.push("optional");
    } else if (CONSTRAINT_KEYWORDS.has(name) && !isFalsy(value)) {
      tokens.push(name);
    }
  }
  return tokens;
}

/** What an annotation says, and whether it is one unknown name (whose constraints live elsewhere). */
interface AnnotationReading {
  tokens: string[];
  isOpaque: boolean;
}

/** The tokens of an annotation (see the module comment), descending into unions, generics and `Annotated` metadata. */
function readAnnotation(node: Node | null): AnnotationReading {
  const tokens: string[] = [];
  const visit = (current: Node | null): void => {
    if (!current) return;
    switch (current.type) {
      case "type":
      case "type_parameter":
      case "union_type": // `Literal["a"] | None` (a plain `str | None` is a binary_operator)
        for (const child of namedChildren(current)) visit(child);
        return;
      case "none":
        tokens.push("nullable");
        return;
      case "identifier":
      case "attribute": {
        const name = lastName(current) ?? "";
        tokens.push(...(CONSTRAINED_TYPES.get(name) ?? []));
        return;
      }
      case "binary_operator":
        visit(current.childForFieldName("left"));
        visit(current.childForFieldName("right"));
        return;
      case "generic_type":
      case "subscript": {
        const head = current.type === "subscript" ? current.childForFieldName("value") : namedChildren(current)[0];
        const name = lastName(head) ?? "";
        const parameters = current.type === "subscript" ? current.childrenForFieldName("subscript").filter((child): child is Node => child !== null) : namedChildren(current).slice(1);
        if (name === "Literal") return;
        if (name === "Optional") tokens.push("nullable");
        if (name === "Annotated") {
          const [base, ...metadata] = parameters.flatMap((parameter) => (parameter.type === "type_parameter" ? namedChildren(parameter) : [parameter]));
          visit(base ?? null);
          for (const entry of metadata) visitMetadata(entry);
          return;
        }
        for (const parameter of parameters) visit(parameter);
        return;
      }
      case "call": {
        const name = calleeName(current) ?? "";
        if (CONSTRAINT_CALL.test(name)) {
          tokens.push(...constraintTokens(current));
          const first = current.childForFieldName("arguments")?.namedChild(0);
          if (first && first.type !== "keyword_argument") visit(first); // conlist(EmailStr, ...)
        }
        return;
      }
      default:
        return;
    }
  };
  const visitMetadata = (entry: Node): void => {
    const inner = entry.type === "type" ? namedChildren(entry)[0] : entry;
    if (!inner) return;
    const name = inner.type === "call" ? (calleeName(inner) ?? "") : (lastName(inner) ?? "");
    if (inner.type === "call" && CONSTRAINT_CALL.test(name)) tokens.push(...constraintTokens(inner));
    else tokens.push(...(ANNOTATED_TYPES.get(name) ?? []));
  };
  visit(node);
  return { tokens, isOpaque: isOneUnknownName(node) };
}

/** True when an annotation, without `Optional`/`| None`, is one name neither plain nor constrained (`Age`, `models.Age`). */
function isOneUnknownName(node: Node | null): boolean {
  let current = node;
  for (let depth = 0; current && depth < 10; depth++) {
    if (current.type === "type") {
      current = namedChildren(current)[0] ?? null;
    } else if (current.type === "binary_operator" || current.type === "union_type") {
      const operands = current.type === "union_type" ? namedChildren(current) : [current.childForFieldName("left"), current.childForFieldName("right")];
      const sides = operands.filter((side): side is Node => side !== null && side.type !== "none" && !(side.type === "type" && namedChildren(side)[0]?.type === "none"));
      if (sides.length !== 1) return false;
      current = sides[0] as Node;
    } else if (current.type === "generic_type" && lastName(namedChildren(current)[0]) === "Optional") {
      current = namedChildren(namedChildren(current)[1] ?? current)[0] ?? null;
    } else {
      const name = lastName(current);
      return name !== null && /^[A-Z]/.test(name) && !PLAIN_TYPES.has(name) && !CONSTRAINED_TYPES.has(name);
    }
  }
  return false;
}

/** The tokens of a pydantic field's default (`= None` -> optional, `= Field(..., min_length=3)` -> min_length). */
function defaultTokens(value: Node | null): string[] {
  if (!value) return [];
  if (value.type === "none") return ["optional", "nullable"];
  if (value.type !== "call" || calleeName(value) !== "Field") return [];
  const first = value.childForFieldName("arguments")?.namedChild(0);
  const tokens = constraintTokens(value);
  return [...(first?.type === "none" || tokens.includes("optional") ? ["optional", "nullable"] : []), ...tokens];
}

/** Config tokens of `extra`/`strict`/`unknown` settings given as keyword (`ConfigDict(extra="forbid")`) or dict entries. */
function configToken(name: string, value: Node): string | null {
  const text = value.text.replace(/^["']|["']$/g, "");
  const word = text.slice(text.lastIndexOf(".") + 1);
  if (name === "extra" && /^(forbid|allow)$/i.test(word)) return `extra=${word.toLowerCase()}`;
  if (name === "strict" && isTrue(value)) return "strict";
  if (name === "unknown" && /^(INCLUDE|EXCLUDE)$/i.test(word)) return `unknown=${word.toUpperCase()}`;
  return null;
}

/** Config tokens of a `model_config = ConfigDict(...)` / `{...}` value. */
function configTokensOf(value: Node | null): string[] {
  if (!value) return [];
  const entries: [string, Node][] = [];
  if (value.type === "call") entries.push(...keywordArguments(value));
  if (value.type === "dictionary") {
    for (const pair of namedChildren(value)) {
      const key = pair.childForFieldName("key");
      const entry = pair.childForFieldName("value");
      if (pair.type === "pair" && key?.type === "string" && entry) entries.push([key.text.replace(/^["']|["']$/g, ""), entry]);
    }
  }
  return entries.flatMap(([name, entry]) => configToken(name, entry) ?? []);
}

/** The statement inside an `expression_statement` (an assignment), else the node. */
const statementOf = (node: Node): Node => (node.type === "expression_statement" ? (node.namedChild(0) ?? node) : node);

/** Base class names of a class (`class A(pydantic.BaseModel, extra="forbid")` -> ["BaseModel"]). */
function baseNames(classNode: Node): string[] {
  const superclasses = classNode.childForFieldName("superclasses");
  return (superclasses ? namedChildren(superclasses) : []).flatMap((base) => lastName(base.type === "subscript" ? base.childForFieldName("value") : base) ?? []);
}

/** Decorator names of a class or function (`@pydantic.dataclasses.dataclass` -> "dataclass"). */
function decoratorsOf(node: Node): Node[] {
  const parent = node.parent;
  return parent?.type === "decorated_definition" ? namedChildren(parent).filter((child) => child.type === "decorator") : [];
}

/** A decorator's called or named expression (`@field_validator("a")` -> the call). */
const decoratorExpression = (decorator: Node): Node | null => namedChildren(decorator)[0] ?? null;

/** True when a class body uses pydantic's vocabulary: `Field(...)`, a `con*` type, a validator, `model_config`. */
function usesPydantic(body: Node): boolean {
  return /\b(Field|con(int|float|str|list|set|decimal|bytes|date))\s*\(|@(field_validator|validator|model_validator|root_validator)\b|\bmodel_config\s*=/.test(body.text);
}

/** What one file's classes are judged against: its imports (read once) and the schema classes seen so far (name -> library). */
interface SchemaFile {
  importsPydantic: boolean;
  importsPydanticDataclass: boolean;
  importsMarshmallow: boolean;
  known: Map<string, SchemaKind>;
}

/** Memo key of a file's {@link SchemaFile}. */
const SCHEMA_FILE = "python.schemaFile";

function schemaFileOf(context: CodeContext): SchemaFile {
  let file = context.memo.get(SCHEMA_FILE) as SchemaFile | undefined;
  if (!file) {
    const content = context.content;
    file = {
      importsPydantic: IMPORTS_PYDANTIC.test(content),
      importsPydanticDataclass: /\bpydantic\.dataclasses\b/.test(content),
      importsMarshmallow: IMPORTS_MARSHMALLOW.test(content),
      known: new Map(),
    };
    context.memo.set(SCHEMA_FILE, file);
  }
  return file;
}

/** Which schema library a class belongs to, from its bases, the classes already seen in the file, and the file's imports. */
function schemaKindOf(classNode: Node, file: SchemaFile): SchemaKind | null {
  const bases = baseNames(classNode);
  for (const base of bases) {
    const kind = file.known.get(base);
    if (kind) return kind;
  }
  if (bases.some((base) => PYDANTIC_BASES.has(base))) return "pydantic";
  const body = classNode.childForFieldName("body");
  if (file.importsPydantic) {
    const isPydanticDataclass = file.importsPydanticDataclass && decoratorsOf(classNode).some((decorator) => /dataclass/.test(decorator.text));
    if (isPydanticDataclass || (bases.length > 0 && body && usesPydantic(body))) return "pydantic";
  }
  if (file.importsMarshmallow) {
    if (bases.some((base) => /Schema$/.test(base))) return "marshmallow";
    if (body && namedChildren(body).some((statement) => isMarshmallowField(statementOf(statement).childForFieldName("right")))) return "marshmallow";
  }
  return null;
}

/** `fields.Str(...)`, `ma.Email(...)`, `ma.fields.Int(...)`: a marshmallow field declaration. */
function isMarshmallowField(value: Node | null | undefined): value is Node {
  if (value?.type !== "call") return false;
  const callee = value.childForFieldName("function");
  const object = callee?.type === "attribute" ? lastName(callee.childForFieldName("object")) : null;
  return object === "fields" || object === "ma";
}

/** Tokens of a marshmallow field declaration (see the module comment). */
function marshmallowTokens(call: Node): string[] {
  const tokens = [...(MARSHMALLOW_FIELD_TYPES.get(calleeName(call) ?? "") ?? [])];
  for (const [name, value] of keywordArguments(call)) {
    if (name === "required" && isTrue(value)) tokens.push("required");
    if (name === "allow_none" && isTrue(value)) tokens.push("nullable");
    if (name === "strict" && isTrue(value)) tokens.push("strict");
    if (name === "validate") {
      const count = value.type === "list" || value.type === "tuple" ? namedChildren(value).length : 1;
      for (let i = 0; i < count; i++) tokens.push("validate");
    }
  }
  return tokens;
}

/**
 * The schema facts of one class definition, when it is a pydantic model or
 * a marshmallow schema (see the module comment); keys are `Class` and
 * `Class.field`, relative to the enclosing containers.
 */
export function pythonSchemas(classNode: Node, context: CodeContext): SchemaDraft[] {
  const file = schemaFileOf(context);
  const name = classNode.childForFieldName("name")?.text;
  const body = classNode.childForFieldName("body");
  if (!name || !body) return [];
  const kind = schemaKindOf(classNode, file);
  if (!kind) return [];
  file.known.set(name, kind);

  const line = (node: Node): number => node.startPosition.row + 1;
  const model: SchemaDraft = { key: name, line: line(classNode), methods: [], notation: "keyword" };
  const drafts: SchemaDraft[] = [model];
  const superclasses = classNode.childForFieldName("superclasses");
  for (const arg of superclasses ? namedChildren(superclasses) : []) {
    const argName = arg.childForFieldName("name")?.text;
    const value = arg.childForFieldName("value");
    const token = arg.type === "keyword_argument" && argName && value ? configToken(argName, value) : null;
    if (token) model.methods.push(token);
  }
  for (const child of namedChildren(body)) {
    const statement = statementOf(child);
    if (statement.type === "assignment") {
      const target = statement.childForFieldName("left");
      const annotation = statement.childForFieldName("type");
      const value = statement.childForFieldName("right");
      if (target?.type !== "identifier") continue;
      const field = target.text;
      if (field === "model_config") {
        model.methods.push(...configTokensOf(value));
      } else if (kind === "marshmallow" && isMarshmallowField(value)) {
        drafts.push({ key: `${name}.${field}`, line: line(statement), methods: marshmallowTokens(value), notation: "keyword" });
      } else if (kind === "pydantic" && annotation && !field.startsWith("_") && !/^(ClassVar|typing\.ClassVar)\b/.test(annotation.text)) {
        const reading = readAnnotation(annotation);
        const draft: SchemaDraft = { key: `${name}.${field}`, line: line(statement), methods: [...new Set([...reading.tokens, ...defaultTokens(value)])], notation: "keyword" };
        if (reading.isOpaque) draft.opaque = true;
        drafts.push(draft);
      }
    } else if (statement.type === "class_definition" && /^(Config|Meta)$/.test(statement.childForFieldName("name")?.text ?? "")) {
      // pydantic v1 `class Config: extra = "forbid"`, marshmallow `class Meta: unknown = INCLUDE`
      for (const setting of namedChildren(statement.childForFieldName("body") ?? statement)) {
        const assignment = statementOf(setting);
        const settingName = assignment.type === "assignment" ? assignment.childForFieldName("left")?.text : undefined;
        const value = assignment.childForFieldName("right");
        const token = settingName && value ? configToken(settingName, value) : null;
        if (token) model.methods.push(token);
      }
    } else if (statement.type === "decorated_definition") {
      for (const decorator of namedChildren(statement).filter((node) => node.type === "decorator")) {
        const expression = decoratorExpression(decorator);
        const decoratorName = expression?.type === "call" ? calleeName(expression) : lastName(expression);
        if (!expression || !decoratorName) continue;
        const modelToken = MODEL_VALIDATORS.get(decoratorName);
        const fieldToken = FIELD_VALIDATORS.get(decoratorName);
        if (modelToken) {
          model.methods.push(modelToken);
        } else if (fieldToken && expression.type === "call") {
          for (const target of positionalStrings(expression)) {
            if (target === "*") model.methods.push(fieldToken);
            else drafts.push({ key: `${name}.${target}`, line: line(decorator), methods: [fieldToken], notation: "keyword" });
          }
        }
      }
    }
  }
  return drafts;
}
