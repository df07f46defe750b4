/**
 * JSON with the line of every key (package.json, `.c8rc.json`, `.nycrc`,
 * `.mocharc.jsonc`). Comments and trailing commas are accepted, as the
 * tools reading these files mostly accept them.
 */

import type { StaticConfig, StaticValue } from "./static-value.js";

class JsonReader {
  private pos = 0;
  private lineNumber = 1;
  readonly lines = new Map<string, number>();

  constructor(private readonly text: string) {}

  private fail(message: string): never {
    throw new Error(`${message} at line ${this.lineNumber}`);
  }

  private skip(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const char = text[this.pos];
      if (char === "\n") {
        this.lineNumber++;
        this.pos++;
      } else if (char === " " || char === "\t" || char === "\r" || char === "\uFEFF") this.pos++;
      else if (char === "/" && text[this.pos + 1] === "/") while (this.pos < text.length && text[this.pos] !== "\n") this.pos++;
      else if (char === "/" && text[this.pos + 1] === "*") {
        const end = text.indexOf("*/", this.pos + 2);
        const stop = end === -1 ? text.length : end + 2;
        for (let i = this.pos; i < stop; i++) if (text[i] === "\n") this.lineNumber++;
        this.pos = stop;
      } else break;
    }
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length && this.text[this.pos] !== '"') {
      if (this.text[this.pos] === "\\") this.pos++;
      if (this.text[this.pos] === "\n") this.fail("unterminated string");
      this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return this.fail("bad string");
    }
  }

  value(path: string): StaticValue {
    this.skip();
    const char = this.text[this.pos];
    if (char === "{") {
      this.pos++;
      const result: { [key: string]: StaticValue } = {};
      for (;;) {
        this.skip();
        if (this.text[this.pos] === "}") {
          this.pos++;
          return result;
        }
        if (this.text[this.pos] !== '"') this.fail("expected a key");
        const line = this.lineNumber;
        const key = this.string();
        const childPath = path === "" ? key : `${path}.${key}`;
        this.lines.set(childPath, line);
        this.skip();
        if (this.text[this.pos] !== ":") this.fail("expected :");
        this.pos++;
        result[key] = this.value(childPath);
        this.skip();
        if (this.text[this.pos] === ",") this.pos++;
        else if (this.text[this.pos] !== "}") this.fail("expected , or }");
      }
    }
    if (char === "[") {
      this.pos++;
      const result: StaticValue[] = [];
      for (;;) {
        this.skip();
        if (this.text[this.pos] === "]") {
          this.pos++;
          return result;
        }
        result.push(this.value(`${path}[${result.length}]`));
        this.skip();
        if (this.text[this.pos] === ",") this.pos++;
        else if (this.text[this.pos] !== "]") this.fail("expected , or ]");
      }
    }
    if (char === '"') return this.string();
    const match = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(this.text.slice(this.pos, this.pos + 40));
    if (!match) this.fail("unexpected character");
    this.pos += match[0].length;
    return match[0] === "true" ? true : match[0] === "false" ? false : match[0] === "null" ? null : Number(match[0]);
  }

  parse(): StaticConfig {
    const value = this.value("");
    this.skip();
    if (this.pos < this.text.length) this.fail("unexpected text after the value");
    return { value, lines: this.lines };
  }
}

/**
 * Parses JSON (comments and trailing commas allowed) and records the 1-based
 * line of every object key by dotted path (`scripts.test`, `jest.testMatch`).
 * @throws Error naming the line on malformed text.
 */
export function parseJsonWithLines(text: string): StaticConfig {
  return new JsonReader(text).parse();
}
