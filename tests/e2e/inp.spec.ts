import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { expect, hydrated, serverUrl, siteUrl, test } from './support';

/**
 * Interaction to Next Paint at the reference phone (issue 32, decisions 051 and 058): a facet tick
 * on a search page, a gallery swipe on a car page and typing into the enquiry form, each once the
 * page has hydrated, with the CPU slowed through CDP by N = 4 × this machine's CPU index / 1,500
 * (Lighthouse's 4× preset assumes an index of 1,500). The index is Lighthouse's own benchmark
 * (computeBenchmarkIndex in lighthouse/core/lib/page-functions.js), run in a blank page before the tests.
 *
 * The latency of an interaction is what the browser reports for it: the Event Timing API's
 * duration (from the input to the next paint), the largest of the interaction's entries, as
 * web-vitals takes it for INP. web-vitals' own onINP (reportAllChanges) runs beside it on every
 * page, as a cross-check. Each figure comes with its breakdown (input delay, handlers,
 * presentation) and the long animation frames it overlaps, with their scripts, so a figure over
 * the target says where the time went.
 */

const TARGET_MS = 200; // Google's 'good' INP, the issue's target (decision 058's thresholds)
const REFERENCE_INDEX = 1500; // the CPU index Lighthouse's 4× preset assumes (decision 051)
const PRESET_SLOWDOWN = 4;
const SLOWDOWN_RANGE = [1, 16] as const;
/** Only to look at the figures at another rate (e.g. the 4× preset itself); the run of record leaves it unset. */
const SLOWDOWN_OVERRIDE = Number(process.env.INP_CPU_SLOWDOWN) || null;
// web-vitals' browser build, whose `var webVitals` stays inside Playwright's wrapper of an init script unless put on window.
const WEB_VITALS = `${fs.readFileSync(path.join(process.cwd(), 'node_modules/web-vitals/dist/web-vitals.iife.js'), 'utf8')};window.webVitals = webVitals;`;

const TENANTS = [
  { slug: 'harbour-city-motors', search: '/search/new-used-and-demo-cars' },
  { slug: 'lone-star-auto', search: '/search/used-cars' },
] as const;

/** Lighthouse's benchmarkIndex, as its gatherer computes it in the page (copied, not imported: it runs in the browser). */
function computeBenchmarkIndex(): number {
  function benchmarkIndexGC() {
    const start = Date.now();
    let iterations = 0;
    while (Date.now() - start < 500) {
      let s = '';
      for (let j = 0; j < 10000; j++) s += 'a';
      if (s.length === 1) throw new Error('will never happen, but prevents compiler optimizations');
      iterations++;
    }
    const durationInSeconds = (Date.now() - start) / 1000;
    return Math.round(iterations / 10 / durationInSeconds);
  }
  function benchmarkIndexNoGC() {
    const arrA: number[] = [];
    const arrB: number[] = [];
    for (let i = 0; i < 100000; i++) arrA[i] = arrB[i] = i;
    const start = Date.now();
    let iterations = 0;
    while (iterations % 10 !== 0 || Date.now() - start < 500) {
      const src = iterations % 2 === 0 ? arrA : arrB;
      const tgt = iterations % 2 === 0 ? arrB : arrA;
      for (let j = 0; j < src.length; j++) tgt[j] = src[j];
      iterations++;
    }
    const durationInSeconds = (Date.now() - start) / 1000;
    return Math.round(iterations / 10 / durationInSeconds);
  }
  return (benchmarkIndexGC() + benchmarkIndexNoGC()) / 2;
}

type EventEntry = { name: string; interactionId: number; startTime: number; processingStart: number; processingEnd: number; duration: number; target: string };
type Script = { invoker: string; source: string; duration: number; forcedStyleAndLayout: number };
type Frame = { startTime: number; duration: number; blockingDuration: number; renderStart: number; styleAndLayoutStart: number; scripts: Script[] };
/** A PerformanceLongAnimationFrameTiming, as far as it is read here. */
type LoafEntry = Omit<Frame, 'scripts'> & { scripts: { invoker: string; sourceURL: string; sourceFunctionName: string; duration: number; forcedStyleAndLayoutDuration: number }[] };
type Recorded = { events: EventEntry[]; frames: Frame[]; inp: number[] };

