/**
 * The widget adapters (decision 037), imported on demand by the widget host at the visitor's first
 * interaction or 3 s, never before: nothing here ships with a page. Each adapter prepares the
 * provider's globals, injects its script once (ScriptLoader), waits for it to be ready by polling
 * (100 ms for widgets, 300 ms for analytics) and knows how to open, hide and show itself. A script
 * that fails leaves its loader in 'error', logged through /api/events' error_message; the page
 * never notices.
 */
import { CLIENT_EVENTS } from './widgets.events.catalogue';
import { trackEvent } from './components/analytics-client';
import { consentSignals, gtag, marketingAllowed, storedConsent } from './widgets.consent';
import { isHiddenPath, pageTypeOf } from './widgets.paths';
import { inWorker, type WidgetPlan, type WidgetSpec } from './widgets.plan';
import { TIMED_GROUPS } from './widgets.trigger';
import { addWorkerTag, startPartytown, workerAvailable } from './widgets.worker';
import {
  ANALYTICS_POLL_MS,
  FACEBOOK_EVENT_DELAY_MS,
  WIDGET_POLL_MS,
  ScriptLoader,
  injectScript,
  openWhenReady,
  pollFor,
  type LoaderState,
} from './widgets.timing';

const READY_TIMEOUT_MS = 15_000;

type Win = Window &
  Record<string, unknown> & {
    fbq?: ((...args: unknown[]) => void) & { callMethod?: unknown; queue?: unknown[]; loaded?: boolean; version?: string; push?: unknown };
    zE?: (...args: unknown[]) => unknown;
    PodiumEventsCallback?: (event: string, properties?: unknown) => void;
    LiveChatWidget?: { call: (...args: unknown[]) => void; on: (event: string, cb: (data: unknown) => void) => void };
    ImpelChat?: { open?: () => void; hide?: () => void; show?: () => void };
    siteEvents?: { push: (...items: unknown[]) => number } & unknown[];
  };
const win = () => window as unknown as Win;

/** SPEC §8: a chat widget whose iframe or button is missing is a warning, not an error. */
export function warn(message: string): void {
  console.warn(message);
}

/** A chat message as a provider reports it: who wrote it and when (ms since the epoch). */
export type ChatMessage = { author: 'customer' | 'agent'; at: number };

type Adapter = {
  prepare?: (spec: WidgetSpec, plan: WidgetPlan) => void;
  attributes?: (spec: WidgetSpec) => Record<string, string>;
  ready: (spec: WidgetSpec) => Promise<unknown>;
  open?: (spec: WidgetSpec) => boolean;
  hide?: (hidden: boolean) => void;
  /** Once ready: hands every chat message the provider reports to onMessage (SPEC §7's 55 and 57). */
  listen?: (onMessage: (message: ChatMessage) => void) => void;
};

const poll = (check: () => unknown, interval: number) => () => pollFor(check, interval, READY_TIMEOUT_MS);

/** Podium's launcher: a button inside its bubble iframe (same-origin). Warns (SPEC §8) unless quiet. */
function podiumButton(quiet = false): HTMLElement | null {
  const frame = document.querySelector<HTMLIFrameElement>('iframe#podium-bubble');
  if (!frame) {
    if (!quiet) warn('Chat: Podium iframe not found');
    return null;
  }
  let button: HTMLElement | null = null;
  try {
    button = frame.contentDocument?.querySelector<HTMLElement>('button, [role="button"]') ?? null;
  } catch {
    button = null;
  }
  if (!button && !quiet) warn('Chat: Podium button not found');
  return button;
}

