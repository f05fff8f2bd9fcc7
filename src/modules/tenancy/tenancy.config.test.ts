import { describe, expect, it } from 'vitest';
import { websiteConfigSchema } from './tenancy.config';

describe('website configuration', () => {
  it('fills every option with the spec default when a website sets nothing', () => {
    const config = websiteConfigSchema.parse({});
    expect(config.locale).toBe('en-AU');
    expect(config.currency).toBe('AUD');
    expect(config.distanceUnit).toBe('km');
    expect(config.search.defaultSlug).toBe('new-used-and-demo-cars');
    expect(config.search.defaultSort).toBe('custom_rank:desc');
    expect(config.includeSoldCarsDays).toBe(3);
    expect(config.specifications).toEqual({ justArrivedDays: 8, justArrivedTagName: 'Just Arrived', soldTagName: 'JUST SOLD' });
    expect(config.vehiclePath).toBe('cars');
    expect(config.garage).toEqual({ enabled: false, path: '/my-garage' });
    expect(config.phoneSignIn.enabled).toBe(false);
    expect(config.checkout.enabled).toBe(false);
    expect(config.carPage.imageQuality).toBe(75);
    expect(config.leads.enquirySubmitLabel).toBe('Enquire Now');
    expect(config.leads.sourceOptions).toContain('Facebook Marketplace');
    expect(config.usedConditionLabel).toBe('used');
    expect(config.feeds).toEqual({ meta: { enabled: true }, google: { enabled: true, storeCodes: {} } });
  });

  it('keeps what a website sets and defaults the rest of the same group', () => {
    const config = websiteConfigSchema.parse({
      search: { defaultSlug: 'used-cars', defaultFilters: { minPhotos: 3 } },
      garage: { enabled: true },
    });
    expect(config.search.defaultSlug).toBe('used-cars');
    expect(config.search.defaultFilters).toEqual({ minPhotos: 3, cities: [], makes: [] });
    expect(config.search.defaultSort).toBe('custom_rank:desc');
    expect(config.garage).toEqual({ enabled: true, path: '/my-garage' });
  });

  it('names the field and the reason when a value is wrong', () => {
    const result = websiteConfigSchema.safeParse({
      locale: 'fr-FR',
      theme: { primary: 'red' },
      search: { defaultSlug: 'Bad Slug!', sortOptions: ['price:sideways'] },
      carPage: { imageQuality: 90 },
      garage: { path: 'no-leading-slash' },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'locale',
        'theme.primary',
        'search.defaultSlug',
        'search.sortOptions.0',
        'carPage.imageQuality',
        'garage.path',
      ]),
    );
  });
});
