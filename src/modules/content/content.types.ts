/** What the UI receives for dealer content (never raw rows). */

export type ContentKind = 'page' | 'faq' | 'blog' | 'career';

export type ContentPage = {
  id: number;
  slug: string;
  kind: ContentKind;
  title: string;
  metaDescription: string;
  /** Markdown as the dealer wrote it; render with renderMarkdown, never as HTML. */
  body: string;
  publishedAt: Date;
  updatedAt: Date;
};

export type ContentSummary = Omit<ContentPage, 'body'> & {
  /** Plain-text teaser: the meta description, else the opening of the body. */
  excerpt: string;
};

export type ContentResolution =
  | { status: 'found'; page: ContentPage; canonicalPath: string }
  | { status: 'redirect'; location: string }
  | { status: 'not-found' };
