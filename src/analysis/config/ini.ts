/**
 * Readers for the Python configuration formats: ini files as configparser
 * reads them (pytest.ini, setup.cfg, tox.ini, .coveragerc) and the TOML
 * subset pyproject.toml uses. Both keep the 1-based line of every key.
 */

/** One key of a section: its value as text (continuation lines joined with "\n") and its line. */
export interface IniEntry {
  value: string;
  line: number;
}

/** Sections by name, each with its keys (lower-cased, `-` and `_` kept as written). */
export type IniFile = Map<string, Map<string, IniEntry>>;

/**
 * Parses ini text the way configparser does: `[section]` headers, `key = value`
 * or `key: value`, indented continuation lines, `#`/`;` comment lines.
 * Never throws; lines it cannot read are skipped.
 */
export function parseIni(text: string): IniFile {
  const sections: IniFile = new Map();
  let current: Map<string, IniEntry> | null = null;
  let last: IniEntry | null = null;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) {
      if (trimmed === "") last = null;
      return;
    }
    if (/^\s/.test(raw) && last) {
      last.value += `\n${trimmed}`;
      return;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(trimmed);
    if (header) {
      const name = (header[1] as string).trim();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      last = null;
      return;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    if (pair && current) {
      last = { value: (pair[2] as string).replace(/\s+[#;].*$/, ""), line: index + 1 };
      current.set((pair[1] as string).toLowerCase(), last);
    }
  });
  return sections;
}

/** A TOML value: strings, numbers, booleans, arrays and tables (dates are kept as strings). */
export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

/** A parsed TOML document and the line of every key, by dotted path (`tool.pytest.ini_options.addopts`). */
export interface TomlDocument {
  root: { [key: string]: TomlValue };
  lines: Map<string, number>;
}

class TomlReader {
  private pos = 0;
  private countedTo = 0;
  private countedLine = 1;
  readonly lines = new Map<string, number>();

  constructor(private readonly text: string) {}

  /** 1-based line of the current position; counts forward from the last answer, so a whole parse stays linear. */
  private line(): number {
    if (this.pos < this.countedTo) {
      this.countedTo = 0;
      this.countedLine = 1;
    }
    for (let i = this.text.indexOf("\n", this.countedTo); i !== -1 && i < this.pos; i = this.text.indexOf("\n", i + 1)) this.countedLine++;
    this.countedTo = this.pos;
    return this.countedLine;
  }

  private fail(message: string): never {
    throw new Error(`${message} at line ${this.line()}`);
  }

  private skipSpace(newlines: boolean): void {
    while (this.pos < this.text.length) {
      const char = this.text[this.pos] as string;
      if (char === " " || char === "\t" || char === "\r" || (newlines && char === "\n")) this.pos++;
      else if (char === "#") while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
      else break;
    }
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpace(false);
      const char = this.text[this.pos];
      if (char === '"' || char === "'") parts.push(this.string());
      else {
        const match = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos, this.pos + 200));
        if (!match) this.fail("expected a key");
        parts.push(match[0]);
        this.pos += match[0].length;
      }
      this.skipSpace(false);
      if (this.text[this.pos] !== ".") return parts;
      this.pos++;
    }
  }

  private string(): string {
    const text = this.text;
    const triple = text.startsWith('"""', this.pos) ? '"""' : text.startsWith("'''", this.pos) ? "'''" : null;
    if (triple) {
      const end = text.indexOf(triple, this.pos + 3);
      if (end === -1) this.fail("unterminated string");
      let value = text.slice(this.pos + 3, end).replace(/^\r?\n/, "");
      this.pos = end + 3;
      while (text[this.pos] === triple[0]) {
        value += triple[0];
        this.pos++;
      }
      return triple === '"""' ? unescape(value.replace(/\\\r?\n\s*/g, "")) : value;
    }
    const quote = text[this.pos] as string;
    let value = "";
    for (this.pos++; this.pos < text.length; this.pos++) {
      const char = text[this.pos] as string;
      if (char === quote) {
        this.pos++;
        return quote === '"' ? unescape(value) : value;
      }
      if (char === "\n") break;
      if (char === "\\" && quote === '"') {
        value += char + (text[this.pos + 1] ?? "");
        this.pos++;
        continue;
      }
      value += char;
    }
    return this.fail("unterminated string");
  }

  private value(path: string): TomlValue {
    this.skipSpace(false);
    const char = this.text[this.pos];
    if (char === '"' || char === "'") return this.string();
    if (char === "[") {
      this.pos++;
      const items: TomlValue[] = [];
      for (;;) {
        this.skipSpace(true);
        if (this.text[this.pos] === "]") {
          this.pos++;
          return items;
        }
        items.push(this.value(`${path}[${items.length}]`));
        this.skipSpace(true);
        if (this.text[this.pos] === ",") this.pos++;
        else if (this.text[this.pos] !== "]") this.fail("expected , or ]");
      }
    }
    if (char === "{") {
      this.pos++;
      const table: { [key: string]: TomlValue } = {};
      for (;;) {
        this.skipSpace(false);
        if (this.text[this.pos] === "}") {
          this.pos++;
          return table;
        }
        const key = this.key();
        if (this.text[this.pos] !== "=") this.fail("expected =");
        this.pos++;
        setPath(table, key, this.value(`${path}.${key.join(".")}`));
        this.skipSpace(false);
        if (this.text[this.pos] === ",") this.pos++;
      }
    }
    const match = /^[^\s,\]}#]+/.exec(this.text.slice(this.pos, this.pos + 200));
    if (!match) this.fail("expected a value");
    const word = match[0];
    this.pos += word.length;
    if (word === "true") return true;
    if (word === "false") return false;
    const number = Number(word.replace(/_/g, ""));
    if (/^[+-]?(\d|0x|0o|0b|inf|nan)/i.test(word) && !Number.isNaN(number) && !/^\d{4}-\d{2}/.test(word)) return number;
    // A date, a time, or a bare word we do not know: keep it as text (a datetime may have a time part after a space).
    if (/^\d{4}-\d{2}-\d{2}$/.test(word)) {
      const time = /^ \d{2}:\d{2}[^\s,\]}#]*/.exec(this.text.slice(this.pos, this.pos + 40));
      if (time) {
        this.pos += time[0].length;
        return word + time[0];
      }
    }
    return word;
  }

  parse(): TomlDocument {
    const root: { [key: string]: TomlValue } = {};
    let table: { [key: string]: TomlValue } = root;
    let prefix: string[] = [];
    for (;;) {
      this.skipSpace(true);
      if (this.pos >= this.text.length) break;
      const lineNumber = this.line();
      if (this.text[this.pos] === "[") {
        const isArray = this.text[this.pos + 1] === "[";
        this.pos += isArray ? 2 : 1;
        prefix = this.key();
        if (!this.text.startsWith(isArray ? "]]" : "]", this.pos)) this.fail("expected ]");
        this.pos += isArray ? 2 : 1;
        this.lines.set(prefix.join("."), lineNumber);
        if (isArray) {
          const list = getOrCreate(root, prefix.slice(0, -1));
          const last = prefix[prefix.length - 1] as string;
          const array = Array.isArray(list[last]) ? (list[last] as TomlValue[]) : [];
          list[last] = array;
          const entry: { [key: string]: TomlValue } = {};
          array.push(entry);
          table = entry;
          prefix = [...prefix, String(array.length - 1)];
        } else {
          table = getOrCreate(root, prefix);
        }
        continue;
      }
      const key = this.key();
      if (this.text[this.pos] !== "=") this.fail("expected =");
      this.pos++;
      const path = [...prefix, ...key].join(".");
      this.lines.set(path, lineNumber);
      setPath(table, key, this.value(path));
      this.skipSpace(false);
      if (this.pos < this.text.length && this.text[this.pos] !== "\n") this.fail("expected a new line");
    }
    return { root, lines: this.lines };
  }
}

