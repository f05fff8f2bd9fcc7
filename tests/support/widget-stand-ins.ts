/**
 * Local stand-ins for the widget providers' scripts (decision 037), shared by the e2e suite (routed
 * in the browser) and `npm run bench:pages -- --widgets` (served over HTTPS with the providers'
 * hosts mapped to it). Each is valid JavaScript of about the provider's real compressed size that
 * parses, compiles and runs initialisation work in proportion to its size, and then does what the
 * runtime waits for (widgets.runtime.ts: google_tag_manager, fbq.callMethod, Podium's launcher in
 * its iframe, zE, LiveChatWidget, ImpelChat) plus what the real one visibly does (a chat bubble,
 * the sidebar's tab, phone numbers swapped, an analytics hit).
 *
 * Test hooks, read by tests/e2e/widgets.spec.ts: Meta's /tr requests (every pixel event; window.__fbCalls
 * has them too where the pixel runs on the main thread),
 * window.__podiumOpened (launcher clicks), window.__standIn.chat(author, text, ageMs) (the provider
 * reporting a chat message the way its documented API does) and window.__standIn.listening (the
 * page subscribed to Zendesk's or LiveChat's messages).
 */
import zlib from 'node:zlib';
import { hashString, mulberry32 } from '@/demo/random';
import { WIDGET_SOURCES, type WidgetId } from '../../src/modules/widgets/widgets.plan';

/** Which request is which widget's script (the script addresses of WIDGET_SOURCES). */
export const WIDGET_SCRIPT_PATTERNS: Record<WidgetId, RegExp> = {
  ga4: /^https:\/\/www\.googletagmanager\.com\/gtag\/js/,
  gtm: /^https:\/\/www\.googletagmanager\.com\/gtm\.js/,
  metaPixel: /^https:\/\/connect\.facebook\.net\//,
  callTracking: /^https:\/\/cdn\.callrail\.com\//,
  podium: /^https:\/\/connect\.podium\.com\//,
  zendesk: /^https:\/\/static\.zdassets\.com\//,
  livechat: /^https:\/\/cdn\.livechatinc\.com\//,
  impel: /^https:\/\/cdn\.impel\.io\//,
  digitalTools: /^https:\/\/cdn\.dealertools\.com\.au\//,
  spinViewer: /^https:\/\/cdn\.spincar\.com\//,
};

/** Where the GA4 stand-in sends its hit, as gtag.js does (allowed by the GA4 CSP's connect-src). */
export const ANALYTICS_HIT_HOST = 'www.google-analytics.com';
/** Where the Meta stand-in sends each event, as fbevents.js does (allowed by the pixel's CSP). */
export const PIXEL_HIT_HOST = 'www.facebook.com';

/** Every host a stand-in is asked for: the providers' script hosts and the analytics hit's. */
export function standInHosts(): string[] {
  const keys = { id: 'G-X', account: 'x', key: 'x' };
  const hosts = Object.values(WIDGET_SOURCES).map((source) => new URL(source.script(keys)).hostname);
  return [...new Set([...hosts, ANALYTICS_HIT_HOST, PIXEL_HIT_HOST])];
}

/**
 * Target compressed (gzip) size of each stand-in, in KB, from what the real scripts weigh on a
 * dealer site (transfer sizes as browsers' network panels show them, rounded):
 */
export const STAND_IN_KB: Record<WidgetId, { kb: number; real: string }> = {
  ga4: { kb: 130, real: 'gtag.js with a GA4 measurement id: 120–150 KB' },
  gtm: { kb: 100, real: 'gtm.js of a dealer container with a dozen tags: 80–120 KB' },
  metaPixel: { kb: 90, real: 'fbevents.js (~60 KB) and the pixel configuration it loads (~30 KB)' },
  callTracking: { kb: 25, real: 'CallRail swap.js: 20–30 KB' },
  podium: { kb: 150, real: "Podium's widget.js and the bubble application it runs: ~150 KB" },
  zendesk: { kb: 200, real: 'Zendesk snippet.js and the messaging application: ~200 KB' },
  livechat: { kb: 150, real: 'LiveChat tracking.js and its widget: ~150 KB' },
  impel: { kb: 100, real: 'Impel chat loader and application: ~100 KB' },
  digitalTools: { kb: 60, real: 'a dealer-tools sidebar loader: 50–70 KB' },
  spinViewer: { kb: 40, real: 'SpinCar embed script: 30–50 KB' },
};

