/**
 * Bracketed spans of source text, for the readers that scan text rather
 * than a syntax tree (doubles.ts, custom-skip-attributes.ts,
 * languages/java-suites.ts).
 */

/** The text from `open` (an opening bracket's offset) to its matching close, strings skipped; the rest of the content when unbalanced. */
export function bracketed(content: string, open: number): string {
  let depth = 0;
  for (let i = open; i < content.length; i++) {
    const char = content[i] as string;
    if (char === '"' || char === "'" || char === "`") {
      for (i++; i < content.length && content[i] !== char; i++) if (content[i] === "\\") i++;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) return content.slice(open, i + 1);
    }
  }
  return content.slice(open);
}
