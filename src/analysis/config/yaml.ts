/**
 * YAML files (CI workflows, `.mocharc.yml`, `.nycrc.yml`) through the `yaml`
 * package, imported on first use, with the 1-based line of every map key and
 * sequence item by path (`jobs.test.steps[2].run`).
 */

import type { StaticConfig, StaticValue } from "./static-value.js";

type YamlModule = typeof import("yaml");
let yamlModule: Promise<YamlModule> | undefined;

function loadYaml(): Promise<YamlModule> {
  yamlModule ??= import("yaml").then((mod) => {
    // Bundled as CommonJS, the named exports may only exist on `default`.
    const cjs = mod as YamlModule & { default?: YamlModule };
    return typeof cjs.LineCounter === "function" ? cjs : (cjs.default as YamlModule);
  });
  return yamlModule;
}

/**
 * Parses one YAML document into plain values plus lines. Unknown tags
 * (GitLab's `!reference`) are kept as their plain value.
 * @throws Error with the parser's first message when the text is not YAML.
 */
export async function readYaml(text: string): Promise<StaticConfig> {
  const yaml = await loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, uniqueKeys: false, strict: false, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError) throw new Error(firstError.message.split("\n")[0]);
  const lines = new Map<string, number>();
  const lineOf = (node: unknown): number | null => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : null;
  };
  const walk = (node: unknown, path: string): void => {
    if (yaml.isMap(node)) {
      for (const pair of node.items) {
        const key = yaml.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const childPath = path === "" ? key : `${path}.${key}`;
        const line = lineOf(pair.key);
        if (line !== null) lines.set(childPath, line);
        walk(pair.value, childPath);
      }
    } else if (yaml.isSeq(node)) {
      node.items.forEach((item, index) => {
        const childPath = `${path}[${index}]`;
        const line = lineOf(item);
        if (line !== null) lines.set(childPath, line);
        walk(item, childPath);
      });
    }
  };
  walk(doc.contents, "");
  const value = (doc.toJS({ maxAliasCount: 1000 }) ?? {}) as StaticValue;
  return { value, lines };
}