export const ADAPTERS: Record<WidgetSpec['id'], Adapter> = {
  ga4: {
    prepare: (spec) => {
      gtag('js', new Date());
      // Page views are sent from the platform's own events (one per page, client navigations included).
      gtag('config', spec.keys!.id, { send_page_view: false });
    },
    ready: () => pollFor(() => win().google_tag_manager, ANALYTICS_POLL_MS, READY_TIMEOUT_MS),
  },
  gtm: {
    prepare: () => {
      const w = win();
      w.dataLayer = (w.dataLayer as unknown[] | undefined) ?? [];
      (w.dataLayer as unknown[]).push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    },
    ready: () => pollFor(() => win().google_tag_manager, ANALYTICS_POLL_MS, READY_TIMEOUT_MS),
  },
  metaPixel: {
    prepare: (spec) => {
      const w = win();
      if (!w.fbq) {
        // Meta's own queueing stub: calls made before fbevents.js arrives are replayed by it.
        const fbq = function (...args: unknown[]) {
          if (fbq.callMethod) (fbq.callMethod as (...a: unknown[]) => void)(...args);
          else fbq.queue.push(args);
        } as NonNullable<Win['fbq']> & { queue: unknown[] };
        fbq.push = fbq;
        fbq.loaded = true;
        fbq.version = '2.0';
        fbq.queue = [];
        w.fbq = fbq;
        w._fbq = fbq;
      }
      w.fbq!('init', spec.keys!.id);
    },
    ready: () => pollFor(() => win().fbq?.callMethod, ANALYTICS_POLL_MS, READY_TIMEOUT_MS),
  },
  callTracking: { ready: () => Promise.resolve() },
  podium: {
    attributes: (spec) => ({ id: 'podium-widget', 'data-organization-api-token': spec.keys!.token ?? '', 'data-organization-id': spec.keys!.organization }),
    ready: poll(() => podiumButton(true), WIDGET_POLL_MS),
    open: () => {
      const button = podiumButton();
      button?.click();
      return button != null;
    },
    hide: (hidden) => {
      for (const el of document.querySelectorAll<HTMLElement>('#podium-bubble, #podium-modal, [id^="podium-"]:not(script)')) el.style.display = hidden ? 'none' : '';
    },
    // Podium calls window.PodiumEventsCallback(event, properties); a dealer's own callback still runs.
    listen: (onMessage) => {
      const w = win();
      const before = w.PodiumEventsCallback;
      w.PodiumEventsCallback = (event, properties) => {
        if (typeof before === 'function') before(event, properties);
        const message = podiumMessage(event, Date.now());
        if (message) onMessage(message);
      };
    },
  },
  zendesk: {
    attributes: () => ({ id: 'ze-snippet' }),
    ready: poll(() => win().zE, WIDGET_POLL_MS),
    open: () => {
      if (!win().zE) return warn('Chat: Zendesk button not found'), false;
      win().zE!('messenger', 'open');
      return true;
    },
    hide: (hidden) => win().zE?.('messenger', hidden ? 'hide' : 'show'),
    // Messaging's delegate sees every message before it is shown (history included); it must hand it back.
    listen: (onMessage) => {
      win().zE?.('messenger:set', 'beforeMessageDisplay', (message: unknown) => {
        const read = zendeskMessage(message);
        if (read) onMessage(read);
        return message;
      });
    },
  },
  livechat: {
    prepare: (spec) => {
      win().__lc = { license: Number(spec.keys!.license), group: Number(spec.keys!.group), integration_name: 'manual_onboarding' };
    },
    ready: poll(() => win().LiveChatWidget, WIDGET_POLL_MS),
    open: () => {
      if (!win().LiveChatWidget) return warn('Chat: LiveChat button not found'), false;
      win().LiveChatWidget!.call('maximize');
      return true;
    },
    hide: (hidden) => win().LiveChatWidget?.call(hidden ? 'hide' : 'minimize'),
    listen: (onMessage) => {
      win().LiveChatWidget?.on('new_event', (data) => {
        const read = liveChatMessage(data);
        if (read) onMessage(read);
      });
    },
  },
  impel: {
    ready: poll(() => win().ImpelChat, WIDGET_POLL_MS),
    open: () => {
      const open = win().ImpelChat?.open;
      if (!open) return warn('Chatbot: Impel button not found'), false;
      open();
      return true;
    },
    hide: (hidden) => (hidden ? win().ImpelChat?.hide?.() : win().ImpelChat?.show?.()),
  },
  digitalTools: { ready: () => Promise.resolve() },
  spinViewer: { ready: () => Promise.resolve() },
};

