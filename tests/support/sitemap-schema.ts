/**
 * A validator for sitemaps.org protocol 0.9 files (the rules of sitemap.xsd and siteindex.xsd and
 * the protocol page), for tests: a strict well-formedness check of the XML this subset uses
 * (declaration, elements, attributes, text with the predefined and numeric entities, comments),
 * then the structure:
 *
 * - root <urlset> or <sitemapindex> in the namespace http://www.sitemaps.org/schemas/sitemap/0.9;
 * - <url>: <loc> required, then optional <lastmod>, <changefreq>, <priority>, in that order, once each;
 * - <sitemap>: <loc> required, then optional <lastmod>;
 * - <loc>: an absolute http(s) URL, already escaped (no spaces, no characters outside ASCII),
 *   at most 2,048 characters;
 * - <lastmod>: a W3C Datetime; <changefreq> one of the seven words; <priority> 0.0 to 1.0;
 * - at most 50,000 entries and 52,428,800 bytes.
 */

export const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const MAX_ENTRIES = 50_000;
const MAX_BYTES = 52_428_800;
const CHANGEFREQ = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'];
const W3C_DATETIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d))?)?)?$/;

type Element = { name: string; attributes: Record<string, string>; children: Element[]; text: string };

export type SitemapReport = {
  kind: 'urlset' | 'sitemapindex' | null;
  /** Every <loc>, unescaped, in document order. */
  locs: string[];
  lastmods: string[];
  errors: string[];
};

const NAME = /^[A-Za-z_][\w.-]*/;

function decodeText(raw: string, errors: string[]): string {
  if (raw.includes('<')) errors.push('a "<" in text');
  return raw.replace(/&([^;&\s<]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) {
      errors.push(`an unescaped "&" in ${JSON.stringify(raw.slice(0, 80))}`);
      return whole;
    }
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (body in named) return named[body];
    const numeric = /^#(\d+|x[0-9a-fA-F]+)$/.exec(body);
    if (numeric) return String.fromCodePoint(body[1] === 'x' ? parseInt(body.slice(2), 16) : Number(body.slice(1)));
    errors.push(`an unknown entity &${body};`);
    return whole;
  });
}

/** Parses the XML subset strictly; problems go into `errors`. */
function parse(xml: string, errors: string[]): Element | null {
  let i = 0;
  const declaration = /^<\?xml\s+version="1\.[01]"(\s+encoding="UTF-8")?\s*\?>/i.exec(xml);
  if (!declaration) errors.push('no XML declaration <?xml version="1.0" encoding="UTF-8"?> at the start');
  else i = declaration[0].length;

  const stack: Element[] = [];
  let root: Element | null = null;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (text) {
      const decoded = decodeText(text, errors);
      if (stack.length > 0) stack[stack.length - 1].text += decoded;
      else if (decoded.trim()) errors.push(`text outside the root element: ${JSON.stringify(decoded.trim().slice(0, 40))}`);
    }
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end === -1) {
        errors.push('an unclosed comment');
        return null;
      }
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<!', lt) || xml.startsWith('<?', lt)) {
      errors.push(`an unexpected ${xml.slice(lt, lt + 9)} (DOCTYPE, CDATA and processing instructions are not used)`);
      return null;
    }
    const gt = xml.indexOf('>', lt);
    if (gt === -1) {
      errors.push('an unclosed tag');
      return null;
    }
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) {
        errors.push(`</${name}> closes ${open ? `<${open.name}>` : 'nothing'}`);
        return null;
      }
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const name = NAME.exec(body)?.[0];
    if (!name) {
      errors.push(`a malformed tag <${tag.slice(0, 40)}>`);
      return null;
    }
    const attributes: Record<string, string> = {};
    let rest = body.slice(name.length);
    while (rest.trim()) {
      const attribute = /^\s+([A-Za-z_][\w:.-]*)\s*=\s*"([^"<]*)"/.exec(rest);
      if (!attribute) {
        errors.push(`malformed attributes in <${tag.slice(0, 60)}>`);
        return null;
      }
      if (attribute[1] in attributes) errors.push(`a repeated attribute ${attribute[1]} on <${name}>`);
      attributes[attribute[1]] = decodeText(attribute[2], errors);
      rest = rest.slice(attribute[0].length);
    }
    const element: Element = { name, attributes, children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else if (root) errors.push(`a second root element <${name}>`);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) errors.push(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) errors.push('no root element');
  return root;
}

