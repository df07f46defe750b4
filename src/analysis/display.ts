/**
 * Code quoted in a finding's message, as a person writes it. Facts keep
 * code normalised for comparison (tree-sitter facts join tokens with single
 * spaces: `result . output`, `f ( x , y )`; src/analysis/parsers/tree-sitter.ts
 * normalizedText), so a message shows the normalised text with the spaces
 * the normalisation put around punctuation taken out again: `result.output`,
 * `f(x, y)`, `a[0]`, `Foo::bar`. Spaces around operators and everything
 * inside string literals are kept.
 */

/** Text outside string literals with punctuation spacing removed; see the module doc. */
export function displayCode(text: string): string {
  let out = "";
  let code = "";
  const flush = (): void => {
    out += code
      .replace(/\s+(?=[.,;)\]]|::|\?\.)/g, "")
      .replace(/(\.|::|\?\.|\(|\[)\s+/g, "$1")
      .replace(/(\w+|[)\]>!?])\s+(?=[([])/g, (match, before: string) => (KEYWORDS.has(before) ? match : before))
      .replace(/,(?=\S)/g, ", ");
    code = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"' || ch === "'" || ch === "`") {
      flush();
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
      continue;
    }
    code += ch;
  }
  flush();
  return out;
}

/** Words after which a space before `(`/`[` is the language's, not the normaliser's. */
const KEYWORDS: ReadonlySet<string> = new Set([
  "if",
  "for",
  "while",
  "and",
  "or",
  "not",
  "in",
  "is",
  "return",
  "raise",
  "throw",
  "yield",
  "await",
  "else",
  "elif",
  "match",
  "case",
  "switch",
  "catch",
  "with",
  "assert",
  "lambda",
  "new",
  "typeof",
  "instanceof",
  "of",
  "as",
  "from",
  "import",
]);