/** Which chat event (SPEC §7) a message is: 55 first, 57 later; null for staff messages or ones older than 10 s. */
export function chatMessageEvent(message: ChatMessage, now: number, sentBefore: boolean): 55 | 57 | null {
  if (message.author !== 'customer' || !(now - message.at <= 10_000)) return null;
  return sentBefore ? CLIENT_EVENTS.chatLaterMessage : CLIENT_EVENTS.chatFirstMessage;
}

/**
 * One page's chat messages as events: the customer's first 55, every later one 57, through send
 * (trackEvent); staff messages and old ones (a conversation's history shown again) are not counted.
 */
export function chatMessageCounter(widget: string, send: (category: number, properties: Record<string, unknown>) => void, now: () => number = Date.now) {
  let sent = false;
  return (message: ChatMessage) => {
    const category = chatMessageEvent(message, now(), sent);
    if (category == null) return;
    sent = true;
    send(category, { widget });
  };
}

/** A time as milliseconds: epoch numbers in seconds or milliseconds, or an ISO date; NaN otherwise. */
function epochMs(value: unknown): number {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  return typeof value === 'string' ? Date.parse(value) : NaN;
}

/** LiveChat's new_event: author.type 'customer' or 'agent', timestamp. */
export function liveChatMessage(data: unknown): ChatMessage | null {
  const event = data as { author?: { type?: string }; timestamp?: unknown } | null;
  if (!event?.author) return null;
  return { author: event.author.type === 'customer' ? 'customer' : 'agent', at: epochMs(event.timestamp) };
}

/** Zendesk messaging's message (Sunshine Conversations' shape): author.type 'user' is the visitor, received its time. */
export function zendeskMessage(data: unknown): ChatMessage | null {
  const message = data as { author?: { type?: string }; received?: unknown } | null;
  if (!message?.author) return null;
  return { author: message.author.type === 'user' ? 'customer' : 'agent', at: epochMs(message.received) };
}

/** Podium's 'Conversation Started' is the visitor sending a message from the webchat, as it happens. */
export function podiumMessage(event: string, now: number): ChatMessage | null {
  return event === 'Conversation Started' ? { author: 'customer', at: now } : null;
}

/** The vehicle on this page (car pages write it as #vehicle-content-event). */
function vehicleEvent(contentType: string): Record<string, unknown> | null {
  try {
    const data = JSON.parse(document.getElementById('vehicle-content-event')?.textContent ?? 'null') as Record<string, unknown> | null;
    return data ? { ...data, content_type: contentType } : null;
  } catch {
    return null;
  }
}

