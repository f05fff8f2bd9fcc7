/**
 * A strict well-formedness check of the XML subset the feeds write (declaration, elements with
 * namespace prefixes, double-quoted attributes, text with the predefined and numeric entities),
 * for tests. Refuses what XML 1.0 forbids in text: a raw '<' or '&', characters outside the XML
 * Char production (NUL and other C0 controls, U+FFFE/U+FFFF, lone surrogates), a tag closed by
 * another name, a second root. Returns the element tree with decoded text.
 */

export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?/;
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function decode(raw: string, errors: string[]): string {
  if (raw.includes('<')) errors.push('a "<" in text');
  return raw.replace(/&([^;&\s<]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) {
      errors.push(`an unescaped "&" in ${JSON.stringify(raw.slice(0, 80))}`);
      return whole;
    }
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (body in named) return named[body];
    const numeric = /^#(\d+|x[0-9a-fA-F]+)$/.exec(body);
    if (numeric) {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : Number(body.slice(1));
      const char = String.fromCodePoint(code);
      if (NOT_XML_CHAR.test(char)) errors.push(`a character reference to a forbidden character &${body};`);
      return char;
    }
    errors.push(`an unknown entity &${body};`);
    return whole;
  });
}

export function parseXml(xml: string): { root: XmlElement | null; errors: string[] } {
  const errors: string[] = [];
  const forbidden = NOT_XML_CHAR.exec(xml);
  if (forbidden) errors.push(`a character XML does not allow (U+${forbidden[0].charCodeAt(0).toString(16).padStart(4, '0')}) at ${forbidden.index}`);
  let i = 0;
  const declaration = /^<\?xml\s+version="1\.0"\s+encoding="UTF-8"\s*\?>/.exec(xml);
  if (!declaration) errors.push('no <?xml version="1.0" encoding="UTF-8"?> declaration at the start');
  else i = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (text) {
      const decoded = decode(text, errors);
      if (stack.length > 0) stack[stack.length - 1].text += decoded;
      else if (decoded.trim()) errors.push(`text outside the root element: ${JSON.stringify(decoded.trim().slice(0, 40))}`);
    }
    if (lt === -1) break;
    if (xml.startsWith('<!', lt) || xml.startsWith('<?', lt)) {
      errors.push(`an unexpected ${xml.slice(lt, lt + 9)}`);
      return { root: null, errors };
    }
    const gt = xml.indexOf('>', lt);
    if (gt === -1) {
      errors.push('an unclosed tag');
      return { root: null, errors };
    }
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) {
        errors.push(`</${name}> closes ${open ? `<${open.name}>` : 'nothing'}`);
        return { root: null, errors };
      }
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const name = NAME.exec(body)?.[0];
    if (!name) {
      errors.push(`a malformed tag <${tag.slice(0, 40)}>`);
      return { root: null, errors };
    }
    const attributes: Record<string, string> = {};
    let rest = body.slice(name.length);
    while (rest.trim()) {
      const attribute = /^\s+([A-Za-z_][\w:.-]*)\s*=\s*"([^"<]*)"/.exec(rest);
      if (!attribute) {
        errors.push(`malformed attributes in <${tag.slice(0, 60)}>`);
        return { root: null, errors };
      }
      if (attribute[1] in attributes) errors.push(`a repeated attribute ${attribute[1]} on <${name}>`);
      attributes[attribute[1]] = decode(attribute[2], errors);
      rest = rest.slice(attribute[0].length);
    }
    const element: XmlElement = { name, attributes, children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else if (root) errors.push(`a second root element <${name}>`);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) errors.push(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) errors.push('no root element');
  return { root, errors };
}
