import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { contrastRatio, themeVariables } from '@/modules/tenancy/components/site-theme';
import { localReviews, reviewsToShow } from '@/modules/locations/locations.reviews';
import { chatWidgets, widgetPlan } from '@/modules/widgets/widgets.plan';
import { DEMO_SITES } from './sites';
import { withDemoReviews } from './reviews';

/** The demo dealers' own data, checked against the domains' rules (the domains' unit tests use none of it). */

const NOW = new Date('2026-11-28T09:00:00Z');
const production = { production: true };
const site = (slug: string) => DEMO_SITES.find((s) => s.slug === slug)!;

describe('the demo dealers’ themes', () => {
  // Every text/background pair the site CSS draws from the theme (globals.css, components):
  // brand-coloured text sits on white and on the pale grey surfaces, never on the header or footer.
  const pairs = (vars: ReturnType<typeof themeVariables>) =>
    [
      ['primary foreground on primary', vars['--site-primary-foreground'], vars['--site-primary']],
      ['brand text on white', vars['--site-primary-text'], '#ffffff'],
      ['brand text on gray-100', vars['--site-primary-text'], '#f3f4f6'],
      ['accent foreground on accent', vars['--site-accent-foreground'], vars['--site-accent']],
      ['header text on header', vars['--site-header-fg'], vars['--site-header-bg']],
      ['header call button text', vars['--site-header-cta-foreground'], vars['--site-header-cta']],
      ['footer text on footer', vars['--site-footer-fg'], vars['--site-footer-bg']],
    ] as const;

  it.each(DEMO_SITES.map((site) => [site.slug, site] as const))('%s: every text colour reads at AA on its background', (_slug, site) => {
    const vars = themeVariables(parseWebsiteConfig(site.config).theme);
    for (const [name, text, background] of pairs(vars)) {
      expect(contrastRatio(text, background), `${name}: ${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('the demo dealers’ reviews (SPEC §9: 12 shown, minimum rating 4)', () => {
  it('gives every demo dealer 12 reviews to show, each naming its own dealer where it names one', async () => {
    for (const site of DEMO_SITES) {
      const config = parseWebsiteConfig(withDemoReviews(site, NOW)).reviews;
      const shown = reviewsToShow(await localReviews(config).list(), config);
      expect(shown, site.slug).toHaveLength(12);
      expect(shown.filter((r) => r.text.includes(site.name)).length, site.slug).toBeGreaterThan(0);
      expect(shown.every((r) => r.date < '2026-11-28'), site.slug).toBe(true);
    }
  });
});

describe('the demo dealers’ widgets', () => {
  it('gives the demo dealers a realistic set: harbour-city-motors every kind, lone-star-auto a consent banner', () => {
    const harbour = widgetPlan(parseWebsiteConfig(site('harbour-city-motors').config), site('harbour-city-motors').secrets ?? {}, production);
    expect(harbour.widgets.map((w) => w.id).sort()).toEqual(['callTracking', 'digitalTools', 'ga4', 'gtm', 'metaPixel', 'podium', 'spinViewer']);
    const lone = parseWebsiteConfig(site('lone-star-auto').config);
    expect(lone.consent.required).toBe(true);
    expect(parseWebsiteConfig(site('harbour-city-motors').config).consent.required).toBe(false);
  });

  const demo = (slug: string) => {
    const seed = site(slug);
    return chatWidgets(widgetPlan(parseWebsiteConfig(seed.config), seed.secrets ?? {}, production));
  };

  it('on the demo dealers: none for gold-coast-used-cars, kiwi-motors and wanderer-rv (no key); chat and chatbot for southern-cross-skoda', () => {
    expect(demo('gold-coast-used-cars')).toEqual({ chat: false, chatbot: false });
    expect(demo('kiwi-motors')).toEqual({ chat: false, chatbot: false });
    expect(demo('wanderer-rv')).toEqual({ chat: false, chatbot: false });
    expect(demo('lone-star-auto')).toEqual({ chat: false, chatbot: false });
    expect(demo('harbour-city-motors')).toEqual({ chat: true, chatbot: false });
    expect(demo('southern-cross-skoda')).toEqual({ chat: true, chatbot: true });
  });
});
