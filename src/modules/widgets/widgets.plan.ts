import type { WebsiteConfig, WebsiteSecrets } from '@/modules/tenancy/tenancy.config';
import type { CspSources } from '@/lib/security-headers';
import type { PageType } from './widgets.events.catalogue';
import type { PageRoutes } from './widgets.paths';

export { isHiddenPath, pageTypeOf, type PageRoutes } from './widgets.paths';

/**
 * Which third-party widgets a website runs (decision 037), worked out on the server from its
 * configuration and secrets, and handed to the browser as a small plan: each widget's adapter id,
 * script address, keys and hidden paths. No secrets that are not public by design: a chat widget's
 * organisation id or key is in every visitor's page on any site that runs it.
 */

export type WidgetGroup = 'analytics' | 'marketing' | 'chat' | 'chatbot' | 'tool';
export type WidgetId = 'ga4' | 'gtm' | 'metaPixel' | 'callTracking' | 'podium' | 'zendesk' | 'livechat' | 'impel' | 'digitalTools' | 'spinViewer';

export type WidgetSpec = {
  id: WidgetId;
  group: WidgetGroup;
  src: string;
  /** Public ids the adapter hands the provider (measurement id, pixel id, licence…). */
  keys?: Record<string, string>;
  /** Path prefixes where it is not loaded (and hidden if it was). */
  hiddenPaths: string[];
  /** Only on these page types (the spin viewer: car pages). */
  pageTypes?: PageType[];
};

/**
 * GA4, GTM and the Meta pixel off the main thread (decision 043): Partytown's files from this
 * origin (lib), the hosts its worker may reach (the tags' CSP origins; anything else is refused in
 * the worker) and the script hosts that send no CORS headers, fetched through this website's proxy.
 */
export type WorkerPlan = { lib: string; proxy: string; hosts: string[]; proxyHosts: string[] };

export type WidgetPlan = {
  widgets: WidgetSpec[];
  /** Null: every widget on the main thread. */
  worker: WorkerPlan | null;
  consent: { required: boolean; privacyPath: string };
  chat: { popupAfterMs: number | null } | null;
  facebookContentType: 'vehicle' | 'product';
  currency: string;
  routes: PageRoutes;
  /** Share of page views that report their web vitals (decision 058). */
  vitalsSampleRate: number;
};

/** Providers' script addresses; the CSP allows exactly their origins (plus what each script fetches). */
export const WIDGET_SOURCES: Record<WidgetId, { script: (keys: Record<string, string>) => string; csp: CspSources; worker?: { proxy: boolean } }> = {
  ga4: {
    // googletagmanager.com answers with Access-Control-Allow-Origin: *, so the worker fetches it directly.
    worker: { proxy: false },
    script: (k) => `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(k.id)}`,
    csp: {
      script: ['https://www.googletagmanager.com'],
      connect: ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com'],
      img: ['https://www.google-analytics.com', 'https://www.googletagmanager.com'],
    },
  },
  gtm: {
    worker: { proxy: false },
    script: (k) => `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(k.id)}`,
    csp: {
      script: ['https://www.googletagmanager.com', 'https://tagmanager.google.com'],
      connect: ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com'],
      frame: ['https://www.googletagmanager.com'],
    },
  },
  metaPixel: {
    // connect.facebook.net sends no CORS headers: the worker fetches fbevents.js and its configuration through our proxy.
    worker: { proxy: true },
    script: () => 'https://connect.facebook.net/en_US/fbevents.js',
    csp: { script: ['https://connect.facebook.net'], connect: ['https://www.facebook.com', 'https://connect.facebook.net'], frame: ['https://www.facebook.com'] },
  },
  callTracking: {
    script: (k) => `https://cdn.callrail.com/companies/${encodeURIComponent(k.account)}/wc/swap.js`,
    csp: { script: ['https://cdn.callrail.com', 'https://js.callrail.com'], connect: ['https://*.callrail.com'] },
  },
  podium: {
    script: () => 'https://connect.podium.com/widget.js',
    csp: { script: ['https://connect.podium.com'], connect: ['https://*.podium.com', 'wss://*.podium.com'], frame: ['https://*.podium.com'] },
  },
  zendesk: {
    script: (k) => `https://static.zdassets.com/ekr/snippet.js?key=${encodeURIComponent(k.key)}`,
    csp: {
      script: ['https://static.zdassets.com'],
      connect: ['https://*.zendesk.com', 'wss://*.zendesk.com', 'https://*.zdassets.com'],
      frame: ['https://*.zendesk.com'],
      font: ['https://static.zdassets.com'],
    },
  },
  livechat: {
    script: () => 'https://cdn.livechatinc.com/tracking.js',
    csp: {
      script: ['https://cdn.livechatinc.com', 'https://cdn.livechat-files.com'],
      connect: ['https://*.livechatinc.com', 'wss://*.livechatinc.com'],
      frame: ['https://secure.livechatinc.com'],
    },
  },
  impel: {
    script: (k) => `https://cdn.impel.io/chat/loader.js?key=${encodeURIComponent(k.key)}`,
    csp: { script: ['https://cdn.impel.io'], connect: ['https://*.impel.io', 'wss://*.impel.io'], frame: ['https://*.impel.io'] },
  },
  digitalTools: {
    script: () => 'https://cdn.dealertools.com.au/sidebar/loader.js',
    csp: { script: ['https://cdn.dealertools.com.au'], connect: ['https://api.dealertools.com.au'], frame: ['https://app.dealertools.com.au'] },
  },
  spinViewer: {
    script: () => 'https://cdn.spincar.com/spincar-embed.js',
    csp: { script: ['https://cdn.spincar.com'], frame: ['https://spins.spincar.com'], connect: ['https://api.spincar.com'] },
  },
};