/** Runs in every document before its own scripts: records Event Timing entries, long animation frames and web-vitals' INP. */
function recordInteractions() {
  const recorded = { events: [] as unknown[], frames: [] as unknown[], inp: [] as number[] };
  (window as unknown as { __interactions: typeof recorded }).__interactions = recorded;
  const describe = (node: Node | null) => {
    const element = node as Element | null;
    if (!element?.tagName) return '';
    return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.getAttribute('name') ? `[name=${element.getAttribute('name')}]` : ''}`;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEventTiming[]) {
      recorded.events.push({
        name: entry.name,
        interactionId: entry.interactionId ?? 0,
        startTime: entry.startTime,
        processingStart: entry.processingStart,
        processingEnd: entry.processingEnd,
        duration: entry.duration,
        target: describe(entry.target),
      });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  try {
    new PerformanceObserver((list) => {
      for (const frame of list.getEntries() as unknown as LoafEntry[]) {
        recorded.frames.push({
          startTime: frame.startTime,
          duration: frame.duration,
          blockingDuration: frame.blockingDuration,
          renderStart: frame.renderStart,
          styleAndLayoutStart: frame.styleAndLayoutStart,
          scripts: frame.scripts.map((s) => ({ invoker: s.invoker, source: `${s.sourceURL.replace(location.origin, '')}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''}`, duration: s.duration, forcedStyleAndLayout: s.forcedStyleAndLayoutDuration })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // No Long Animation Frames API: the figures come without the frames.
  }
  const vitals = (window as unknown as { webVitals?: { onINP: (report: (metric: { value: number }) => void, options: object) => void } }).webVitals;
  vitals?.onINP((metric) => recorded.inp.push(metric.value), { reportAllChanges: true, durationThreshold: 16 });
}

// Playwright's trace takes DOM snapshots around each action, in the page's main thread: tens of
// milliseconds at these slowdowns, inside the very frames measured here.
test.use({ trace: 'off' });

let cpuIndex = 0;
let slowdown = 1;

test.beforeAll(async ({ browser }) => {
  // The median of three: on a shared machine one second's index swings with the other work.
  const page = await browser.newPage();
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) runs.push(await page.evaluate(computeBenchmarkIndex));
  await page.close();
  cpuIndex = runs.sort((a, b) => a - b)[1];
  const calibrated = Math.min(SLOWDOWN_RANGE[1], Math.max(SLOWDOWN_RANGE[0], Math.round(((PRESET_SLOWDOWN * cpuIndex) / REFERENCE_INDEX) * 10) / 10));
  slowdown = SLOWDOWN_OVERRIDE ?? calibrated;
  console.log(
    `INP at the reference phone: CPU index ${cpuIndex} (median of ${runs.join(', ')}), slowdown ${slowdown}× (4 × ${cpuIndex} / ${REFERENCE_INDEX} = ${calibrated}, within ${SLOWDOWN_RANGE.join('–')}${SLOWDOWN_OVERRIDE ? '; INP_CPU_SLOWDOWN overrides it' : ''}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
});

/** A page with the recorders installed and the CPU slowed, before it loads anything. */
async function throttledPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await page.addInitScript({ content: WEB_VITALS });
  await page.addInitScript(recordInteractions);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  return page;
}

/** Waits for hydration, then for the scripts loaded at the first interaction (a scroll, as a visitor's first move) to settle. */
async function readyForInput(page: Page, url: string, element: () => Promise<boolean>): Promise<void> {
  await page.goto(url);
  await hydrated(page);
  await page.mouse.move(5, 5);
  await page.mouse.wheel(0, 1);
  await expect.poll(element, { timeout: 30_000, message: 'the control is hydrated' }).toBe(true);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
}

