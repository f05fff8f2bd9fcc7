import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { getContentPage, listContent, resolveContentRequest } from '@/modules/content/content.queries';
import { contentPages } from '@/modules/content/content.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { websites } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

describe('content pages', () => {
  let db: Db;
  let pagesSite: Tenant;
  let plainSite: Tenant;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    const [{ id: a }, { id: b }] = await db
      .insert(websites)
      .values([
        { slug: 'pages-motors', name: 'Pages Motors', config: { usePagesPath: true } },
        { slug: 'plain-cars', name: 'Plain Cars', config: {} },
      ])
      .returning({ id: websites.id });
    await db.insert(contentPages).values([
      { websiteId: a, slug: 'about-us', title: 'About Pages Motors', body: 'We are **Pages Motors**.' },
      { websiteId: a, slug: 'faq', kind: 'faq', title: 'FAQ', body: '### Finance?\n\nYes.' },
      { websiteId: a, slug: 'sales-consultant', kind: 'career', title: 'Sales consultant', metaDescription: 'Join us' },
      { websiteId: a, slug: 'old-post', kind: 'blog', title: 'Old post', body: 'Old', publishedAt: new Date('2025-01-01') },
      { websiteId: a, slug: 'new-post', kind: 'blog', title: 'New post', body: 'Fresh **news** here', publishedAt: new Date('2026-02-01') },
      { websiteId: b, slug: 'about-us', title: 'About Plain Cars', body: 'Plain Cars only.' },
      { websiteId: b, slug: 'mechanical-warranty', title: 'Warranty', body: 'Warranty.' },
      { websiteId: b, slug: 'secret-post', kind: 'blog', title: 'Plain only post', body: 'x' },
    ]);
    pagesSite = (await findTenantById(a))!;
    plainSite = (await findTenantById(b))!;
  });

  it('returns a website’s own page, never another website’s page with the same slug', async () => {
    expect((await getContentPage(pagesSite, 'about-us'))?.title).toBe('About Pages Motors');
    expect((await getContentPage(plainSite, 'about-us'))?.title).toBe('About Plain Cars');
    expect(await getContentPage(pagesSite, 'mechanical-warranty')).toBeNull();
    expect(await getContentPage(plainSite, 'faq')).toBeNull();
    expect(await getContentPage(pagesSite, "about-us' or '1'='1")).toBeNull();
  });

  it('lists one kind of one website, blog posts newest first, with an excerpt', async () => {
    const posts = await listContent(pagesSite, 'blog');
    expect(posts.map((p) => p.slug)).toEqual(['new-post', 'old-post']);
    expect(posts[0].excerpt).toBe('Fresh news here');
    expect(posts[0]).not.toHaveProperty('body');
    expect((await listContent(pagesSite, 'blog', { limit: 1 })).map((p) => p.slug)).toEqual(['new-post']);
    expect((await listContent(pagesSite, 'career'))[0].excerpt).toBe('Join us');
    expect((await listContent(plainSite, 'blog')).map((p) => p.title)).toEqual(['Plain only post']);
  });

  describe('canonical path and redirect decision', () => {
    it('on a website with a pages path: /pages/{slug} is canonical, except the unprefixed pages', async () => {
      expect(await resolveContentRequest(pagesSite, 'faq', '/pages/faq')).toMatchObject({
        status: 'found',
        canonicalPath: '/pages/faq',
        page: { kind: 'faq' },
      });
      expect(await resolveContentRequest(pagesSite, 'faq', '/faq')).toEqual({ status: 'redirect', location: '/pages/faq' });
      expect(await resolveContentRequest(pagesSite, 'about-us', '/about-us')).toMatchObject({
        status: 'found',
        canonicalPath: '/about-us',
      });
      expect(await resolveContentRequest(pagesSite, 'about-us', '/pages/about-us')).toEqual({
        status: 'redirect',
        location: '/about-us',
      });
    });

    it('on a website without a pages path: every page is canonical without /pages', async () => {
      expect(await resolveContentRequest(plainSite, 'mechanical-warranty', '/mechanical-warranty')).toMatchObject({
        status: 'found',
      });
      expect(await resolveContentRequest(plainSite, 'mechanical-warranty', '/pages/mechanical-warranty')).toEqual({
        status: 'redirect',
        location: '/mechanical-warranty',
      });
    });

    it('blog posts live under /blog; other paths to them redirect there', async () => {
      expect(await resolveContentRequest(pagesSite, 'new-post', '/blog/new-post')).toMatchObject({ status: 'found' });
      expect(await resolveContentRequest(pagesSite, 'new-post', '/pages/new-post')).toEqual({
        status: 'redirect',
        location: '/blog/new-post',
      });
      expect(await resolveContentRequest(pagesSite, 'faq', '/blog/faq')).toEqual({ status: 'redirect', location: '/pages/faq' });
    });

    it('an unknown slug, or another website’s page, is not found (never a redirect)', async () => {
      expect(await resolveContentRequest(pagesSite, 'nothing-here', '/pages/nothing-here')).toEqual({ status: 'not-found' });
      expect(await resolveContentRequest(pagesSite, 'secret-post', '/blog/secret-post')).toEqual({ status: 'not-found' });
      expect(await resolveContentRequest(plainSite, 'faq', '/faq')).toEqual({ status: 'not-found' });
    });
  });
});