/** Sends a first-party event to GA4 and the Meta pixel too, where they run (Facebook 250 ms later, SPEC §9). */
export function mirrorEvent(plan: WidgetPlan, category: number, properties: Record<string, unknown> | undefined, allowed: { google: boolean; meta: boolean }): void {
  // Looked up at each call, never kept: Partytown replaces window.fbq with its forwarder when its
  // worker starts, and a call to the stub it replaced (a ViewContent 250 ms later) is never sent.
  const fbq = allowed.meta && win().fbq ? (...args: unknown[]) => win().fbq?.(...args) : undefined;
  const later = (run: () => void) => setTimeout(run, FACEBOOK_EVENT_DELAY_MS);
  const google = allowed.google ? gtag : () => {};
  if (category >= 1 && category <= 13) {
    google('event', 'page_view', { page_location: location.href, page_title: document.title });
    if (!fbq) return;
    fbq('track', 'PageView');
    const type = pageTypeOf(location.pathname, plan.routes);
    if (type === 'car') {
      const vehicle = vehicleEvent(plan.facebookContentType);
      if (vehicle) later(() => fbq('track', 'ViewContent', vehicle));
    } else if (type === 'search') {
      const params = new URLSearchParams(location.search);
      const search = params.get('q') ?? params.get('keyword') ?? decodeURIComponent(location.pathname.split('/').slice(2).join(' '));
      later(() => fbq('track', 'Search', { search_string: search.slice(0, 200) }));
    }
    return;
  }
  const carId = properties?.car_id != null ? String(properties.car_id) : null;
  if (category === CLIENT_EVENTS.favouriteSaved) {
    google('event', 'add_to_wishlist', carId ? { items: [{ item_id: carId }] } : {});
    if (fbq) later(() => fbq('track', 'AddToWishlist', { content_type: plan.facebookContentType, ...(carId ? { content_ids: [carId] } : {}), currency: plan.currency }));
  } else if (category === CLIENT_EVENTS.clickToCall) {
    google('event', 'click_to_call');
    if (fbq) later(() => fbq('track', 'Contact'));
  } else if (category === CLIENT_EVENTS.directions) {
    google('event', 'get_directions');
    if (fbq) later(() => fbq('track', 'FindLocation'));
  } else if (category === CLIENT_EVENTS.chatOpened) {
    google('event', 'chat_opened');
  } else {
    google('event', `site_event_${category}`, properties ?? {});
  }
}

/** The calls the page makes into the tags that run in the worker (Partytown forwards them). */
const WORKER_FORWARD: Partial<Record<WidgetSpec['id'], string>> = { ga4: 'gtag', gtm: 'gtag', metaPixel: 'fbq' };

export type WidgetRuntime = {
  states: () => Record<string, LoaderState>;
  /** Loads what this path shows and hides what it does not. */
  showPath: (pathname: string) => void;
  /** The visitor's first real interaction (scroll, click, touch, key): chat, chatbot and tools may load now. */
  interacted: () => void;
  /** The text button and the car page's actions: opens chat or the chatbot (SPEC §4). */
  open: (group: 'chat' | 'chatbot', onLoading?: () => void) => Promise<boolean>;
  /** The visitor's answer to the banner. */
  consent: (granted: boolean) => void;
};