/** What each stand-in does once its bulk has run: what the runtime polls for and what the real one shows. */
const BEHAVIOUR: Record<WidgetId, string> = {
  ga4: `
    window.google_tag_manager = window.google_tag_manager || {};
    var dl = window.dataLayer = window.dataLayer || [];
    var id = (document.currentScript && /id=([^&]+)/.exec(document.currentScript.src) || [])[1] || 'G-X';
    window.google_tag_manager[id] = { dataLayer: { name: 'dataLayer' } };
    // Each gtag('event', …) in dataLayer, those queued before it and every later one, is a hit, as gtag.js sends them.
    var hit = function (entry) {
      if (!entry || typeof entry !== 'object' || entry[0] !== 'event') return;
      try { navigator.sendBeacon('https://${ANALYTICS_HIT_HOST}/g/collect?v=2&tid=' + id + '&en=' + encodeURIComponent(entry[1]) + '&_p=' + work.checksum, ''); } catch (e) {}
    };
    for (var q = 0; q < dl.length; q++) hit(dl[q]);
    var push = dl.push;
    dl.push = function () { for (var a = 0; a < arguments.length; a++) hit(arguments[a]); return push.apply(dl, arguments); };`,
  gtm: `
    window.google_tag_manager = window.google_tag_manager || {};
    var dl = window.dataLayer = window.dataLayer || [];
    window.google_tag_manager.dataLayer = { gtmDom: true, gtmLoad: true };
    // gtm.js reads the page's cookies and title for its built-in variables; from Partytown's worker
    // each read is a synchronous call to the page (through the service worker).
    window.google_tag_manager.page = { cookies: document.cookie.length, title: document.title };
    dl.push({ event: 'gtm.dom' });
    dl.push({ event: 'gtm.load' });`,
  metaPixel: `
    window.__fbCalls = [];
    var fbq = window.fbq, pixel = '';
    if (fbq) {
      // Every event goes to Meta's /tr endpoint, as fbevents.js sends it (ev and the custom data).
      fbq.callMethod = function () {
        var args = Array.prototype.slice.call(arguments);
        window.__fbCalls.push(args);
        if (args[0] === 'init') pixel = String(args[1]);
        if (args[0] === 'track') try { navigator.sendBeacon('https://www.facebook.com/tr/?id=' + pixel + '&ev=' + encodeURIComponent(args[1]) + '&cd=' + encodeURIComponent(JSON.stringify(args[2] || {})), ''); } catch (e) {}
      };
      (fbq.queue || []).forEach(function (args) { fbq.callMethod.apply(null, args); });
      fbq.queue = [];
    }`,
  callTracking: `
    // Swaps the dealer's numbers for a tracking number of the same length, as swap.js does.
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    var pattern = /\\(0\\d\\) \\d{4} \\d{4}/g, node;
    while ((node = walker.nextNode())) if (pattern.test(node.nodeValue)) node.nodeValue = node.nodeValue.replace(pattern, '(02) 5550 9999');`,
  podium: `
    var frame = document.createElement('iframe');
    frame.id = 'podium-bubble';
    frame.title = 'Podium';
    // Fixed like the real bubble; it never takes the page's own clicks (the tests click the page).
    frame.style.cssText = 'position:fixed;left:8px;bottom:8px;width:64px;height:64px;border:0;pointer-events:none;z-index:1000';
    frame.srcdoc = '<style>button{width:60px;height:60px;border-radius:30px;border:0;background:#2c6ecb;color:#fff;font:600 12px sans-serif}</style><button type="button" aria-label="Text us">Text</button>';
    frame.onload = function () {
      frame.contentDocument.querySelector('button').addEventListener('click', function () {
        window.__podiumOpened = (window.__podiumOpened || 0) + 1;
        if (window.PodiumEventsCallback) window.PodiumEventsCallback('Bubble Clicked', {});
      });
    };
    document.body.appendChild(frame);
    standIn.chat = function (author, text) {
      // Podium reports the visitor's message only ('Conversation Started'); staff replies go by SMS.
      if (author === 'customer' && window.PodiumEventsCallback) window.PodiumEventsCallback('Conversation Started', { 'customer-message': text });
    };`,
  zendesk: `
    var delegate = null, shown = [];
    window.zE = function (scope, name, value) {
      if (scope === 'messenger:set' && name === 'beforeMessageDisplay') {
        delegate = value;
        standIn.listening = true;
        // The conversation so far is shown again on every page: one visitor message a minute old.
        show({ author: { type: 'user' }, received: new Date(Date.now() - 60000).toISOString(), content: { type: 'text', text: 'Earlier question' } });
      }
      if (scope === 'messenger' && name === 'open') window.__zendeskOpened = (window.__zendeskOpened || 0) + 1;
    };
    function show(message) { shown.push(delegate ? delegate(message) : message); }
    standIn.chat = function (author, text, ageMs) {
      show({ author: { type: author === 'customer' ? 'user' : 'business' }, received: new Date(Date.now() - (ageMs || 0)).toISOString(), content: { type: 'text', text: text } });
    };`,
  livechat: `
    var handlers = [];
    window.LiveChatWidget = {
      call: function (method) { if (method === 'maximize') window.__livechatOpened = (window.__livechatOpened || 0) + 1; },
      on: function (event, handler) { if (event === 'new_event') { handlers.push(handler); standIn.listening = true; } },
    };
    standIn.chat = function (author, text, ageMs) {
      handlers.forEach(function (handler) { handler({ type: 'message', text: text, author: { type: author === 'customer' ? 'customer' : 'agent' }, timestamp: Date.now() - (ageMs || 0) }); });
    };`,
  impel: `
    window.ImpelChat = { open: function () { window.__impelOpened = (window.__impelOpened || 0) + 1; }, hide: function () {}, show: function () {} };`,
  digitalTools: `
    var tab = document.createElement('div');
    tab.id = 'dealer-tools-sidebar';
    tab.style.cssText = 'position:fixed;right:0;top:40%;width:36px;height:120px;background:#222;color:#fff;writing-mode:vertical-rl;font:600 12px sans-serif;display:flex;align-items:center;justify-content:center;pointer-events:none;z-index:999';
    tab.textContent = 'Tools';
    document.body.appendChild(tab);`,
  spinViewer: `
    // Fills the page's spin placeholders, if any (this platform's car page has none yet).
    document.querySelectorAll('[data-spincar-vin]').forEach(function (el) { el.setAttribute('data-spincar-ready', '1'); });`,
};