function spec(id: WidgetId, group: WidgetGroup, keys: Record<string, string>, hiddenPaths: string[], pageTypes?: PageType[]): WidgetSpec {
  return { id, group, src: WIDGET_SOURCES[id].script(keys), keys, hiddenPaths, ...(pageTypes ? { pageTypes } : {}) };
}

/** The widgets the website configured, in load order; empty outside production unless the website asks. */
export function widgetPlan(config: WebsiteConfig, secrets: WebsiteSecrets, options: { production: boolean }): WidgetPlan {
  const w = config.widgets;
  const widgets: WidgetSpec[] = [];
  const hidden = (extra: string[]) => [...new Set([...w.hiddenPaths, ...extra])];
  if (options.production || w.loadOutsideProduction) {
    if (w.googleAnalyticsId) widgets.push(spec('ga4', 'analytics', { id: w.googleAnalyticsId }, []));
    if (w.gtmId) widgets.push(spec('gtm', 'analytics', { id: w.gtmId }, []));
    if (w.facebookPixelId) widgets.push(spec('metaPixel', 'marketing', { id: w.facebookPixelId }, []));
    if (w.callTracking && w.callTrackingAccount) widgets.push(spec('callTracking', 'analytics', { account: w.callTrackingAccount }, []));
    const chat = w.chat.provider;
    if (chat === 'podium' && secrets.podiumApiOrganization) {
      widgets.push(spec('podium', 'chat', { organization: secrets.podiumApiOrganization, token: secrets.podiumApiToken ?? '' }, hidden(w.chat.hiddenPaths)));
    } else if (chat === 'zendesk' && secrets.zendeskKey) {
      widgets.push(spec('zendesk', 'chat', { key: secrets.zendeskKey }, hidden(w.chat.hiddenPaths)));
    } else if (chat === 'livechat' && secrets.livechatAgentGroup) {
      const [license, group = '0'] = secrets.livechatAgentGroup.split(':');
      widgets.push(spec('livechat', 'chat', { license, group }, hidden(w.chat.hiddenPaths)));
    }
    if (w.chatbot.enabled && secrets.impelChatbotKey) widgets.push(spec('impel', 'chatbot', { key: secrets.impelChatbotKey }, hidden(w.chatbot.hiddenPaths)));
    if (w.digitalToolsSidebar) widgets.push(spec('digitalTools', 'tool', {}, hidden([])));
    if (w.spinViewer) widgets.push(spec('spinViewer', 'tool', {}, hidden([]), ['car']));
  }
  const hasChat = widgets.some((x) => x.group === 'chat');
  return {
    widgets,
    worker: w.analyticsInWorker ? workerPlan(widgets) : null,
    consent: { required: config.consent.required, privacyPath: config.consent.privacyPath },
    chat: hasChat ? { popupAfterMs: w.chat.popupAfterMs } : null,
    facebookContentType: w.facebookContentType,
    currency: config.currency,
    routes: { vehiclePath: config.vehiclePath, garagePath: config.garage.path },
    vitalsSampleRate: config.webVitals.sampleRate,
  };
}