function checkLoc(loc: string, where: string, errors: string[]): void {
  if (loc.length < 12 || loc.length > 2048) errors.push(`${where}: <loc> must be 12 to 2,048 characters`);
  if (/[\s\u0080-\uffff]/.test(loc)) errors.push(`${where}: <loc> ${JSON.stringify(loc)} is not URL-escaped`);
  let url: URL;
  try {
    url = new URL(loc);
  } catch {
    errors.push(`${where}: <loc> ${JSON.stringify(loc)} is not an absolute URL`);
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.push(`${where}: <loc> ${JSON.stringify(loc)} is not http(s)`);
}

function checkLastmod(value: string, where: string, errors: string[]): void {
  if (!W3C_DATETIME.test(value) || Number.isNaN(Date.parse(value.length === 4 ? `${value}-01-01` : value))) {
    errors.push(`${where}: <lastmod> ${JSON.stringify(value)} is not a W3C Datetime`);
  }
}

/** Checks one sitemap or sitemap index file. */
export function validateSitemap(xml: string): SitemapReport {
  const errors: string[] = [];
  const report: SitemapReport = { kind: null, locs: [], lastmods: [], errors };
  if (Buffer.byteLength(xml, 'utf8') > MAX_BYTES) errors.push(`larger than ${MAX_BYTES} bytes`);
  const root = parse(xml, errors);
  if (!root) return report;
  if (root.name !== 'urlset' && root.name !== 'sitemapindex') {
    errors.push(`the root element is <${root.name}>, not <urlset> or <sitemapindex>`);
    return report;
  }
  report.kind = root.name;
  if (root.attributes.xmlns !== NAMESPACE) errors.push(`<${root.name}> is not in the namespace ${NAMESPACE}`);
  if (root.text.trim()) errors.push(`text directly inside <${root.name}>`);

  const entryName = root.name === 'urlset' ? 'url' : 'sitemap';
  const order = root.name === 'urlset' ? ['loc', 'lastmod', 'changefreq', 'priority'] : ['loc', 'lastmod'];
  if (root.children.length > MAX_ENTRIES) errors.push(`${root.children.length} entries, more than ${MAX_ENTRIES}`);
  root.children.forEach((entry, index) => {
    const where = `<${entryName}> ${index + 1}`;
    if (entry.name !== entryName) {
      errors.push(`<${entry.name}> inside <${root.name}>`);
      return;
    }
    if (entry.text.trim()) errors.push(`${where}: text directly inside`);
    let last = -1;
    for (const child of entry.children) {
      const position = order.indexOf(child.name);
      if (position === -1) errors.push(`${where}: unknown element <${child.name}>`);
      else if (position <= last) errors.push(`${where}: <${child.name}> repeated or out of order`);
      else last = position;
      if (child.children.length > 0) errors.push(`${where}: <${child.name}> has child elements`);
      const value = child.text.trim();
      if (child.name === 'loc') {
        checkLoc(value, where, errors);
        report.locs.push(value);
      } else if (child.name === 'lastmod') {
        checkLastmod(value, where, errors);
        report.lastmods.push(value);
      } else if (child.name === 'changefreq' && !CHANGEFREQ.includes(value)) {
        errors.push(`${where}: <changefreq> ${JSON.stringify(value)}`);
      } else if (child.name === 'priority' && !(/^(0(\.\d+)?|1(\.0+)?)$/.test(value))) {
        errors.push(`${where}: <priority> ${JSON.stringify(value)} is not 0.0 to 1.0`);
      }
    }
    if (!entry.children.some((child) => child.name === 'loc')) errors.push(`${where}: no <loc>`);
  });
  return report;
}
