/**
 * The tokens a check depends on besides names (TestCase.checkNames), shared
 * by the extractors that write them and rules/dependencies.ts that reads
 * them: a plain string literal the check feeds the code (`"ipc"`), and a
 * call with its number of arguments (`Scheduler/1`), and a member the test
 * writes, a setting (`AllowAdditiveTypeMapCreation=`). A name is a bare
 * identifier; a token never is one, so the kinds cannot collide.
 */

/**
 * What a string literal must look like to be a token of what a check feeds
 * the code: an option value, key, flag or command word (`ipc`, `--verbose`,
 * `rebase_to_min_level`, `min-level`), not prose or a path.
 */
export const LITERAL_TOKEN = /^-{0,2}[A-Za-z_][\w.:-]{0,62}$/;

/** The token a literal stands for among a check's dependencies: its value JSON-quoted (`"ipc"`). */
export function literalToken(value: string): string {
  return JSON.stringify(value);
}

/** The token of a call among a check's dependencies: the callee's last name and the number of arguments (`Scheduler/1`). */
export function callToken(name: string, argumentCount: number): string {
  return `${name}/${argumentCount}`;
}

/**
 * The token of a member a test writes among a check's dependencies: its
 * name and `=` (`AllowAdditiveTypeMapCreation=` of `cfg.AllowAdditiveTypeMapCreation
 * = true`, `allow_additive=` of `Config(allow_additive=True)`): a setting
 * the test gives what it builds, told from a call or read of that name.
 */
export function settingToken(name: string): string {
  return `${name}=`;
}

/** True for a token that is a name (not a literal, call or setting token). */
export function isNameToken(token: string): boolean {
  return !token.startsWith('"') && !token.includes("/") && !token.endsWith("=");
}

/** Last segment of a qualified name (`Scanner.containsIgnoreCase`, `Lines::process`, `Shop#total`, `$this->name` -> the member). */
export function lastSegment(name: string): string {
  const parts = name.split(/\.|::|->|#/);
  return parts[parts.length - 1] ?? name;
}