/**
 * Which chat actions a page may offer (issue 31): a chat or chatbot widget the plan loads (its
 * provider configured and its key set, in production or where the website asks). A widget's
 * hidden paths hide its ambient button only: the car page's explicit 'Chat with us' still opens it
 * there (decision 037). Without such a widget the action would lead nowhere.
 */
export function chatWidgets(plan: Pick<WidgetPlan, 'widgets'>): { chat: boolean; chatbot: boolean } {
  const has = (group: WidgetGroup) => plan.widgets.some((w) => w.group === group);
  return { chat: has('chat'), chatbot: has('chatbot') };
}

/** Where Partytown's files are served (src/app/api/partytown), and its proxy for scripts without CORS headers. */
export const PARTYTOWN_LIB = '/api/partytown/';
export const PARTYTOWN_PROXY = '/api/partytown/proxy';

/** Which of the plan's widgets run in the worker. */
export const inWorker = (spec: Pick<WidgetSpec, 'id'>) => WIDGET_SOURCES[spec.id].worker != null;

const hostOf = (origin: string) => origin.replace(/^[a-z]+:\/\//, '');

/** The worker part of a plan: the hosts its tags may reach, and which script hosts go through the proxy. Null without such a tag. */
function workerPlan(widgets: WidgetSpec[]): WorkerPlan | null {
  const tags = widgets.filter(inWorker);
  if (!tags.length) return null;
  const hosts = new Set<string>();
  const proxyHosts = new Set<string>();
  for (const tag of tags) {
    const source = WIDGET_SOURCES[tag.id];
    for (const list of Object.values(source.csp)) for (const origin of list ?? []) if (origin.startsWith('https://')) hosts.add(hostOf(origin));
    if (source.worker?.proxy) for (const origin of source.csp.script ?? []) proxyHosts.add(hostOf(origin));
  }
  return { lib: PARTYTOWN_LIB, proxy: PARTYTOWN_PROXY, hosts: [...hosts], proxyHosts: [...proxyHosts] };
}

/** The CSP origins the plan's widgets need (decision 028's policy takes them per request). */
export function widgetCspSources(plan: Pick<WidgetPlan, 'widgets'> & { worker?: WorkerPlan | null }): CspSources {
  const out: Required<CspSources> = { script: [], style: [], img: [], connect: [], frame: [], font: [], form: [], worker: [] };
  for (const widget of plan.widgets) {
    const csp = WIDGET_SOURCES[widget.id].csp;
    // A tag that runs in the worker is not a script of the page: its host stays out of script-src,
    // so neither the tag nor Partytown's own fallback (the tag on the main thread, without its
    // bootstrap and consent defaults) can run here. Its requests are made from the worker.
    const skip = plan.worker && inWorker(widget) ? ['script'] : [];
    for (const key of Object.keys(out) as (keyof CspSources)[]) if (!skip.includes(key)) for (const origin of csp[key] ?? []) if (!out[key].includes(origin)) out[key].push(origin);
  }
  // Partytown's service worker (its sandbox iframe is 'self' already in frame-src). The worker it
  // starts is a blob: made inside that sandbox, which has no policy of its own (decision 043).
  if (plan.worker) out.worker.push("'self'");
  for (const key of Object.keys(out) as (keyof CspSources)[]) if (!out[key].length) delete out[key];
  return out;
}


/** A service booking address fit for a link: https, at most 2,000 characters; else null. */
export function serviceBookingUrl(value: string | undefined | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' && url.href.length <= 2000 && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}
