import { beforeAll, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Db } from '@/db';
import { CareersListing } from '@/modules/content/components/careers-listing';
import { ContentList } from '@/modules/content/components/content-list';
import { ContentPageView } from '@/modules/content/components/content-page-view';
import { getContentPage, listContent, resolveContentRequest } from '@/modules/content/content.queries';
import { contentPages } from '@/modules/content/content.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { websites } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { activeMarkup, HOSTILE_SAMPLES } from '../support/inert-html';
import { useTestDatabase } from '../support/database';

/**
 * Dealer content stored in the database with every known script trick, rendered the way the
 * content routes render it (the page view, the FAQ accordion, the careers and blog lists): nothing
 * active reaches the HTML the browser gets.
 */

const HOSTILE_BODY = ['Welcome to our **dealership**.', ...HOSTILE_SAMPLES, 'Thanks for reading.'].join('\n\n');
const HOSTILE_FAQ = [
  'Questions we hear.',
  ...HOSTILE_SAMPLES.map((sample, i) => `### Question ${i} ${sample.replace(/\n/g, ' ')}\n\n${sample}`),
].join('\n\n');
const HOSTILE_TITLE = '<script>alert("title")</script><img src=x onerror=alert(1)>';

function render(element: ReturnType<typeof createElement>): string {
  return renderToStaticMarkup(element);
}

const svgCount = (html: string) => (html.match(/<svg\b/g) ?? []).length;

describe('dealer content never reaches the browser active', () => {
  let db: Db;
  let tenant: Tenant;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    const [{ id }] = await db
      .insert(websites)
      .values({ slug: 'hostile-motors', name: 'Hostile Motors', url: 'https://hostile-motors.example', config: {} })
      .returning({ id: websites.id });
    await db.insert(contentPages).values([
      { websiteId: id, slug: 'about-us', title: 'About us', body: HOSTILE_BODY },
      { websiteId: id, slug: 'benign', title: 'About us', body: 'Welcome to our **dealership**.\n\nThanks for reading.' },
      { websiteId: id, slug: 'faq', kind: 'faq', title: 'FAQ', body: HOSTILE_FAQ },
      { websiteId: id, slug: 'careers', title: HOSTILE_TITLE, body: HOSTILE_BODY },
      { websiteId: id, slug: 'sales-consultant', kind: 'career', title: HOSTILE_TITLE, body: HOSTILE_BODY },
      { websiteId: id, slug: 'hostile-post', kind: 'blog', title: HOSTILE_TITLE, metaDescription: '', body: HOSTILE_BODY },
    ]);
    tenant = (await findTenantById(id))!;
  });

  async function renderedPage(slug: string, path: string): Promise<string> {
    const result = await resolveContentRequest(tenant, slug, path);
    expect(result.status).toBe('found');
    if (result.status !== 'found') throw new Error('not found');
    return render(createElement(ContentPageView, { tenant, page: result.page }));
  }

  it('a content page keeps its text and drops every script, handler, frame, SVG and unsafe URL', async () => {
    const html = await renderedPage('about-us', '/about-us');
    const benign = await renderedPage('benign', '/benign');
    expect(activeMarkup(html)).toEqual([]);
    expect(html).not.toMatch(/<script|<iframe|<object|<embed|<math|\son\w+="|javascript:alert\(1\)"|vbscript:/i);
    // The page's own icons are its only SVG: none comes from the content.
    expect(svgCount(html)).toBe(svgCount(benign));
    expect(html).toContain('<strong>dealership</strong>');
    expect(html).toContain('<span>svg link</span>');
    // The unclosed <style> of the MathML sample swallows the rest of the body, as it would in a
    // browser: lost text, never markup that runs.
    expect(html).not.toContain('Thanks for reading.');
    expect(benign).toContain('Thanks for reading.');
  });

  it('the FAQ accordion (questions and answers) is as inert', async () => {
    const html = await renderedPage('faq', '/faq');
    expect(activeMarkup(html)).toEqual([]);
    expect(html).not.toMatch(/<script|<iframe|\son\w+="/i);
    // Every question is there, as text.
    expect((html.match(/<details/g) ?? []).length).toBe(HOSTILE_SAMPLES.length);
  });

  it('a blog post, a career page and the careers and blog lists escape hostile titles', async () => {
    for (const [slug, path] of [['hostile-post', '/blog/hostile-post'], ['sales-consultant', '/sales-consultant']] as const) {
      const html = await renderedPage(slug, path);
      expect(activeMarkup(html), path).toEqual([]);
      expect(html).toContain('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;');
    }
    const careers = render(
      createElement(CareersListing, {
        tenant,
        title: 'Careers',
        intro: await getContentPage(tenant, 'careers'),
        positions: await listContent(tenant, 'career'),
      }),
    );
    expect(activeMarkup(careers)).toEqual([]);
    expect(careers).not.toMatch(/<script/i);
    const blog = render(createElement(ContentList, { tenant, items: await listContent(tenant, 'blog'), showDate: true, readMoreLabel: 'Read more' }));
    expect(activeMarkup(blog)).toEqual([]);
    expect(blog).not.toMatch(/<script|<img/i);
  });
});
