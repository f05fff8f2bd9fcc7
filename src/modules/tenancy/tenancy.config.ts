import { z } from 'zod';
import { CURRENCIES, LOCALES } from '@/lib/intl';

/**
 * Website configuration: every behaviour the spec gives to 'some tenants', 'some sites' or a named
 * dealer is a field here with a default. Client-safe: no secrets (see websiteSecretsSchema).
 */

export const SEARCH_FILTER_KEYS = [
  'location_name',
  'car_type',
  'make',
  'make_model',
  'colour',
  'simple_body',
  'km',
  'price',
  'year',
  'simple_transmission',
  'simple_drive',
  'simple_fuel',
  'dealership_name',
] as const;

export const SORT_OPTIONS = [
  'custom_rank:desc',
  'created_at_timestamp:desc',
  'price:desc',
  'price:asc',
  'km:asc',
  'km:desc',
  'subscription_price:desc',
  'subscription_price:asc',
] as const;

export const PAYMENT_PROVIDERS = ['Stripe', 'Till', 'St George'] as const;
export const VEHICLE_PATHS = ['cars', 'motorcycles', 'campers'] as const;
export const CHAT_PROVIDERS = ['podium', 'livechat', 'zendesk'] as const;

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour');
export const FINANCE_PARTNERS = ['local', 'youx', 'carclarity'] as const;
const financeRate = z.number().min(0).max(40);

const sitePath = z.string().regex(/^\/[a-z0-9\-_/]*$/i, 'must be a path starting with /');
const slugSegment = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens');

export const DEFAULT_LEAD_SOURCE_OPTIONS = [
  'Facebook Marketplace',
  'Facebook',
  'Instagram',
  'Google',
  'Word of Mouth',
  'Car Sales',
  'Repeat Customer',
  'Other',
];

