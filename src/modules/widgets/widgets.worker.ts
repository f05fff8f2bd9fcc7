/**
 * GA4, GTM and the Meta pixel in a web worker through Partytown (decision 043), imported with the
 * widget runtime. Partytown's service worker and its main-thread snippet come from this origin
 * (src/app/api/partytown); the tags are `<script type="text/partytown">` placeholders that
 * Partytown runs in its worker, in document order, behind a small bootstrap of ours (dataLayer,
 * gtag, Consent Mode v2 defaults, Meta's queueing stub) that runs there first. The page's calls
 * (gtag, fbq) reach the worker through Partytown's forwarding.
 *
 * Guards: only this module's placeholders run (a foreign `text/partytown` script, e.g. markup that
 * escaped a sanitiser, is disarmed before Partytown sees it); inside the worker every URL is checked
 * against the website's tag hosts (resolveUrl), the ones without CORS headers go through this
 * website's proxy; Partytown's own fallback (running the placeholders on the main thread) is off,
 * so nothing runs without its bootstrap: when the service worker cannot start, the runtime loads the
 * tags on the main thread as before.
 */
import { consentSignals } from './widgets.consent';
import type { WidgetSpec, WorkerPlan } from './widgets.plan';
import { ANALYTICS_POLL_MS } from './widgets.timing';

const TYPE = 'text/partytown';
const SW_TIMEOUT_MS = 10_000;

/** The placeholders this module made; any other text/partytown script is disarmed. */
const ours = new WeakSet<Element>();
let started: Promise<boolean> | null = null;
let googleBase = false;

type PartytownWindow = Window & { partytown?: Record<string, unknown> };

/** A browser that can run Partytown's service-worker mode (no cross-origin isolation needed). */
export function workerAvailable(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext === true;
}

/**
 * Partytown's resolveUrl, run in the worker: Partytown sends its source text, so it uses nothing but
 * its arguments and `this`, the configuration below. Same-origin and the website's tag hosts pass,
 * scripts from a host without CORS headers go through the proxy, anything else is refused.
 */
export function resolveUrl(this: { widgetHosts: string[]; widgetProxyHosts: string[]; widgetProxy: string; lib: string }, url: URL, location: URL, type?: string): URL {
  const host = url.hostname;
  const listed = function (list: string[]) {
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      if (entry === host || (entry.indexOf('*.') === 0 && host.length > entry.length - 1 && host.slice(host.length - entry.length + 1) === entry.slice(1))) return true;
    }
    return false;
  };
  if (url.origin === location.origin) return url;
  if (url.protocol === 'https:' && type === 'script' && listed(this.widgetProxyHosts)) {
    const proxied = new URL(this.widgetProxy, location.origin);
    proxied.searchParams.set('url', url.href);
    return proxied;
  }
  if (url.protocol === 'https:' && listed(this.widgetHosts)) return url;
  return new URL(this.lib + 'refused', location.origin);
}

/** What runs in the worker before a tag: Google's dataLayer, gtag and consent defaults once, then the tag's own set-up. */
export function workerBootstrap(spec: Pick<WidgetSpec, 'id' | 'keys'>, consentGranted: boolean, withGoogleBase: boolean): string {
  const lines: string[] = [];
  if ((spec.id === 'ga4' || spec.id === 'gtm') && withGoogleBase) {
    lines.push(
      'window.dataLayer=window.dataLayer||[];',
      'window.gtag=function(){window.dataLayer.push(arguments);};',
      // Consent Mode v2 defaults before any Google tag runs.
      `gtag('consent','default',${JSON.stringify({ ...consentSignals(consentGranted), wait_for_update: 500 })});`,
      "gtag('js',new Date());",
    );
  }
  if (spec.id === 'ga4') lines.push(`gtag('config',${JSON.stringify(spec.keys!.id)},{send_page_view:false});`);
  if (spec.id === 'gtm') lines.push("window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});");
  if (spec.id === 'metaPixel') {
    lines.push(
      // Meta's queueing stub, as its snippet makes it: calls wait in fbq.queue until fbevents.js replays them.
      'if(!window.fbq){var n=window.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments);};window._fbq=n;n.push=n;n.loaded=true;n.version="2.0";n.queue=[];}',
      `fbq('init',${JSON.stringify(spec.keys!.id)});`,
    );
  }
  return lines.join('\n');
}

function placeholder(attributes: { src?: string; text?: string; widget: string }): HTMLScriptElement {
  const script = document.createElement('script');
  script.type = TYPE;
  script.dataset.widget = attributes.widget;
  if (attributes.src) script.src = attributes.src;
  else script.textContent = attributes.text ?? '';
  ours.add(script);
  document.head.appendChild(script);
  return script;
}

/** The tags waiting to run in the worker, by script address: how to fail them. */
const pending = new Map<string, (reason: string) => void>();

