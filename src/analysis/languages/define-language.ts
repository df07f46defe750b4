/**
 * {@link defineLanguage}: a tree-sitter language declared as data — its id,
 * extensions, test-path rule, the grammar folder and query files it loads
 * (grammars/<id>/<query>.scm beside grammars/<id>/<id>.wasm), its draft
 * extractor and its code-facts syntax table — from which the module's
 * `extract` is built: load the grammar, parse, turn drafts into facts, add
 * code facts for product files (parsers/tree-sitter.ts
 * extractWithTreeSitter). The seven tree-sitter languages (Python, Go, Java,
 * C#, PHP, Ruby, Rust) are declared this way; JavaScript/TypeScript parses
 * with Babel and keeps its own module.
 */

import type { AssertionShadowFact, FileFacts } from "../facts.js";
import { extractWithTreeSitter, loadGrammar, type ExtractedDrafts, type LoadedGrammar, type Node } from "../parsers/tree-sitter.js";
import { extractCodeFacts, type CodeSyntax } from "../parsers/tree-sitter-code.js";
import { assertionShadows, type ShadowTable } from "../assertion-shadows.js";
import type { CollectionRules, LanguageModule } from "./language.js";
import { debug } from "../../log.js";

/** What one file's extraction sees: its path and text, and the runner's collection rules when the config gives them. */
export interface LanguageFile {
  readonly path: string;
  readonly content: string;
  readonly rules?: CollectionRules;
}

/**
 * The declaration of one tree-sitter language. `queries` name the query
 * files under grammars/<id>/ that `drafts` reads (through the loaded
 * grammar); `code` is the syntax table code facts are read with
 * (parsers/tree-sitter-code.ts); `isTestFile` decides, when the collection
 * rules can make a file a test module, whether this file is one (default
 * `isTestPath`); `shadows` finds definitions that shadow the framework's
 * assertions (FileFacts.assertionShadows); `hasInlineTests` is for languages whose product files hold
 * their own tests (Rust `#[cfg(test)]`); `expand` gives the text analysed
 * in place of the file's own (Rust's `macro_rules!` test suites expanded
 * where they are invoked), every line where it was; `finish` post-processes
 * the facts (Python's class resolution, Java's suite lists) and may return
 * them changed.
 */
export interface TreeSitterLanguage<Id extends string> {
  readonly id: Id;
  readonly extensions: readonly string[];
  readonly queries: readonly string[];
  isTestPath(path: string): boolean;
  isTestFile?(file: LanguageFile): boolean;
  drafts(file: LanguageFile, grammar: LoadedGrammar, root: Node): ExtractedDrafts;
  readonly code: CodeSyntax;
  readonly hasInlineTests?: boolean;
  /** Definitions that shadow the framework's assertions (assertion-shadows.ts); absent when the language has no idiom for it. */
  readonly shadows?: ShadowTable;
  /** The text to analyse instead of `content` (macros expanded, lines kept), or null to analyse `content` itself. */
  expand?(content: string, grammar: LoadedGrammar): string | null;
  finish?(facts: FileFacts, file: LanguageFile): FileFacts;
}

/** A language module built by {@link defineLanguage}: the registry's {@link LanguageModule} with its literal id. */
export interface DefinedLanguage<Id extends string> extends LanguageModule {
  readonly id: Id;
  /** The declaration it was built from (its tables and queries), for tests and tools. */
  readonly definition: TreeSitterLanguage<Id>;
}

/** The text `expand` gives for `source`; `source` itself when it gives none or fails (the file is then analysed as written). */
function expanded(expand: (content: string, grammar: LoadedGrammar) => string | null, source: string, grammar: LoadedGrammar): string {
  try {
    return expand(source, grammar) ?? source;
  } catch (error) {
    debug(() => `${grammar.id} expansion failed: ${error instanceof Error ? error.stack : String(error)}`);
    return source;
  }
}

/**
 * The language module of a tree-sitter language declaration. Its `extract`
 * never throws for bad content (a parse failure or an extractor error
 * becomes facts with `parseError` / `notAnalyzed`, as extractWithTreeSitter
 * does).
 */
export function defineLanguage<Id extends string>(definition: TreeSitterLanguage<Id>): DefinedLanguage<Id> {
  const extract = async (path: string, source: string, rules?: CollectionRules): Promise<FileFacts> => {
    const content = definition.expand ? expanded(definition.expand, source, await loadGrammar(definition.id, definition.queries)) : source;
    const file: LanguageFile = rules === undefined ? { path, content } : { path, content, rules };
    let shadows: AssertionShadowFact[] = [];
    const facts = await extractWithTreeSitter(
      definition.id,
      definition.queries,
      definition.isTestFile ? definition.isTestFile(file) : definition.isTestPath(path),
      content,
      (grammar, root) => {
        if (definition.shadows) shadows = assertionShadows(root, content, definition.shadows);
        return definition.drafts(file, grammar, root);
      },
      (root) => extractCodeFacts(root, definition.code, content, path),
      definition.hasInlineTests ?? false,
    );
    if (shadows.length > 0 && facts.parseError === undefined && facts.notAnalyzed === undefined) facts.assertionShadows = shadows;
    return definition.finish ? definition.finish(facts, file) : facts;
  };
  return { id: definition.id, extensions: definition.extensions, isTestPath: definition.isTestPath, extract, definition };
}