export const websiteConfigSchema = z.object({
  locale: z.enum(LOCALES).default('en-AU'),
  currency: z.enum(CURRENCIES).default('AUD'),
  distanceUnit: z.enum(['km', 'mi']).default('km'),
  /** IANA zone for the website as a whole (locations carry their own). */
  timeZone: z.string().default('Australia/Sydney'),

  theme: z
    .object({
      primary: hexColour.default('#1d4ed8'),
      primaryForeground: hexColour.default('#ffffff'),
      accent: hexColour.default('#f59e0b'),
      headerBackground: hexColour.default('#ffffff'),
      headerForeground: hexColour.default('#0f172a'),
      footerBackground: hexColour.default('#0f172a'),
      footerForeground: hexColour.default('#e2e8f0'),
      /** Corner radius of buttons and cards, in px. */
      radius: z.number().int().min(0).max(24).default(8),
      fontStack: z.enum(['sans', 'serif', 'condensed']).default('sans'),
    })
    .prefault({}),

  hero: z
    .object({
      heading: z.string().default('Find your next car'),
      subheading: z.string().default(''),
      imageUrl: z.string().nullable().default(null),
    })
    .prefault({}),

  search: z
    .object({
      /** /search/{defaultSlug}: new-used-and-demo-cars, used-cars, new-used-and-demo-trucks… */
      defaultSlug: slugSegment.default('new-used-and-demo-cars'),
      /** Extra all-stock path, e.g. used-cars-in-labrador, or /pre-owned as a top-level path. */
      allStockPath: sitePath.nullable().default(null),
      filters: z.array(z.enum(SEARCH_FILTER_KEYS)).default([...SEARCH_FILTER_KEYS]),
      sortOptions: z
        .array(z.enum(SORT_OPTIONS))
        .default(['custom_rank:desc', 'created_at_timestamp:desc', 'price:desc', 'price:asc', 'km:asc']),
      defaultSort: z.enum(SORT_OPTIONS).default('custom_rank:desc'),
      defaultFilters: z
        .object({
          minPhotos: z.number().int().min(0).nullable().default(null),
          cities: z.array(z.string()).default([]),
          makes: z.array(z.string()).default([]),
        })
        .prefault({}),
      pageSize: z.number().int().min(1).max(100).default(24),
      /** Tag banner shows the electric/hybrid tag first. */
      fuelTypeTag: z.boolean().default(false),
    })
    .prefault({}),

  /** URL segment of car pages: /cars, /motorcycles or /campers. */
  vehiclePath: z.enum(VEHICLE_PATHS).default('cars'),
  /** Word used for used stock: 'used' or 'pre-owned'. */
  usedConditionLabel: z.enum(['used', 'pre-owned']).default('used'),

  /**
   * Vehicle-ad feeds of the listed cars (src/modules/feeds, decision 038): /feeds/meta-vehicles.csv
   * and /feeds/google-vehicles.xml. Each is on unless turned off; a feed that is off answers 404.
   */
  feeds: z
    .object({
      meta: z.object({ enabled: z.boolean().default(true) }).prefault({}),
      google: z
        .object({
          enabled: z.boolean().default(true),
          /** Business Profile store code per location slug; a location without one sends its slug. */
          storeCodes: z.record(z.string().max(100), z.string().min(1).max(64)).default({}),
        })
        .prefault({}),
    })
    .prefault({}),

  includeSoldCarsDays: z.number().int().min(0).max(365).default(3),
  specifications: z
    .object({
      justArrivedDays: z.number().int().min(0).default(8),
      justArrivedTagName: z.string().default('Just Arrived'),
      soldTagName: z.string().default('JUST SOLD'),
    })
    .prefault({}),

  usePagesPath: z.boolean().default(false),
  enableStore: z.boolean().default(false),
  pushLeadsToWebsitePrimaryLocation: z.boolean().default(false),
  offersSubscription: z.boolean().default(false),

  garage: z
    .object({
      enabled: z.boolean().default(false),
      /** /my-garage by default; some tenants use /mybigboxcars and the like. */
      path: sitePath.default('/my-garage'),
    })
    .prefault({}),
  phoneSignIn: z.object({ enabled: z.boolean().default(false) }).prefault({}),
  /** Phone codes by SMS (src/modules/identity/identity.codes.ts). */
  sms: z
    .object({
      /** The sender shown on the phone (an alphanumeric sender id: at most 11 letters and digits); null: TWILIO_FROM or the website's name. */
      senderName: z.string().regex(/^[A-Za-z0-9 ]{1,11}$/).nullable().default(null),
      /** The dealership a code's verification record names (SPEC §3 Verification record). */
      dealershipSlug: z.string().nullable().default(null),
    })
    .prefault({}),

  checkout: z
    .object({
      enabled: z.boolean().default(false),
      paymentProvider: z.enum(PAYMENT_PROVIDERS).nullable().default(null),
      /** Coming-soon cars may be reserved too. */
      allowComingSoon: z.boolean().default(false),
      /** Minutes a started reservation holds the car while the visitor pays (src/modules/checkout). */
      holdMinutes: z.number().int().min(5).max(60).default(15),
      /** The refund terms shown before payment and in the visitor's confirmation email; null: the platform's default text. */
      refundTerms: z.string().trim().min(1).max(4000).nullable().default(null),
    })
    .prefault({}),

  carPage: z
    .object({
      /** Show a masked number, revealed on click. */
      maskPhone: z.boolean().default(false),
      priceComparison: z.boolean().default(false),
      /** Trade-in valuation button rule (isTradeInEligible): these car types, unsold, within the age limit. */
      tradeIn: z
        .object({
          enabled: z.boolean().default(true),
          carTypes: z.array(z.enum(['new', 'used', 'demo'])).default(['new', 'used', 'demo']),
          /** Oldest model year offered, in years before this one; null means no limit. */
          maxAgeYears: z.number().int().min(0).max(100).nullable().default(null),
        })
        .prefault({}),
      imageQuality: z.union([z.literal(60), z.literal(75)]).default(75),
      /** Show the car's price changes (issue 35), when there are any and the price is shown. */
      priceHistory: z.boolean().default(true),
    })
    .prefault({}),

  /** Trade-in lookups and instant valuations (src/modules/vehicles, decision 027). */
  valuations: z
    .object({
      /** Show the visitor the instant range; some dealers prefer to call back with a figure. */
      showInstantRange: z.boolean().default(true),
      /** Trade-in = retail less this share (the dealer's margin for reconditioning and resale). */
      tradeInMarginPercent: z.number().min(0).max(60).default(15),
      /** Cars without provider market data take the estimate for the market price indicator. */
      estimateMarketIndicator: z.boolean().default(true),
    })
    .prefault({}),

  finance: z
    .object({
      showSideCard: z.boolean().default(true),
      getFinanceCta: z.boolean().default(false),
      /** Where 'finance pre-approval' links go on this template. */
      preApprovalPath: sitePath.default('/finance-pre-approval'),
      instantQuote: z.boolean().default(true),
      /** Annual rates (%) the instant quote gives per self-assessed credit history. */
      rates: z
        .object({ GREAT: financeRate.default(8.99), DECENT: financeRate.default(12.99), POOR: financeRate.default(17.99) })
        .prefault({}),
      /** Credit fees the comparison rate includes (NCCP Regulations reg 100). */
      establishmentFee: z.number().min(0).max(5000).default(400),
      monthlyFee: z.number().min(0).max(100).default(10),
      /** The rate of the 'from $X/week' estimates and the disclaimer's example. */
      calculatorInterest: financeRate.default(10),
      secured: z.boolean().default(true),
      /** 'from $X/week' beside prices (AU sites; NZ and US sites hide the estimate, see finance.display.ts). */
      showRepayments: z.boolean().default(true),
      /** Replaces the standard disclaimer text; the worked example and warning are always shown. */
      disclaimer: z.string().max(4000).nullable().default(null),
      /** Finance partner per dealership slug (default: the platform's own local partner). */
      partners: z
        .record(
          z.string().max(100),
          z.object({
            partner: z.enum(FINANCE_PARTNERS).default('local'),
            /** The dealer's code at the partner (YouX: the hosted application's path). */
            partnerCode: z.string().max(100).nullable().default(null),
            /** YouX: send the visitor to YouX's hosted application page instead of creating the customer here. */
            hostedApplication: z.boolean().default(false),
          }),
        )
        .default({}),
    })
    .prefault({}),

  leads: z
    .object({
      sourceOptions: z.array(z.string().min(1)).default(DEFAULT_LEAD_SOURCE_OPTIONS),
      enquirySubmitLabel: z.enum(['Enquire Now', 'Message Now']).default('Enquire Now'),
      messageRequired: z.boolean().default(true),
      /** AU sites: landline numbers are refused ('Must be an Australian mobile number.'). */
      mobileOnly: z.boolean().default(false),
      /** 'e164': phone numbers are checked and sent as +614… / +1… (SPEC §5 E.164 variants). */
      phoneFormat: z.enum(['local', 'e164']).default('local'),
      /** One number every phone field accepts, for testing the forms on a live site. */
      testPhoneNumber: z.string().max(20).nullable().default('0400 000 000'),
      /** Category, location and preferred-dealership selects are shown (and then required). */
      showCategorySelect: z.boolean().default(true),
      showLocationSelect: z.boolean().default(true),
      showDealershipSelect: z.boolean().default(false),
      /** Minimum seconds between a form being shown and submitted; faster submits score as spam. */
      minimumFillSeconds: z.number().int().min(0).max(60).default(3),
      /** Where a lead goes when its delivery fails for good (leads.alerts.ts); null: the dealership's email. */
      fallbackEmail: z.email().nullable().default(null),
      /** Deliver a lead left 'Incomplete' this many minutes, marked partial (leads.partial.ts); null: never. */
      deliverPartialAfterMinutes: z.number().int().min(5).max(7 * 24 * 60).nullable().default(null),
    })
    .prefault({}),

  widgets: z
    .object({
      chat: z
        .object({
          provider: z.enum(CHAT_PROVIDERS).nullable().default(null),
          /** Path prefixes where the text-chat widget is hidden, e.g. /cars, /careers. */
          hiddenPaths: z.array(sitePath).default([]),
          /** The popup opens by itself this long after load, unless the visitor closed it before; null: never. */
          popupAfterMs: z.number().int().min(0).max(60_000).nullable().default(3000),
        })
        .prefault({}),
      /** Impel chatbot (its key is the impelChatbotKey secret). */
      chatbot: z
        .object({
          enabled: z.boolean().default(false),
          hiddenPaths: z.array(sitePath).default([]),
        })
        .prefault({}),
      googleAnalyticsId: z.string().regex(/^G-[A-Z0-9]{4,20}$/).nullable().default(null),
      facebookPixelId: z.string().regex(/^\d{6,20}$/).nullable().default(null),
      /** Meta's automotive catalogue wants 'vehicle'; a plain product catalogue 'product'. */
      facebookContentType: z.enum(['vehicle', 'product']).default('vehicle'),
      gtmId: z.string().regex(/^GTM-[A-Z0-9]{4,12}$/).nullable().default(null),
      callTracking: z.boolean().default(false),
      /** The call-tracking account whose number-swap script runs on the site (CallRail company id). */
      callTrackingAccount: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).nullable().default(null),
      digitalToolsSidebar: z.boolean().default(false),
      /** Vehicle 360° spin viewer on car pages. */
      spinViewer: z.boolean().default(false),
      /** Path prefixes where every widget but analytics is hidden (e.g. a checkout flow). */
      hiddenPaths: z.array(sitePath).default([]),
      autobot: z.boolean().default(false),
      dealercell: z.boolean().default(false),
      /** Widgets load only in production mode unless this is set. */
      loadOutsideProduction: z.boolean().default(false),
      /**
       * GA4, GTM and the Meta pixel run in a web worker (Partytown, decision 043); false runs them on
       * the main thread, for a container whose tags need the page's DOM at full speed.
       */
      analyticsInWorker: z.boolean().default(true),
    })
    .prefault({}),

  /**
   * Cookie consent (decision 037): off by default (AU sites); where on, marketing pixels wait for
   * the visitor's yes and Google tags start with Consent Mode v2 'denied'.
   */
  consent: z
    .object({
      required: z.boolean().default(false),
      /** The privacy page the banner links to. */
      privacyPath: sitePath.default('/privacy-policy'),
    })
    .prefault({}),

  /**
   * Real-visitor web vitals (decision 058): the share of page views that measure and report them,
   * 0 to 1. All by default, so a small dealer's few hundred daily visits still give a p75.
   */
  webVitals: z
    .object({
      sampleRate: z.number().min(0).max(1).default(1),
    })
    .prefault({}),

  /** 'Special hours' shown site-wide (e.g. a Christmas notice). */
  specialHoursNotice: z.string().nullable().default(null),
  /**
   * Holiday hours kept in the configuration (SPEC §3 special_hours), in either entry shape:
   * { date, status, location_id, start_hour, end_hour } or { date, status, location: { id },
   * hours: { begin, end } }. Read by the locations module, which skips unusable entries.
   */
  specialHours: z.array(z.unknown()).default([]),

  /**
   * The reviews block (SPEC §2/§4 Google reviews, §9: 12 shown, minimum rating 4; decision 054).
   * 'local': the dealer's own list below, so the block works offline; 'google': the Google Places
   * API for each location's place_id (GOOGLE_PLACES_API_KEY), the list below where it fails.
   */
  reviews: z
    .object({
      provider: z.enum(['local', 'google']).default('local'),
      shown: z.number().int().min(1).max(50).default(12),
      minRating: z.number().int().min(1).max(5).default(4),
      items: z
        .array(
          z.object({
            author: z.string().trim().min(1).max(80),
            rating: z.number().int().min(1).max(5),
            text: z.string().trim().min(1).max(2000),
            /** The day it was written, YYYY-MM-DD. */
            date: z.iso.date(),
          }),
        )
        .max(200)
        .default([]),
    })
    .prefault({}),
});

export type WebsiteConfig = z.output<typeof websiteConfigSchema>;
export type WebsiteConfigInput = z.input<typeof websiteConfigSchema>;

/** Third-party credentials (SPEC §3: 'their values are not shown'). Server-only use. */
export const websiteSecretsSchema = z
  .object({
    podiumApiOrganization: z.string(),
    podiumApiToken: z.string(),
    zendeskKey: z.string(),
    livechatAgentGroup: z.string(),
    impelChatbotKey: z.string(),
    xtimeUrl: z.string(),
    googleMapsKey: z.string(),
  })
  .partial();
export type WebsiteSecrets = z.output<typeof websiteSecretsSchema>;

export function parseWebsiteConfig(input: unknown): WebsiteConfig {
  return websiteConfigSchema.parse(input ?? {});
}

/** The instant quote and hand-over: the partners (YouX, CarClarity) lend in Australia only. */
export function offersInstantFinance(config: WebsiteConfig): boolean {
  return config.finance.instantQuote && config.currency === 'AUD';
}
