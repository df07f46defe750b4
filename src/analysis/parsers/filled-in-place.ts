/**
 * Whether a local a test bound may hold something else by the time it is
 * checked, because code changed it in place: it was filled (`x.append(v)`,
 * `x[k] = v`, `x << v`) or handed to code that may fill it (`fill(x)`,
 * `monkeypatch.setattr(time, "sleep", x.append)`). Text patterns over the
 * statements between the binding and the check, shared by the grammars.
 */

/** `name` as a pattern, with PHP's `$` optional (bindings name `$items` as `items` or `$items`). */
function localPattern(name: string): string {
  return `\\$?${name.replace(/^\$/, "")}`;
}

/**
 * A pattern of the statements that change what the local `name` holds in
 * place: an element written (`x[k] = v`, PHP `$x[] = v`, `x[k] += v`) or a
 * collection's mutating method called on it (`x.append(v)`, `x.push(v)`,
 * `x.Add(v)`, `$x->add(v)`, `x << v`).
 */
export function mutationOf(name: string): RegExp {
  const local = localPattern(name);
  return new RegExp(
    `(?<![\\w$])${local}\\s*(?:\\[[^\\]]*\\]\\s*(?:[-+*/.]|\\?\\?)?=(?!=)|(?:\\.|->)\\s*(?:append|extend|insert|push|unshift|splice|add|addAll|put|putAll|set|update|setdefault|Add|AddRange|Insert|Push|Enqueue|push_str|push_back|extend_from_slice|concat!?|merge!|store)(?![\\w!?])|\\s*<<(?!=))`,
  );
}

/**
 * A pattern of the statements that hand the local `name` to other code,
 * which may fill it in place: an argument of a call (`fill(items)`,
 * `run(on_cancel=calls)`, `Run.fill(items)`, `fill($items)`). Only a
 * collection ({@link isCollectionLiteral}) can be filled so (see {@link isHandedOn}); a bound
 * filling method handed on (`sleeps.append`) is {@link mutationOf}'s.
 */
function handOffOf(name: string): RegExp {
  const local = localPattern(name);
  return new RegExp(`(?:[(,]|[\\w\\s]=|=>)\\s*&?(?<![\\w$])${local}\\s*(?=[,)])|^\\s*[\\w.:]+\\s+${local}\\s*$`, "m");
}

/** A line that makes a check (`assert …`, `expect(…)`, `Assert.Equal(…)`, `$this->assertSame(…)`, `x.should …`): reading a local there hands it to no code that fills it. */
const CHECK_LINE = /\b(?:assert|expect|should|must|refute|verify)|\bAssert\b|\bt\.(?:is|deepEqual|true|false)\b/i;

/**
 * True when `text` (statements of a test) hands the local `name` to other
 * code that may fill it ({@link handOffOf}), in a line that is no check
 * ({@link CHECK_LINE}): the check reading the local hands it nowhere.
 */
export function isHandedOn(name: string, text: string): boolean {
  const pattern = handOffOf(name);
  return text.split("\n").some((line) => !CHECK_LINE.test(line) && pattern.test(line));
}

/** True when `value` (compact text) makes a collection that can be filled in place: `[]`, `{}`, `[1]`, `dict()`, `array()`, `Hash.new`, `set()`. */
export function isCollectionLiteral(value: string): boolean {
  return /^(?:\[.*\]|\{.*\}|(?:list|dict|set|defaultdict|deque|OrderedDict|Counter|array|Array|Hash|Set)(?:\.new)?(?:\(.*\))?)$/s.test(value);
}
