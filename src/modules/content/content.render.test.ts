import { describe, expect, it } from 'vitest';
import { activeMarkup, HOSTILE_SAMPLES } from '../../../tests/support/inert-html';
import { markdownExcerpt, renderFaq, renderMarkdown } from './content.render';

const tenant = { config: { usePagesPath: false }, url: 'https://www.harbourcity.example' };

describe('renderMarkdown: dealer content never runs script', () => {
  it('drops a <script> tag and its contents', () => {
    const html = renderMarkdown('Hello\n\n<script>alert("owned")</script>\n\nBye', { tenant });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('alert');
    expect(html).toContain('<p>Hello</p>');
    expect(html).toContain('<p>Bye</p>');
  });

  it('drops event-handler attributes such as <img onerror>', () => {
    const html = renderMarkdown('<img src="x.png" onerror="alert(1)" alt="car"> and <a href="/x" onclick="steal()">x</a>');
    expect(html).not.toMatch(/onerror|onclick|alert|steal/i);
    expect(html).toContain('alt="car"');
  });

  it('drops javascript: links in Markdown and in HTML, however they are written', () => {
    const samples = [
      '[click me](javascript:alert(1))',
      '<a href="javascript:alert(1)">click me</a>',
      '<a href="JaVaScRiPt:alert(1)">click me</a>',
      '<a href="&#106;avascript:alert(1)">click me</a>',
      '<a href=" javascript:alert(1)">click me</a>',
    ];
    for (const sample of samples) {
      const html = renderMarkdown(sample, { tenant });
      expect(html, sample).not.toMatch(/javascript/i);
      expect(html, sample).toContain('click me');
      // Also without a tenant (no link rules), the sanitiser alone refuses the scheme.
      expect(renderMarkdown(sample), sample).not.toMatch(/javascript/i);
    }
  });

  it('drops style, iframe, object, form and inline styles', () => {
    const html = renderMarkdown(
      '<style>body{display:none}</style><iframe src="https://evil.example"></iframe>' +
        '<object data="x"></object><form action="/steal"><input name="p"></form>' +
        '<p style="position:fixed">styled</p>',
    );
    expect(html).not.toMatch(/<style|<iframe|<object|<form|<input|style=|display:none/i);
    expect(html).toContain('styled');
  });

  it('refuses data: images and keeps ordinary ones, lazily loaded', () => {
    expect(renderMarkdown('![x](data:image/svg+xml;base64,PHN2Zz4=)')).not.toContain('data:');
    const html = renderMarkdown('![Showroom](https://cdn.example.org/showroom.jpg)');
    expect(html).toContain('src="https://cdn.example.org/showroom.jpg"');
    expect(html).toContain('loading="lazy"');
  });

  it('renders ordinary Markdown, with a # heading demoted to h2 (the page title is the h1)', () => {
    const html = renderMarkdown('# About\n\nWe sell **cars**.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h2>About</h2>');
    expect(html).not.toContain('<h1');
    expect(html).toContain('<strong>cars</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<td>1</td>');
  });

  it('applies the website’s link rules to links in content', () => {
    const html = renderMarkdown(
      '[FAQ](/pages/faq) [Call](tel:0295550100) [Map](https://maps.google.com/?q=x) [Facebook](https://facebook.com/x)',
      { tenant },
    );
    expect(html).toContain('<a href="/faq">FAQ</a>');
    expect(html).toContain('<a href="tel:0295550100">Call</a>');
    expect(html).toContain('<a href="https://maps.google.com/?q=x">Map</a>');
    expect(html).toContain('<a href="https://facebook.com/x" target="_blank" rel="noopener noreferrer">Facebook</a>');
  });

  it('does not let a dealer open a new tab without noopener', () => {
    const html = renderMarkdown('<a href="https://example.org" target="_blank" rel="opener">x</a>', { tenant });
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).not.toContain('rel="opener"');
  });
});

describe('renderMarkdown: SVG, frames, URL tricks and mutation XSS', () => {
  it.each(HOSTILE_SAMPLES)('leaves nothing active of %s', (sample) => {
    for (const html of [renderMarkdown(sample, { tenant }), renderMarkdown(sample)]) {
      expect(activeMarkup(html), html).toEqual([]);
      expect(html).not.toMatch(/<(svg|math|iframe|object|embed|video|source)\b/i);
      expect(html).not.toMatch(/alert\(1\)".*>|on\w+=/i);
    }
  });

  it('the checker itself flags what it must (it is not a test that cannot fail)', () => {
    expect(activeMarkup('<p onclick="x()">a</p>')).toEqual(['onclick on <p>']);
    expect(activeMarkup('<a href="java&#x09;script:alert(1)">a</a>')).toHaveLength(1);
    expect(activeMarkup('<img src=" javascript:alert(1)">')).toHaveLength(1);
    expect(activeMarkup('<svg><script>alert(1)</script></svg>')).toEqual(['<script>']);
    expect(activeMarkup('<iframe src="https://x.example"></iframe>')).toEqual(['<iframe>']);
    expect(activeMarkup('<a href="/cars/x">a</a><a href="tel:123">b</a><img src="https://a.example/b.jpg">')).toEqual([]);
  });

  it('keeps the text of a tab-split javascript: link, as plain text', () => {
    expect(renderMarkdown('<a href="java&#x09;script:alert(1)">tab</a>', { tenant })).toBe('<p><span>tab</span></p>\n');
  });
});

describe('renderFaq', () => {
  it('turns each ### heading into a question with the Markdown under it as the answer', () => {
    const faq = renderFaq(
      'Answers to common questions.\n\n### Do you take trade-ins?\n\nYes, **any** make.\n\n### Can I get finance?\n\nYes.\n\n```\n### not a question\n```\n',
      { tenant },
    );
    expect(faq.introHtml).toContain('Answers to common questions.');
    expect(faq.items.map((i) => i.question)).toEqual(['Do you take trade-ins?', 'Can I get finance?']);
    expect(faq.items[0].answerHtml).toContain('<strong>any</strong>');
    expect(faq.items[1].answerHtml).toContain('### not a question');
  });

  it('sanitises questions and answers too', () => {
    const faq = renderFaq('### Is it <img src=x onerror=alert(1)> safe?\n\n<script>alert(2)</script>Yes');
    expect(faq.items[0].question).not.toMatch(/onerror|<img/);
    expect(faq.items[0].answerHtml).not.toMatch(/script|alert/);
  });
});

describe('markdownExcerpt', () => {
  it('is plain text cut at a word', () => {
    expect(markdownExcerpt('# Title\n\nSome **bold** text & more')).toBe('Title Some bold text & more');
    const long = markdownExcerpt('word '.repeat(100), 50);
    expect(long.length).toBeLessThanOrEqual(51);
    expect(long.endsWith('…')).toBe(true);
  });
});
