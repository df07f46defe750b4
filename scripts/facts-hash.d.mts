/** One file that determines facts: repo-relative path and how it enters the hash. */
export interface FactsInput {
  path: string;
  mode: "text" | "size";
}
/** The files that determine facts (src/analysis/** minus rules/verdict/display, grammars/**), sorted. */
export function factsInputs(root?: string): FactsInput[];
/** A 16-hex-digit sha256 over {@link factsInputs}; the facts-cache key's extractor part. */
export function factsHash(root?: string): string;
