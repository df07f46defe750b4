/**
 * A small XML well-formedness check for tests (no XML parser is among the
 * dependencies): one root element, balanced and properly nested tags,
 * quoted attributes without `<` or bare `&`, unique attribute names per
 * element, text without `<` or bare `&`, only the five predefined entities
 * and numeric character references, no characters XML 1.0 forbids.
 * Enough for the SVG ralph writes (no DTD, CDATA or processing instructions
 * other than the XML declaration).
 */

/** An element of the parsed document. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text directly inside, entities decoded. */
  text: string;
}

const NAME = "[A-Za-z_:][A-Za-z0-9_.:-]*";
const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;

function decode(raw: string, where: string): string {
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(raw)) throw new Error(`forbidden control character in ${where}`);
  const stripped = raw.replace(ENTITY, "");
  if (stripped.includes("&")) throw new Error(`bare '&' or unknown entity in ${where}: ${JSON.stringify(raw)}`);
  if (stripped.includes("<")) throw new Error(`'<' in ${where}: ${JSON.stringify(raw)}`);
  return raw.replace(ENTITY, (e) => {
    const named: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };
    if (named[e]) return named[e];
    const hex = e.startsWith("&#x");
    return String.fromCodePoint(Number.parseInt(e.slice(hex ? 3 : 2, -1), hex ? 16 : 10));
  });
}

/**
 * Parses `xml` or throws an Error saying what is malformed.
 * @returns the root element.
 */
export function parseXml(xml: string): XmlElement {
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`);
  while (rest.length > 0) {
    const lt = rest.indexOf("<");
    const textPart = lt === -1 ? rest : rest.slice(0, lt);
    if (textPart.length > 0) {
      const text = decode(textPart, "text");
      const top = stack.at(-1);
      if (!top) {
        if (text.trim() !== "") throw new Error(`text outside the root element: ${JSON.stringify(text.slice(0, 40))}`);
      } else top.text += text;
    }
    if (lt === -1) break;
    rest = rest.slice(lt);
    if (rest.startsWith("<!--")) {
      const end = rest.indexOf("-->");
      if (end === -1) throw new Error("unterminated comment");
      rest = rest.slice(end + 3);
      continue;
    }
    const m = tag.exec(rest);
    if (!m) throw new Error(`malformed tag near ${JSON.stringify(rest.slice(0, 60))}`);
    const [whole, closing, name, attrText, selfClosing] = m as unknown as [string, string, string, string, string];
    rest = rest.slice(whole.length);
    if (closing) {
      if (attrText.trim() !== "" || selfClosing) throw new Error(`malformed closing tag </${name}>`);
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes ${open ? `<${open.name}>` : "nothing"}`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of attrText.matchAll(new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "g"))) {
      const key = a[1] as string;
      if (key in attributes) throw new Error(`duplicate attribute ${key} on <${name}>`);
      attributes[key] = decode(a[2] ?? a[3] ?? "", `attribute ${key} of <${name}>`);
    }
    const element: XmlElement = { name, attributes, children: [], text: "" };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else if (root) throw new Error(`a second root element <${name}>`);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.map((e) => e.name).join("> <")}>`);
  if (!root) throw new Error("no root element");
  return root;
}

/** Every element of a tree, depth first, root included. */
export function allElements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(allElements)];
}