/**
 * One function of the stand-in's bulk: minified-looking code (short names, string tables, object
 * literals, a loop) whose compressed size per byte is close to real minified JavaScript's.
 */
function bulkFunction(index: number, next: () => number): string {
  const word = () => String.fromCharCode(97 + Math.floor(next() * 26)) + Math.floor(next() * 36 ** 4).toString(36);
  const keys = Array.from({ length: 4 }, word);
  const strings = Array.from({ length: 3 }, () => `"${word()}${word()}"`);
  const n = 4 + Math.floor(next() * 6);
  return (
    `function f${index}(a,b){var c={${keys.map((k, i) => `${k}:${i === 0 ? 'a' : strings[i % strings.length]}`).join(',')}},d=[${strings.join(',')}],e=0;` +
    `for(var i=0;i<${n};i++){e=(e*31+d[i%${strings.length}].length+(c.${keys[1]}.charCodeAt(i%5)|0))%1000003;c.${keys[2]}=d[(i+b)%${strings.length}]+e;}` +
    `return e^${Math.floor(next() * 65535)};}`
  );
}

const cache = new Map<WidgetId, { body: string; gzip: Buffer }>();

/**
 * The stand-in for a widget: a closure that defines the bulk functions, runs one in eight of them
 * once (a provider's start-up runs part of its code; the rest are handlers for later) and then
 * BEHAVIOUR; grown until its gzip size reaches STAND_IN_KB. Built once per process.
 */
export function standInScript(id: WidgetId): { body: string; gzip: Buffer } {
  const cached = cache.get(id);
  if (cached) return cached;
  // The seed's generator: the same stand-in every run.
  const next = mulberry32(hashString(id));
  const target = STAND_IN_KB[id].kb * 1024;
  const functions: string[] = [];
  const wrap = () =>
    `(function(){"use strict";${functions.join('\n')}\n` +
    `var work={checksum:0};for(var k=0;k<${functions.length};k+=8)work.checksum^=fns[k](k,k>>1);\n` +
    `var standIn=window.__standIn=window.__standIn||{};\n${BEHAVIOUR[id]}\n})();`;
  let script = '';
  let size = 0;
  // Grown towards the target in steps sized from the last measurement (a handful of gzips), the
  // last ones 40 functions (about 2 KB compressed) at a time.
  while ((size = zlib.gzipSync(script).length) < target) {
    const more = size === 0 ? 200 : Math.max(40, Math.floor(functions.length * ((target - size) / size) * 0.9));
    for (let i = 0; i < more; i++) functions.push(bulkFunction(functions.length, next));
    script = wrap().replace('var work=', `var fns=[${functions.map((_, i) => `f${i}`).join(',')}],work=`);
  }
  const built = { body: script, gzip: zlib.gzipSync(script) };
  cache.set(id, built);
  return built;
}

/** The widget a script address belongs to, or null; a script fetched through the website's Partytown proxy (decision 043) counts as its provider's. */
export function widgetOfUrl(url: string): WidgetId | null {
  const proxied = /^https?:\/\/[^/]+\/api\/partytown\/proxy\?(.*)$/.exec(url);
  if (proxied) url = new URLSearchParams(proxied[1]).get('url') ?? url;
  for (const [id, pattern] of Object.entries(WIDGET_SCRIPT_PATTERNS) as [WidgetId, RegExp][]) if (pattern.test(url)) return id;
  return null;
}
