import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { linkAttributes, resolveLink, type LinkTenant } from '@/modules/tenancy/tenancy.links';

/**
 * Dealer Markdown → safe HTML. Markdown is parsed with marked (raw HTML passes through it), then
 * everything goes through sanitize-html with an allow-list: no script, style, iframe, form or
 * event-handler attributes, and only http(s), mailto and tel links. Links follow the SPEC §2 link
 * rules of the website (external links open in a new tab). A top-level # heading becomes h2,
 * because the page title is the page's only h1.
 */

const markdown = new Marked({ gfm: true, breaks: false, async: false });

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code',
  'ul', 'ol', 'li', 'strong', 'b', 'em', 'i', 'del', 's', 'sup', 'sub', 'small', 'mark', 'span',
  'a', 'img', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'dl', 'dt', 'dd',
];

export type RenderOptions = {
  /** The website whose link rules apply; without it links keep their (sanitised) href. */
  tenant?: LinkTenant;
};

function sanitize(html: string, options: RenderOptions): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
      th: ['colspan', 'rowspan', 'scope'],
      td: ['colspan', 'rowspan'],
      ol: ['start'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      h1: 'h2',
      a: (_tagName, attribs) => {
        const { href, title } = attribs;
        const link = options.tenant
          ? resolveLink(options.tenant, href)
          : href
            ? ({ kind: 'internal', href } as const)
            : null;
        if (!link) return { tagName: 'span', attribs: {} };
        return { tagName: 'a', attribs: { ...(title ? { title } : {}), ...linkAttributes(link) } };
      },
      img: (_tagName, attribs) => ({
        tagName: 'img',
        attribs: { ...attribs, loading: 'lazy', decoding: 'async', alt: attribs.alt ?? '' },
      }),
    },
  });
}

/** Sanitised HTML for a Markdown body. */
export function renderMarkdown(source: string, options: RenderOptions = {}): string {
  const html = markdown.parse(source) as string;
  return sanitize(html, options);
}

/** Plain text of a Markdown body, collapsed to one line and cut at a word near `max` characters. */
export function markdownExcerpt(source: string, max = 180): string {
  const text = sanitizeHtml(markdown.parse(source) as string, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 20)).replace(/[\s,.;:!?-]+$/, '')}…`;
}

export type FaqItem = { question: string; answerHtml: string };
export type RenderedFaq = { introHtml: string; items: FaqItem[] };

/**
 * A FAQ page: every `### ` heading is a question, the Markdown under it (to the next ###) its
 * answer. Text before the first question is the introduction.
 */
export function renderFaq(source: string, options: RenderOptions = {}): RenderedFaq {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const intro: string[] = [];
  const items: { question: string; answer: string[] }[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const question = !inFence ? /^\s{0,3}###\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (question) {
      items.push({ question: question[1], answer: [] });
    } else if (items.length > 0) {
      items[items.length - 1].answer.push(line);
    } else {
      intro.push(line);
    }
  }
  return {
    introHtml: renderMarkdown(intro.join('\n'), options),
    items: items.map(({ question, answer }) => ({
      question: markdownExcerpt(question, 300),
      answerHtml: renderMarkdown(answer.join('\n'), options),
    })),
  };
}