function unescape(value: string): string {
  return value.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_whole, code: string) => {
    if (code[0] === "u" || code[0] === "U") return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
    return ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", '"': '"', "\\": "\\" } as Record<string, string>)[code] ?? code;
  });
}

function getOrCreate(root: { [key: string]: TomlValue }, path: readonly string[]): { [key: string]: TomlValue } {
  let table = root;
  for (const key of path) {
    const next = table[key];
    if (next !== undefined && typeof next === "object" && !Array.isArray(next)) table = next;
    else if (Array.isArray(next) && typeof next[next.length - 1] === "object") table = next[next.length - 1] as { [key: string]: TomlValue };
    else {
      const created: { [key: string]: TomlValue } = {};
      table[key] = created;
      table = created;
    }
  }
  return table;
}

function setPath(table: { [key: string]: TomlValue }, key: readonly string[], value: TomlValue): void {
  const parent = getOrCreate(table, key.slice(0, -1));
  parent[key[key.length - 1] as string] = value;
}

/**
 * Parses TOML (the subset real pyproject.toml files use: tables, arrays of
 * tables, dotted keys, the four string kinds, numbers, booleans, dates as
 * text, arrays, inline tables).
 * @throws Error with a line number on text it cannot read.
 */
export function parseToml(text: string): TomlDocument {
  return new TomlReader(text).parse();
}