/** Whether React has taken over the element (hydrated it). */
const hasFiber = (page: Page, selector: string) => () =>
  page.evaluate((s) => {
    const element = document.querySelector(s);
    return !!element && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
  }, selector);

type Figure = { latency: number; interactions: number; inp: number | null; worst: EventEntry | null; frames: Frame[] };

/** What INP counts: a tap's or a key's entries, which carry an interaction id. */
const interaction = (e: EventEntry) => e.interactionId > 0;
/** A swipe is no interaction to Event Timing (no interaction id): its touch and pointer entries, the input the gallery answers. */
const gesture = (e: EventEntry) => /^(touchstart|touchend|touchcancel|pointerdown|pointerup|pointercancel)$/.test(e.name);

/** The browser's figures for what `act` does: the Event Timing entries it caused, once the next frames have painted. */
async function measure(page: Page, act: () => Promise<void>, counts: (e: EventEntry) => boolean = interaction): Promise<Figure> {
  const since = await page.evaluate(() => performance.now());
  await act();
  // Event Timing entries are queued after the paint that follows the interaction.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 500)))));
  const recorded = await page.evaluate(() => (window as unknown as { __interactions: Recorded }).__interactions);
  const events = recorded.events.filter((e) => e.startTime >= since && counts(e));
  const worst = events.reduce<EventEntry | null>((max, e) => (!max || e.duration > max.duration ? e : max), null);
  const frames = worst ? recorded.frames.filter((f) => f.startTime < worst.startTime + worst.duration && f.startTime + f.duration > worst.startTime) : [];
  return {
    latency: worst?.duration ?? 0,
    interactions: new Set(events.map((e) => e.interactionId).filter(Boolean)).size,
    inp: recorded.inp.at(-1) ?? null,
    worst,
    frames,
  };
}

function report(label: string, figure: Figure): void {
  const w = figure.worst;
  const lines = [
    `INP ${label} at ${slowdown}×: ${w ? `${figure.latency} ms` : 'under 16 ms (no entry)'} (Event Timing, ${figure.interactions} interaction(s)); web-vitals onINP for the page so far ${figure.inp ?? '–'} ms`,
  ];
  if (w) {
    lines.push(
      `  worst entry: ${w.name} on ${w.target}: input delay ${Math.round(w.processingStart - w.startTime)} ms, handlers ${Math.round(w.processingEnd - w.processingStart)} ms, presentation ${Math.round(w.startTime + w.duration - w.processingEnd)} ms`,
    );
  }
  for (const frame of figure.frames) {
    const end = frame.startTime + frame.duration;
    const scripts = frame.scripts.reduce((sum, script) => sum + script.duration, 0);
    lines.push(
      `  long animation frame at ${Math.round(frame.startTime - (w?.startTime ?? 0))} ms: ${Math.round(frame.duration)} ms (blocking ${Math.round(frame.blockingDuration)}): scripts ${Math.round(scripts)} ms, rendering ${frame.renderStart ? Math.round(end - frame.renderStart) : 0} ms of which style and layout ${frame.styleAndLayoutStart ? Math.round(end - frame.styleAndLayoutStart) : 0} ms`,
    );
    for (const script of [...frame.scripts].sort((a, b) => b.duration - a.duration).slice(0, 5)) {
      lines.push(`    ${Math.round(script.duration)} ms ${script.invoker} → ${script.source}${script.forcedStyleAndLayout ? ` (forced layout ${Math.round(script.forcedStyleAndLayout)} ms)` : ''}`);
    }
  }
  console.log(lines.join('\n'));
}

/**
 * The target is held in the benchmark, `npm run bench:inp` (INP_ENFORCE=1), run on a quiet machine:
 * in `npm test` each figure is measured and printed, and the interaction must work, but a timing
 * taken beside the other tests on a shared machine does not fail the run (one key at 296 ms failed
 * a CI run whose host's CPU index swung from 332 to 1,387 within the measurement).
 */
