import 'server-only';
import path from 'node:path';
import { z } from 'zod';
import type { PageCacheOptions } from './page-cache';

const booleanFlag = z
  .enum(['1', '0', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true')
  .optional();

const envSchema = z.object({
  DATABASE_URL: z.url().optional(),
  /** Where the embedded database and local media live when DATABASE_URL is unset. */
  DATA_DIR: z.string().default('.data'),
  MEDIA_DIR: z.string().optional(),
  /** Demo mode shows the directory of demo sites on plain localhost. Default: on with the embedded database. */
  DEMO_MODE: booleanFlag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Memory for whole rendered pages (src/lib/page-cache.ts); 0 turns the page cache off. */
  PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Longest a cached page is served, for what changes with time alone (the sold-car window). */
  PAGE_CACHE_MAX_AGE_S: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Google Geocoding API key; without it postcodes are found in the offline table. */
  GOOGLE_GEOCODING_API_KEY: z.string().optional(),
  /** Lead email transport, e.g. smtp://user:pass@mail.example.com:587. Unset: emails stay in the outbox table (/dev/outbox). */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  LEAD_EMAIL_FROM: z.string().default('Website leads <leads@localhost>'),
  /** Run the lead delivery worker in this process (default on). */
  LEAD_WORKER: booleanFlag,
  /** Lead submissions allowed per IP address per hour and per phone number per day. */
  LEAD_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  LEAD_LIMIT_PER_PHONE: z.coerce.number().int().min(1).default(10),
  /** Lead webhooks may go to loopback and private addresses (tests, a receiver on this machine's network); default: public addresses only. */
  LEAD_WEBHOOK_ALLOW_PRIVATE: booleanFlag,
  /** Registration lookups (an Australian NEVDIS reseller); unset: VINs are decoded offline, registrations need the details typed. */
  NEVDIS_API_URL: z.url().optional(),
  NEVDIS_API_KEY: z.string().optional(),
  /** Valuations (Autograb); unset: estimates from the platform's own comparable listings. */
  AUTOGRAB_API_URL: z.url().optional(),
  AUTOGRAB_API_KEY: z.string().optional(),
  /** Finance partners (issue 15); unset: the platform's own calculator and applications. */
  YOUX_BASE_URL: z.url().optional(),
  YOUX_API_KEY: z.string().optional(),
  CARCLARITY_BASE_URL: z.url().optional(),
  CARCLARITY_API_KEY: z.string().optional(),
  /** SMS through Twilio's Messages API (phone codes); unset: messages stay in the outbox (/dev/outbox in demo mode). */
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional(),
  /** Proxies in front of the app whose X-Forwarded-For entry is believed (src/lib/client-address.ts); 0: the socket's address. */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
});

export type Env = {
  databaseUrl: string | undefined;
  dataDir: string;
  mediaDir: string;
  demoMode: boolean;
  /** DEMO_MODE=1 said so: the demo pages (the outbox) are shown to any client, not only this machine's. */
  demoModeForEveryone: boolean;
  logLevel: z.output<typeof envSchema>['LOG_LEVEL'];
  production: boolean;
  pageCache: PageCacheOptions;
  googleGeocodingApiKey: string | undefined;
  smtpUrl: string | undefined;
  leadEmailFrom: string;
  leadWorker: boolean;
  leadLimitPerIp: number;
  leadLimitPerPhone: number;
  leadWebhookAllowPrivate: boolean;
  trustedProxyHops: number;
  nevdis: { url: string; key: string } | null;
  twilio: { accountSid: string; authToken: string; from: string | null; messagingServiceSid: string | null } | null;
  autograb: { url: string; key: string } | null;
  youx: { url: string; key: string } | null;
  carclarity: { url: string; key: string } | null;
};

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  // An empty variable (DATABASE_URL= in an env file) means unset, not a malformed value.
  const set = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  cached = {
    databaseUrl: e.DATABASE_URL,
    dataDir,
    mediaDir: path.resolve(e.MEDIA_DIR ?? path.join(dataDir, 'media')),
    demoMode: e.DEMO_MODE ?? !e.DATABASE_URL,
    demoModeForEveryone: e.DEMO_MODE === true,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    pageCache: {
      maxBytes: Math.round(e.PAGE_CACHE_MB * 1024 * 1024),
      maxEntryBytes: 2 * 1024 * 1024,
      maxAgeMs: e.PAGE_CACHE_MAX_AGE_S * 1000,
      // Decision 055: while the database is unavailable, pages up to a day past their age are served as they are.
      staleIfErrorMs: 24 * 60 * 60 * 1000,
    },
    googleGeocodingApiKey: e.GOOGLE_GEOCODING_API_KEY,
    smtpUrl: e.SMTP_URL,
    leadEmailFrom: e.LEAD_EMAIL_FROM,
    leadWorker: e.LEAD_WORKER ?? true,
    leadLimitPerIp: e.LEAD_LIMIT_PER_IP,
    leadLimitPerPhone: e.LEAD_LIMIT_PER_PHONE,
    leadWebhookAllowPrivate: e.LEAD_WEBHOOK_ALLOW_PRIVATE ?? false,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    twilio:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && (e.TWILIO_FROM || e.TWILIO_MESSAGING_SERVICE_SID)
        ? { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN, from: e.TWILIO_FROM ?? null, messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID ?? null }
        : null,
    nevdis: e.NEVDIS_API_URL && e.NEVDIS_API_KEY ? { url: e.NEVDIS_API_URL, key: e.NEVDIS_API_KEY } : null,
    autograb: e.AUTOGRAB_API_URL && e.AUTOGRAB_API_KEY ? { url: e.AUTOGRAB_API_URL, key: e.AUTOGRAB_API_KEY } : null,
    youx: e.YOUX_BASE_URL && e.YOUX_API_KEY ? { url: e.YOUX_BASE_URL.replace(/\/+$/, ''), key: e.YOUX_API_KEY } : null,
    carclarity: e.CARCLARITY_BASE_URL && e.CARCLARITY_API_KEY ? { url: e.CARCLARITY_BASE_URL.replace(/\/+$/, ''), key: e.CARCLARITY_API_KEY } : null,
  };
  return cached;
}