/**
 * What the observer does with every node added to the page: a text/partytown script not made here
 * is made inert before Partytown reads it; a plain script with a waiting tag's address is Partytown
 * giving up on the worker (its fetch failed) and falling back to the main thread, where the page's
 * CSP refuses the tag's host (and the proxy refuses a script element): that tag has failed.
 */
function watch(node: Node, plan: WorkerPlan): void {
  if (!(node instanceof Element)) return;
  const scripts = node.tagName === 'SCRIPT' ? [node] : [...node.querySelectorAll('script')];
  for (const script of scripts) {
    const type = script.getAttribute('type') ?? '';
    if (type === TYPE && !ours.has(script)) {
      script.setAttribute('type', 'text/plain');
      script.setAttribute('data-pterror', "not the platform's");
    } else if (!type.startsWith(TYPE) && script instanceof HTMLScriptElement && script.src) {
      const url = new URL(script.src, location.href);
      const original = url.origin === location.origin && url.pathname === plan.proxy ? url.searchParams.get('url') : url.href;
      if (original) pending.get(original)?.('its script could not be fetched in the worker');
    }
  }
}

/** Registers Partytown's service worker and waits until it is active; false when it cannot. */
async function serviceWorkerActive(plan: WorkerPlan): Promise<boolean> {
  try {
    const registration = await navigator.serviceWorker.register(`${plan.lib}partytown-sw.js`, { scope: plan.lib });
    if (registration.active) return true;
    const installing = registration.installing ?? registration.waiting;
    if (!installing) return false;
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), SW_TIMEOUT_MS);
      installing.addEventListener('statechange', () => {
        if (installing.state === 'activated') resolve(true);
        if (installing.state === 'redundant') resolve(false);
        if (installing.state === 'activated' || installing.state === 'redundant') clearTimeout(timer);
      });
    });
  } catch {
    return false;
  }
}

/**
 * Starts Partytown once per page: service worker, configuration, the snippet. Resolves false when
 * this browser cannot run it (the runtime then loads the tags on the main thread).
 */
export function startPartytown(plan: WorkerPlan, forward: string[]): Promise<boolean> {
  started ??= (async () => {
    // Before Partytown's own observer exists, so this one runs first on every change.
    watch(document.documentElement, plan);
    new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((node) => watch(node, plan)))).observe(document.documentElement, { childList: true, subtree: true });
    if (!(await serviceWorkerActive(plan))) return false;
    const w = window as PartytownWindow;
    w.partytown = {
      lib: plan.lib,
      forward,
      // Never Partytown's fallback: it would run the placeholders on the main thread without their bootstrap.
      fallbackTimeout: 0,
      resolveUrl,
      widgetHosts: plan.hosts,
      widgetProxyHosts: plan.proxyHosts,
      widgetProxy: plan.proxy,
    };
    return new Promise<boolean>((resolve) => {
      const script = document.createElement('script');
      script.src = `${plan.lib}partytown.js`;
      script.onload = () => resolve(true);
      script.onerror = () => resolve(false);
      document.head.appendChild(script);
    });
  })();
  return started;
}

/** Whether startPartytown has been asked for and what it answered (null while pending or never). */
export function partytownStarted(): Promise<boolean> | null {
  return started;
}

/**
 * Adds a tag's bootstrap and script as placeholders (Partytown runs them in order) and resolves once
 * Partytown has run the script; rejects when it reports an error, when its fetch failed (Partytown
 * then tries the main thread, which the page refuses), or after timeoutMs.
 */
export function addWorkerTag(spec: WidgetSpec, consentGranted: boolean, timeoutMs: number): Promise<void> {
  const withBase = (spec.id === 'ga4' || spec.id === 'gtm') && !googleBase;
  if (withBase) googleBase = true;
  const bootstrap = workerBootstrap(spec, consentGranted, withBase);
  if (bootstrap) placeholder({ text: bootstrap, widget: `${spec.id}-setup` });
  const script = placeholder({ src: spec.src, widget: spec.id });
  const address = new URL(spec.src).href;
  return new Promise<void>((resolve, reject) => {
    let failed: string | null = null;
    pending.set(address, (reason) => (failed = reason));
    const started = Date.now();
    const tick = () => {
      // Partytown marks a script it ran with type text/partytown-x, one that failed with data-pterror.
      if (script.dataset.pterror || failed) return reject(new Error(`${failed ?? 'script failed in the worker'}: ${spec.src.split('?')[0]}`));
      // A fetch that failed is reported a moment after Partytown marks the script run: wait one more poll.
      if (script.type === `${TYPE}-x` && Date.now() - started >= ANALYTICS_POLL_MS) return resolve();
      if (Date.now() - started >= timeoutMs) return reject(new Error(`timed out after ${timeoutMs} ms`));
      setTimeout(tick, ANALYTICS_POLL_MS);
    };
    tick();
  }).finally(() => pending.delete(address));
}