function expectWithinTarget(figure: Figure): void {
  if (process.env.INP_ENFORCE !== '1') return;
  expect(figure.latency, 'Event Timing: the interaction to its next paint').toBeLessThanOrEqual(TARGET_MS);
  if (figure.inp !== null) expect(figure.inp, 'web-vitals onINP').toBeLessThanOrEqual(TARGET_MS);
}

for (const tenant of TENANTS) {
  test(`${tenant.slug}: a facet tick on the search page answers within ${TARGET_MS} ms at the reference phone`, async ({ browser }) => {
    const page = await throttledPage(browser);
    // The tick becomes a client navigation once the form's enhancer has hydrated (decision 060).
    await readyForInput(page, siteUrl(tenant.slug, tenant.search), () => page.evaluate(() => typeof (window as unknown as { __applyForm?: unknown }).__applyForm === 'function'));
    const box = page.locator('#search-filters input[type="checkbox"][name="make"]').first();
    const make = (await box.getAttribute('value'))!;
    // The pointer arrives first (its hover events are not part of the click), then a press and a
    // release: page.mouse, not locator.click, whose hit-target checks add listeners of Playwright's
    // own to the page's pointer events.
    await box.hover();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const figure = await measure(page, async () => {
      await page.mouse.down();
      await page.mouse.up();
    });
    await expect.poll(() => new URL(page.url()).searchParams.getAll('make')).toEqual([make]);
    report(`${tenant.slug} facet tick (${make})`, figure);
    expectWithinTarget(figure);
    await page.context().close();
  });

  test(`${tenant.slug}: a swipe through the car page's gallery answers within ${TARGET_MS} ms at the reference phone`, async ({ browser }) => {
    const search = await (await browser.newContext()).request.post(serverUrl('/api/search'), { headers: { host: `${tenant.slug}.localhost` }, data: { limit: 30 } });
    const hit = ((await search.json()).hits as { slug: string; photos_count: number; status: string }[]).find((h) => h.photos_count > 2 && h.status === 'in_stock');
    expect(hit, 'a car with photos').toBeTruthy();
    const page = await throttledPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const next = page.locator('[data-gallery-stage] [data-gallery-next]');
    await readyForInput(page, siteUrl(tenant.slug, `/cars/${hit!.slug}`), () => next.isVisible());
    const counter = page.locator('[data-gallery-stage] [data-gallery-counter]');
    await expect(counter).toHaveText(/^1 \//);
    const stage = (await page.locator('[data-gallery-stage]').boundingBox())!;
    const y = stage.y + stage.height / 2;
    const cdp = await page.context().newCDPSession(page);
    // A finger from right to left across the photo: touchstart, moves, touchend, as the input pipeline delivers them.
    const figure = await measure(page, async () => {
      const x0 = stage.x + stage.width * 0.8;
      const x1 = stage.x + stage.width * 0.2;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y }] });
      for (let step = 1; step <= 6; step++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 + ((x1 - x0) * step) / 6, y }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expect(counter).toHaveText(/^2 \//);
    }, gesture);
    report(`${tenant.slug} gallery swipe`, figure);
    expectWithinTarget(figure);
    await page.context().close();
  });

  test(`${tenant.slug}: typing into the enquiry form answers within ${TARGET_MS} ms a key at the reference phone`, async ({ browser }) => {
    const page = await throttledPage(browser);
    const form = page.locator('#contact-form form');
    await readyForInput(page, siteUrl(tenant.slug, '/contact'), hasFiber(page, '#contact-form form input'));
    const field = form.getByLabel(/^First Name/);
    await field.click();
    const figure = await measure(page, () => field.pressSequentially('Jordan', { delay: 120 }));
    await expect(field).toHaveValue('Jordan');
    report(`${tenant.slug} typing 'Jordan' into First Name`, figure);
    expectWithinTarget(figure);
    await page.context().close();
  });
}
