/**
 * Handler results that are a named constant or a copy of one, shared by the
 * JS/TS and tree-sitter catch classifiers (facts.ts CatchBehaviour
 * `returns_constant`): a catch-all that answers every error with the
 * defaults hides the failure as surely as one returning a literal.
 */

/**
 * A named constant, or a copy of one, as a handler's whole result: the
 * defaults every error is turned into (`DEFAULTS.dup`, `DEFAULT_CONFIG`,
 * `self::DEFAULTS`, `Config.EMPTY`, `DEFAULTS.copy()`, `dict(DEFAULTS)`,
 * `{ ...DEFAULTS }`, `DEFAULTS.clone()`). The constant is spelled in
 * upper case with at least two characters (the constant convention of every
 * language ralph reads); `text` is source text, whitespace ignored.
 */
export function isDefaultReference(text: string): boolean {
  return DEFAULT_REFERENCE.test(text.replace(/\s+/g, ""));
}

const CONSTANT_NAME = "[A-Z][A-Z0-9_]*[A-Z0-9]";
const DEFAULT_REFERENCE = new RegExp(
  `^(?:(?:[A-Za-z_$][\\w$]*(?:\\.|::|->))*${CONSTANT_NAME}(?:\\.(?:dup|clone|copy|freeze|to_owned|deep_dup)(?:\\(\\))?)?` +
    `|\\{\\.\\.\\.${CONSTANT_NAME}\\}|(?:dict|list|set|copy\\.copy|copy\\.deepcopy|structuredClone|new\\w+)\\(${CONSTANT_NAME}\\))$`,
);
