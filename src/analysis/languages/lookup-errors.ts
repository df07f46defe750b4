/**
 * The errors a failed lookup or conversion raises, per language: a handler
 * that catches only these and raises an error of its own is the EAFP
 * spelling of a membership or parse check (`try: v = t[k] except KeyError:
 * raise E(m)` for `if k not in t: raise E(m)`), recorded as a guard
 * (GuardFact.handler). A handler of anything broader (`except Exception`,
 * `catch (Exception)`, a bare `rescue`) wraps a body rather than checks a
 * value, and is none.
 *
 * Sources: Python's built-in exceptions (KeyError, IndexError, LookupError;
 * int()/float() raise ValueError, operator.index TypeError, getattr
 * AttributeError, next StopIteration); .NET's Dictionary indexer
 * (KeyNotFoundException), List/array indexers, int.Parse (FormatException,
 * OverflowException), Enum.Parse (ArgumentException); Java's Integer.parseInt
 * (NumberFormatException), List.get, Iterator.next / Optional.get
 * (NoSuchElementException), Enum.valueOf (IllegalArgumentException),
 * java.time parsing (DateTimeParseException); Ruby's Hash#fetch (KeyError),
 * Array#fetch (IndexError), Integer()/Float() (ArgumentError, TypeError);
 * PHP's SPL OutOfBoundsException/OutOfRangeException, ValueError/TypeError of
 * the built-ins, UnhandledMatchError of `match`.
 */

/** Per language id, the short class names of lookup and conversion errors. */
export const LOOKUP_ERRORS: Readonly<Record<"python" | "csharp" | "java" | "ruby" | "php", ReadonlySet<string>>> = {
  python: new Set([
    "KeyError",
    "IndexError",
    "LookupError",
    "AttributeError",
    "ValueError",
    "TypeError",
    "StopIteration",
    "OverflowError",
    "UnicodeError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "JSONDecodeError",
  ]),
  csharp: new Set(["KeyNotFoundException", "IndexOutOfRangeException", "ArgumentOutOfRangeException", "ArgumentException", "FormatException", "OverflowException", "InvalidCastException"]),
  java: new Set([
    "NumberFormatException",
    "IndexOutOfBoundsException",
    "ArrayIndexOutOfBoundsException",
    "StringIndexOutOfBoundsException",
    "NoSuchElementException",
    "InputMismatchException",
    "ClassCastException",
    "IllegalArgumentException",
    "DateTimeParseException",
  ]),
  ruby: new Set(["KeyError", "IndexError", "StopIteration", "ArgumentError", "TypeError", "NoMethodError", "RangeError"]),
  php: new Set(["OutOfBoundsException", "OutOfRangeException", "ValueError", "TypeError", "UnexpectedValueException", "InvalidArgumentException", "UnhandledMatchError"]),
};

/**
 * True when a handler catches lookup errors of `known` only: every class of
 * its list as written (`KeyError`, `(KeyError, IndexError)`, `A | B`,
 * `KeyError, IndexError`), module or namespace prefixes left out
 * (`json.JSONDecodeError`, `System.FormatException`, `\OutOfBoundsException`).
 * False for a catch-all ("*") and an empty list.
 */
export function catchesOnlyLookupErrors(caught: string, known: ReadonlySet<string>): boolean {
  const classes = caught
    .replace(/^\(([\s\S]*)\)$/, "$1")
    .split(/[,|]/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return classes.length > 0 && classes.every((name) => known.has(name.replace(/^[\s\S]*(?:\.|::|\\)/, "")));
}
