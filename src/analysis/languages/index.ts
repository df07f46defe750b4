/**
 * The language registry: every language ralph can extract facts from, as
 * data (STYLE.md §6). Adding a language means adding its module here; no
 * engine code changes. Importing this file loads no parser.
 */

import { RalphError } from "../../errors.js";
import { csharp } from "./csharp.js";
import { go } from "./go.js";
import { java } from "./java.js";
import { javascript } from "./javascript.js";
import type { LanguageModule } from "./language.js";
import { php } from "./php.js";
import { python } from "./python.js";
import { ruby } from "./ruby.js";
import { rust } from "./rust.js";

export type { LanguageModule } from "./language.js";

/** All language modules, in lookup order. */
export const LANGUAGES = [javascript, python, go, rust, java, csharp, ruby, php] as const satisfies readonly LanguageModule[];

/** Id of a registered language ("javascript", …). */
export type LanguageId = (typeof LANGUAGES)[number]["id"];

const byExtension: ReadonlyMap<string, LanguageModule> = new Map(LANGUAGES.flatMap((language) => language.extensions.map((extension) => [extension, language] as const)));

/** The lower-cased final extension of a '/'-separated path, with its dot ("" when none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

/** The language module that owns this path's extension, or null. No parser is loaded. */
export function languageForPath(path: string): LanguageModule | null {
  return byExtension.get(extensionOf(path)) ?? null;
}

/**
 * The language module with this id.
 * @throws RalphError E_USAGE naming the known ids when `id` is not registered.
 */
export function getLanguage(id: string): LanguageModule {
  const language = LANGUAGES.find((candidate) => candidate.id === id);
  if (!language) {
    const known = LANGUAGES.map((candidate) => candidate.id);
    throw new RalphError("E_USAGE", `unknown language "${id}"; known languages: ${known.join(", ")}`, {
      data: { id, known },
    });
  }
  return language;
}