/** Starts the widgets of the plan for the current page; called once per page load. */
export function startWidgets(plan: WidgetPlan, onState?: (id: string, state: LoaderState) => void): WidgetRuntime {
  let allowed = { google: true, meta: marketingAllowed(plan.consent.required, storedConsent()) };
  const hasGoogle = plan.widgets.some((w) => w.id === 'ga4' || w.id === 'gtm');
  // GA4, GTM and Meta in the worker where the website runs them there (decision 043). Their hosts
  // are then not in the page's script-src: a browser without service workers (Firefox's private
  // windows) runs none of them, rather than running them without their consent defaults.
  const worker = plan.worker;
  const canRunWorker = worker != null && workerAvailable();
  const forward = [...new Set(plan.widgets.map((w) => WORKER_FORWARD[w.id]).filter((name): name is string => name != null))];
  const partytown = worker && canRunWorker && plan.widgets.some(inWorker) ? startPartytown(worker, forward) : Promise.resolve(false);
  // Consent Mode v2 defaults go into dataLayer before any Google tag is requested: here on the main
  // thread, in the worker's bootstrap for the worker (widgets.worker.ts).
  if (hasGoogle && !worker) gtag('consent', 'default', { ...consentSignals(allowed.meta), wait_for_update: 500 });
  // Calls into the tags in the worker wait until Partytown's forwarding is there; without Partytown
  // they are dropped (a gtag() here would make a main-thread dataLayer no tag reads).
  const toTags = (call: () => void) => (worker ? void partytown.then((started) => started && call()) : call());

  const loaders = new Map<WidgetSpec, ScriptLoader>();
  const workerRuns = new Map<WidgetSpec, Promise<void>>();
  const loaderOf = (spec: WidgetSpec) => {
    let loader = loaders.get(spec);
    if (!loader) {
      const adapter = ADAPTERS[spec.id];
      loader = new ScriptLoader(
        async () => {
          if (worker && inWorker(spec)) {
            // The placeholders go in at once (Partytown runs what is there when it starts, in order).
            const run = addWorkerTag(spec, allowed.meta, READY_TIMEOUT_MS);
            workerRuns.set(spec, run);
            run.catch(() => {}); // read by the loader's ready check below; never an unhandled rejection
            if (!(await partytown)) throw new Error('Partytown did not start (its service worker could not be registered)');
            return;
          }
          adapter.prepare?.(spec, plan);
          await injectScript(spec.src, adapter.attributes?.(spec));
        },
        () => workerRuns.get(spec) ?? adapter.ready(spec),
        (state, error) => {
          onState?.(spec.id, state);
          if (state === 'error') trackEvent(60, { name: 'widget_error', widget: spec.id }, { error_message: `${spec.id}: ${error}`.slice(0, 500) });
          if (state === 'ready') adapter.listen?.(chatMessageCounter(spec.id, trackEvent));
        },
      );
      loaders.set(spec, loader);
    }
    return loader;
  };

  let interacted = false;
  const eligible = (spec: WidgetSpec) =>
    (spec.group !== 'marketing' || allowed.meta) && (interacted || TIMED_GROUPS.includes(spec.group)) && (!worker || !inWorker(spec) || canRunWorker);
  let current = location.pathname;
  const showPath = (pathname: string) => {
    current = pathname;
    const type = pageTypeOf(pathname, plan.routes);
    for (const spec of plan.widgets) {
      const hidden = isHiddenPath(pathname, spec.hiddenPaths) || (spec.pageTypes != null && !spec.pageTypes.includes(type));
      const loader = loaders.get(spec);
      if (!hidden && eligible(spec)) void loaderOf(spec).load();
      if (loader?.state === 'ready') ADAPTERS[spec.id].hide?.(hidden);
    }
  };

  const open = async (group: 'chat' | 'chatbot', onLoading?: () => void) => {
    const spec = plan.widgets.find((w) => w.group === group);
    if (!spec) return false;
    const adapter = ADAPTERS[spec.id];
    const opened = await openWhenReady(loaderOf(spec), () => {
      adapter.hide?.(false);
      return adapter.open?.(spec) ?? false;
    }, onLoading);
    if (opened) trackEvent(CLIENT_EVENTS.chatOpened, { widget: spec.id });
    return opened;
  };

  // The tags first (their queueing stubs take calls at once), then the events the page sent before
  // the runtime arrived, then every later one (analytics-client pushes them).
  showPath(current);
  const w = win();
  const queued = Array.isArray(w.siteEvents) ? [...w.siteEvents] : [];
  const mirror = (item: unknown) => {
    const [category, properties] = item as [number, Record<string, unknown> | undefined];
    const meta = allowed;
    toTags(() => {
      try {
        mirrorEvent(plan, category, properties, meta);
      } catch {
        // SPEC §8: an analytics failure is logged only.
      }
    });
  };
  w.siteEvents = Object.assign([], { push: (...items: unknown[]) => (items.forEach(mirror), 0) });
  queued.forEach(mirror);

  return {
    states: () => Object.fromEntries([...loaders].map(([spec, loader]) => [spec.id, loader.state])),
    showPath,
    interacted: () => {
      if (interacted) return;
      interacted = true;
      showPath(current);
    },
    open,
    consent: (granted) => {
      allowed = { google: true, meta: marketingAllowed(plan.consent.required, granted ? 'granted' : 'denied') };
      if (hasGoogle) toTags(() => gtag('consent', 'update', consentSignals(granted)));
      if (granted) showPath(current);
    },
  };
}
