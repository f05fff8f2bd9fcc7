import type { Page } from '@playwright/test';
import { expect, photograph, serverUrl, siteUrl, test } from './support';

/**
 * The stock search screen (SPEC §2) as visitors use it: sidebar filters with counts, chips, sort,
 * pagination and the browser's Back button, on three differently configured dealers; the phone
 * drawer; the form without JavaScript; landing paths and their SEO tags; POST /api/search.
 */

type SearchSite = {
  slug: string;
  /** The site's name, which starts each of its locations' names. */
  name: string;
  /** The default search page. */
  path: string;
  defaultSort: string;
  /** Sort label that puts the most kilometres/miles last. */
  lowestDistance: string;
};

const SITES: readonly SearchSite[] = [
  {
    slug: 'harbour-city-motors',
    name: 'Harbour City Motors',
    path: '/search/new-used-and-demo-cars',
    defaultSort: 'custom_rank:desc',
    lowestDistance: 'Lowest kms',
  },
  {
    slug: 'southern-cross-skoda',
    name: 'Southern Cross Škoda',
    path: '/search/new-used-and-demo-cars',
    defaultSort: 'custom_rank:desc',
    lowestDistance: 'Lowest kms',
  },
  {
    slug: 'lone-star-auto',
    name: 'Lone Star Auto',
    path: '/search/used-cars',
    defaultSort: 'price:asc',
    lowestDistance: 'Lowest miles',
  },
];

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
/** Cards per page (the default search.pageSize). */
const PAGE_SIZE = 24;
/** Term facets other than make, tried by the 'counts are honest' test in this order. */
const OTHER_FACETS = ['car_type', 'simple_body', 'colour', 'location_name', 'simple_fuel', 'simple_drive', 'simple_transmission'];

// ---------------------------------------------------------------------------------------------
// Reading the page

type Option = { name: string; value: string; label: string; count: number; checked: boolean };

const filterForm = (page: Page) => page.locator('#search-filters');
const results = (page: Page) => page.locator('section[aria-labelledby="search-results-heading"]');
const chips = (page: Page) => page.getByRole('list', { name: 'Applied filters' });
const pagination = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });
const params = (page: Page) => new URL(page.url()).searchParams;

/** A sidebar checkbox by its name and value. */
function checkbox(page: Page, name: string, value: string) {
  return filterForm(page).locator(`input[type="checkbox"][name=${JSON.stringify(name)}][value=${JSON.stringify(value)}]`);
}

/** The number in 'N cars found'. */
async function resultCount(page: Page): Promise<number> {
  const text = (await page.getByTestId('result-count').textContent()) ?? '';
  return Number(text.replace(/\D/g, ''));
}

/** The options of a checkbox group as shown: value, label, the count beside it, checked. */
async function facetOptions(page: Page, name: string): Promise<Option[]> {
  return filterForm(page)
    .locator(`input[type="checkbox"][name=${JSON.stringify(name)}]`)
    .evaluateAll((inputs) =>
      inputs.map((element) => {
        const input = element as HTMLInputElement;
        const label = input.closest('label');
        const shown = label?.querySelectorAll('span[aria-hidden="true"]') ?? [];
        return {
          name: input.name,
          value: input.value,
          label: label?.querySelector(':scope > span')?.textContent?.trim() ?? '',
          count: Number(shown[shown.length - 1]?.textContent ?? NaN),
          checked: input.checked,
        };
      }),
    );
}

/** Each card's price in whole dollars, or null for 'Enquire for price.' / pre-order cards. */
async function cardPrices(page: Page): Promise<(number | null)[]> {
  return results(page)
    .locator('article')
    .evaluateAll((cards) =>
      cards.map((card) => {
        const text = card.textContent ?? '';
        if (/[EI]nquire for price|Pre-order/.test(text)) return null;
        // The price comes first on a card; a struck 'was' price or subscription price follows it.
        const match = /\$\s?([\d,]+)/.exec(text);
        return match ? Number(match[1].replace(/,/g, '')) : null;
      }),
    );
}

async function firstCard(page: Page): Promise<string | null> {
  return results(page).locator('article a').first().getAttribute('href');
}

const isSorted = (values: number[], order: 'asc' | 'desc') =>
  values.every((value, i) => i === 0 || (order === 'asc' ? values[i - 1] <= value : values[i - 1] >= value));

/** The priced cards of the page, once they are in the given order (the page may still be updating). */
async function expectPricesSorted(page: Page, order: 'asc' | 'desc'): Promise<number[]> {
  let prices: number[] = [];
  await expect
    .poll(async () => {
      prices = (await cardPrices(page)).filter((price): price is number => price != null);
      return prices.length > 1 && isSorted(prices, order);
    }, { message: `prices on the page are ${order === 'asc' ? 'non-decreasing' : 'non-increasing'}` })
    .toBe(true);
  return prices;
}

/**
 * Where the sidebar and sort control disagree with the URL they are showing: a checkbox checked
 * that the URL does not choose (or the reverse), a number input or the sort select showing
 * something else. Empty when they agree.
 */
async function controlMismatches(page: Page, site: SearchSite): Promise<string[]> {
  const url = new URL(page.url());
  const controls = await page.evaluate(() => {
    const form = document.getElementById('search-filters');
    const boxes = Array.from(form?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? []);
    const numbers = Array.from(form?.querySelectorAll<HTMLInputElement>('input[type="number"]') ?? []);
    const sort = document.getElementById('search-sort') as HTMLSelectElement | null;
    return {
      names: [...new Set(boxes.map((box) => box.name))],
      checked: boxes.filter((box) => box.checked).map((box) => `${box.name}=${box.value}`),
      numbers: numbers.map((input) => ({ name: input.name, value: input.value })),
      sort: sort?.value ?? null,
    };
  });
  const wanted = controls.names.flatMap((name) => url.searchParams.getAll(name).map((value) => `${name}=${value}`));
  const problems: string[] = [];
  for (const box of controls.checked) if (!wanted.includes(box)) problems.push(`${box} is checked, not in the URL`);
  for (const box of wanted) if (!controls.checked.includes(box)) problems.push(`${box} is in the URL, not checked`);
  for (const input of controls.numbers) {
    const want = url.searchParams.get(input.name) ?? '';
    if (input.value !== want) problems.push(`${input.name} shows '${input.value}', the URL has '${want}'`);
  }
  const sort = url.searchParams.get('sort') ?? site.defaultSort;
  if (controls.sort != null && controls.sort !== sort) problems.push(`sort shows ${controls.sort}, the URL has ${sort}`);
  return problems;
}

/** Soft: a mismatch is reported (the test fails) but the journey goes on to its later steps. */
async function expectControlsShowUrl(page: Page, site: SearchSite, when: string) {
  await expect
    .configure({ soft: true })
    .poll(() => controlMismatches(page, site), { message: `${when}: the filters and sort show the URL's state` })
    .toEqual([]);
}

/** What Back must bring back: the URL, its count and its first card. */
type Snapshot = { url: string; count: number; first: string | null };

async function snapshot(page: Page): Promise<Snapshot> {
  return { url: page.url(), count: await resultCount(page), first: await firstCard(page) };
}

async function expectRestored(page: Page, site: SearchSite, state: Snapshot, when: string) {
  await expect(page, when).toHaveURL(state.url);
  await expect.poll(() => resultCount(page), { message: `${when}: result count` }).toBe(state.count);
  await expect.poll(() => firstCard(page), { message: `${when}: first card` }).toBe(state.first);
  await expectControlsShowUrl(page, site, when);
}

/** Opens a search page and waits until the form applies changes by itself (hydrated). */
async function openSearch(page: Page, site: SearchSite, path = site.path) {
  const response = await page.goto(siteUrl(site.slug, path));
  expect(response?.status()).toBe(200);
  await expect(filterForm(page)).toHaveAttribute('aria-busy', 'false');
}

/** The unfiltered total as the search API counts it now (the same stock as the default page). */
async function apiTotal(page: Page, site: SearchSite): Promise<number> {
  const response = await page.request.post(serverUrl('/api/search'), {
    headers: { host: `${site.slug}.localhost` },
    data: { limit: 1 },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).estimatedTotalHits;
}

/** A value of the price range inputs' step (500). */
const roundPrice = (value: number) => Math.round(value / 1000) * 1000;

// ---------------------------------------------------------------------------------------------
// Journeys at 1280 px, one per dealer

for (const site of SITES) {
  test.describe(`${site.slug} search at 1280 px`, () => {
    test.use({ viewport: DESKTOP });

    test('make and model, price range, sort, pages, Back and clear all', async ({ page }) => {
      await openSearch(page, site);
      const total = await resultCount(page);
      expect(total).toBeGreaterThan(PAGE_SIZE);
      await expect(chips(page)).toHaveCount(0);
      expect(await apiTotal(page, site)).toBe(total);

      await test.step('a make: the result count is the count beside it', async () => {
        const makes = await facetOptions(page, 'make');
        expect(makes.length).toBeGreaterThan(0);
        expect(makes.every((make) => make.count > 0 && !make.checked)).toBe(true);
        // The make with the most cars short of all of them (a single-make dealer: its only make).
        const make = [...makes].sort((a, b) => b.count - a.count).find((m) => m.count < total) ?? makes[0];
        await checkbox(page, 'make', make.value).check();
        await expect(page).toHaveURL((url) => url.searchParams.getAll('make').join() === make.value);
        await expect.poll(() => resultCount(page)).toBe(make.count);
        await expect(chips(page)).toContainText(`Make: ${make.label}`);

        const models = await facetOptions(page, 'make_model');
        expect(models.length).toBeGreaterThan(0);
        for (const model of models) expect(model.value.startsWith(`${make.value}:`)).toBe(true);
        // Each car has one model: the models' counts add up to the make's.
        expect(models.reduce((sum, model) => sum + model.count, 0)).toBe(make.count);

        const model = [...models].sort((a, b) => b.count - a.count).find((m) => m.count < make.count) ?? models[0];
        await checkbox(page, 'make_model', model.value).check();
        await expect(page).toHaveURL(
          (url) => url.searchParams.get('make') === make.value && url.searchParams.get('make_model') === model.value,
        );
        expect(page.url()).toMatch(/[?&]make=[^&]+&make_model=/);
        await expect.poll(() => resultCount(page)).toBe(model.count);
        await expect(chips(page)).toContainText(`Model: ${model.label}`);
        await expect(checkbox(page, 'make', make.value)).toBeChecked();
        await expect(checkbox(page, 'make_model', model.value)).toBeChecked();
        if (model.count <= PAGE_SIZE) await expect(results(page).locator('article')).toHaveCount(model.count);
      });

      const modelled = await snapshot(page);

      await test.step('clear all: the unfiltered total again', async () => {
        await chips(page).getByRole('link', { name: 'Clear all' }).click();
        await expect(page).toHaveURL((url) => url.pathname === site.path && url.search === '');
        await expect.poll(() => resultCount(page)).toBe(await apiTotal(page, site));
        await expect(chips(page)).toHaveCount(0);
        await expect(filterForm(page).locator('input[type="checkbox"]:checked')).toHaveCount(0);
      });

      const cleared = await snapshot(page);
      const unfiltered = cleared.count;
      const minInput = filterForm(page).locator('input[name="price_min"]');
      const maxInput = filterForm(page).locator('input[name="price_max"]');

      let fromMin: Snapshot | undefined;
      await test.step('a price range: every card priced within it', async () => {
        // The placeholders hint at the cheapest and dearest car in view.
        const low = Number(await minInput.getAttribute('placeholder'));
        const high = Number(await maxInput.getAttribute('placeholder'));
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeGreaterThan(low);
        const min = roundPrice(low + (high - low) * 0.1);
        const max = roundPrice(low + (high - low) * 0.6);

        await minInput.fill(String(min));
        await minInput.press('Enter');
        await expect(page).toHaveURL((url) => url.searchParams.get('price_min') === String(min));
        await expect(chips(page)).toContainText('Price: from');
        fromMin = await snapshot(page);
        expect(fromMin.count).toBeLessThanOrEqual(unfiltered);

        await maxInput.fill(String(max));
        await maxInput.press('Enter');
        await expect(page).toHaveURL(
          (url) => url.searchParams.get('price_min') === String(min) && url.searchParams.get('price_max') === String(max),
        );
        await expect(chips(page)).toContainText('–');
        const inRange = await resultCount(page);
        expect(inRange).toBeGreaterThan(0);
        expect(inRange).toBeLessThanOrEqual(fromMin.count);
        const prices = await cardPrices(page);
        expect(prices.length).toBe(Math.min(inRange, PAGE_SIZE));
        for (const price of prices) {
          expect(price, 'a price range leaves out cars without a price').not.toBeNull();
          expect(price!).toBeGreaterThanOrEqual(min);
          expect(price!).toBeLessThanOrEqual(max);
        }
        await expect(minInput).toHaveValue(String(min));
        await expect(maxInput).toHaveValue(String(max));
      });

      const ranged = await snapshot(page);

      const order: 'asc' | 'desc' = site.defaultSort === 'price:asc' ? 'desc' : 'asc';
      await test.step(`sort by ${order === 'asc' ? 'lowest' : 'highest'} price`, async () => {
        const sort = page.locator('#search-sort');
        if (site.defaultSort === 'price:asc') {
          // Cheapest first is this dealer's default: already in order; then the other way round.
          await expect(sort).toHaveValue('price:asc');
          await expectPricesSorted(page, 'asc');
          await sort.selectOption({ label: 'Highest price' });
          await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'price:desc');
        } else {
          await expect(sort.locator('option')).toContainText(['Most relevant', 'Latest', 'Highest price', 'Lowest price', site.lowestDistance]);
          await sort.selectOption({ label: 'Lowest price' });
          await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'price:asc');
        }
        await expectPricesSorted(page, order);
        expect(await resultCount(page)).toBe(ranged.count);
        await expect.soft(sort, 'the sort control shows the chosen order').toHaveValue(`price:${order}`);
      });

      const sorted = await snapshot(page);

      await test.step('Next page, then Back, step by step, to the make and model', async () => {
        expect(sorted.count, 'the range leaves more than one page').toBeGreaterThan(PAGE_SIZE);
        const lastOnPage1 = (await expectPricesSorted(page, order)).at(-1)!;
        await pagination(page).getByRole('link', { name: 'Next' }).click();
        await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2');
        expect(params(page).get('sort')).toBe(`price:${order}`);
        expect(params(page).get('price_min')).toBe(new URL(ranged.url).searchParams.get('price_min'));
        await expect.poll(() => firstCard(page)).not.toBe(sorted.first);
        await expect(pagination(page).locator('[aria-current="page"]')).toHaveText(/2$/);
        await expect(pagination(page).getByRole('link', { name: 'Previous' })).toBeVisible();
        expect(await resultCount(page)).toBe(sorted.count);
        // Page 2 carries on where page 1 stopped.
        const page2 = await expectPricesSorted(page, order);
        expect(order === 'asc' ? page2[0] >= lastOnPage1 : page2[0] <= lastOnPage1).toBe(true);

        await page.goBack();
        await expectRestored(page, site, sorted, 'Back from page 2');
        await page.goBack();
        await expectRestored(page, site, ranged, 'Back again, before the sort');
        await expect(minInput).toHaveValue(new URL(ranged.url).searchParams.get('price_min')!);
        await expect(maxInput).toHaveValue(new URL(ranged.url).searchParams.get('price_max')!);
        // Further back the controls must drop what was added since: the maximum, the minimum…
        await page.goBack();
        await expectRestored(page, site, fromMin!, 'Back to the minimum price only');
        await page.goBack();
        await expectRestored(page, site, cleared, 'Back to no filters');
        // …and show the make and model that were chosen there.
        await page.goBack();
        await expectRestored(page, site, modelled, 'Back to the make and model');
        await expect(chips(page)).toContainText('Model: ');
      });

      await test.step('clear all: the unfiltered total again', async () => {
        await chips(page).getByRole('link', { name: 'Clear all' }).click();
        await expect(page).toHaveURL((url) => url.pathname === site.path && url.search === '');
        await expect.poll(() => resultCount(page)).toBe(await apiTotal(page, site));
        await expect(chips(page)).toHaveCount(0);
        await expect(filterForm(page).locator('input[type="checkbox"]:checked')).toHaveCount(0);
        await expect(minInput).toHaveValue('');
        await expect(maxInput).toHaveValue('');
      });
    });

    test('the count beside an option is the number of results it gives', async ({ page }) => {
      await openSearch(page, site);
      const total = await resultCount(page);
      let tried = 0;
      for (const facet of OTHER_FACETS) {
        const options = (await facetOptions(page, facet)).filter((option) => option.count > 0 && option.count < total);
        if (options.length === 0) continue;
        // The smallest group of two or more cars: a narrow filter shows a miscount plainly.
        const option = [...options].sort((a, b) => a.count - b.count).find((o) => o.count >= 2) ?? options[0];
        await test.step(`${facet}: ${option.label} (${option.count})`, async () => {
          await checkbox(page, facet, option.value).check();
          await expect(page).toHaveURL((url) => url.searchParams.getAll(facet).join() === option.value);
          await expect.poll(() => resultCount(page)).toBe(option.count);
          await expect(chips(page).getByRole('listitem')).toHaveCount(2); // the chip and Clear all
          if (option.count <= PAGE_SIZE) await expect(results(page).locator('article')).toHaveCount(option.count);

          await checkbox(page, facet, option.value).uncheck();
          await expect(page).toHaveURL((url) => !url.searchParams.has(facet));
          await expect.poll(() => resultCount(page)).toBe(total);
          const again = (await facetOptions(page, facet)).find((o) => o.value === option.value);
          expect(again?.count).toBe(option.count);
          expect(again?.checked).toBe(false);
        });
        tried += 1;
        if (tried === 4) break;
      }
      expect(tried).toBeGreaterThanOrEqual(3);
    });
  });
}

test.describe('sort and filters together', () => {
  test.use({ viewport: DESKTOP });

  test('a filter chosen after sorting keeps the sort', async ({ page }) => {
    const site = SITES[0];
    await openSearch(page, site);
    await page.locator('#search-sort').selectOption({ label: 'Lowest price' });
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'price:asc');
    await expectPricesSorted(page, 'asc');

    const colour = (await facetOptions(page, 'colour')).sort((a, b) => b.count - a.count)[0];
    await checkbox(page, 'colour', colour.value).check();
    await expect(page).toHaveURL((url) => url.searchParams.get('colour') === colour.value);
    await expect.poll(() => resultCount(page)).toBe(colour.count);
    expect(params(page).get('sort'), 'the URL keeps the chosen sort').toBe('price:asc');
    await expect(page.locator('#search-sort')).toHaveValue('price:asc');
    await expectPricesSorted(page, 'asc');
  });
});

// ---------------------------------------------------------------------------------------------
// Markup React leaves as the server drew it (decision 073)

test.describe('cards and filters as the server drew them', () => {
  test.use({ viewport: DESKTOP });

  /** Whether React hydrated or drew the first element the selector finds (React keeps its fiber on the element). */
  const reacts = (page: Page, selector: string) =>
    page.locator(selector).first().evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')));

  test('are not hydrated inside, and a filter applied after hydration draws the new cards in full', async ({ page }) => {
    const site = SITES[0];
    await openSearch(page, site);
    // Hydrated: each card's link, its heart and the form; not what they hold.
    expect(await reacts(page, 'article .car-card-link')).toBe(true);
    expect(await reacts(page, 'article .save-car-button')).toBe(true);
    expect(await reacts(page, 'article .car-card-name')).toBe(false);
    expect(await reacts(page, '#search-filters')).toBe(true);
    expect(await reacts(page, '#search-filters input[name="make"]')).toBe(false);

    const total = await resultCount(page);
    const make = (await facetOptions(page, 'make')).find((option) => option.count > 0 && option.count < total)!;
    await checkbox(page, 'make', make.value).check();
    await expect(page).toHaveURL((url) => url.searchParams.get('make') === make.value);
    await expect.poll(() => resultCount(page)).toBe(make.count);
    // A client navigation: the cards and the form are React's own now, drawn with the new content.
    const names = await results(page).locator('article .car-card-name').allTextContents();
    expect(names).toHaveLength(Math.min(make.count, PAGE_SIZE));
    for (const name of names) expect(name).toContain(make.label);
    expect(await reacts(page, 'article .car-card-name')).toBe(true);
    await expect(checkbox(page, 'make', make.value)).toBeChecked();
    expect(await results(page).locator('article img').count()).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Phone: the filter drawer

test.describe('search on a phone', () => {
  test.use({ viewport: PHONE });

  test('the Filters drawer opens, applies a make at once and closes', async ({ page }) => {
    const site = SITES[0];
    await openSearch(page, site);
    const total = await resultCount(page);
    const panel = page.locator('#search-filter-panel');
    const open = page.locator('label[for="search-filters-open"]', { hasText: /^Filters/ });
    await expect(panel).toBeHidden();
    await expect(open).toBeVisible();
    await expect(open).toHaveText('Filters');

    await open.click();
    await expect(panel).toBeVisible();
    const makes = await facetOptions(page, 'make');
    const make = [...makes].sort((a, b) => a.count - b.count).find((m) => m.count >= 2) ?? makes[0];
    const box = checkbox(page, 'make', make.value);
    await box.scrollIntoViewIfNeeded();
    await expect(box).toBeVisible();
    await box.check();
    await expect(page).toHaveURL((url) => url.searchParams.get('make') === make.value);
    await expect.poll(() => resultCount(page)).toBe(make.count);
    // Applied at once; the drawer stays open and its button counts what it shows.
    await expect(panel).toBeVisible();
    await expect(filterForm(page).getByRole('button', { name: `Show ${make.count} cars` })).toBeVisible();

    await panel.locator('label[for="search-filters-open"]', { hasText: 'Close' }).click();
    await expect(panel).toBeHidden();
    await expect(open).toHaveText('Filters (1)');
    await expect(chips(page)).toContainText(`Make: ${make.label}`);
    await expect(results(page).locator('article').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // Escape closes it too; clearing from the chips brings every car back.
    await open.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await chips(page).getByRole('link', { name: 'Clear all' }).click();
    await expect.poll(() => resultCount(page)).toBe(total);
  });
});

// ---------------------------------------------------------------------------------------------
// Without JavaScript: the form is a plain GET form

test.describe('search without JavaScript', () => {
  test.use({ viewport: DESKTOP, javaScriptEnabled: false });

  test('Apply filters submits the form; the noscript Sort button sorts', async ({ page }) => {
    const site = SITES[0];
    const response = await page.goto(siteUrl(site.slug, site.path));
    expect(response?.status()).toBe(200);
    const total = await resultCount(page);
    const makes = await facetOptions(page, 'make');
    const make = [...makes].sort((a, b) => b.count - a.count).find((m) => m.count < total && m.count > PAGE_SIZE) ?? makes[0];

    await checkbox(page, 'make', make.value).check();
    expect(page.url(), 'nothing happens before the form is sent').not.toContain('make=');
    await filterForm(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.getAll('make').join() === make.value);
    expect(await resultCount(page)).toBe(make.count);
    await expect(checkbox(page, 'make', make.value)).toBeChecked();
    await expect(chips(page)).toContainText(`Make: ${make.label}`);
    const names = await results(page).locator('article h3').allTextContents();
    expect(names.length).toBe(Math.min(make.count, PAGE_SIZE));
    for (const name of names) expect(name).toContain(make.label);

    await page.locator('#search-sort').selectOption({ label: 'Lowest price' });
    await page.getByRole('button', { name: 'Sort', exact: true }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'price:asc');
    expect(params(page).getAll('make')).toEqual([make.value]);
    expect(await resultCount(page)).toBe(make.count);
    await expect(page.locator('#search-sort')).toHaveValue('price:asc');
    const prices = (await cardPrices(page)).filter((price): price is number => price != null);
    expect(prices.length).toBeGreaterThan(1);
    expect(isSorted(prices, 'asc')).toBe(true);

    // Pages are plain links.
    await pagination(page).getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('sort') === 'price:asc');
  });
});

// ---------------------------------------------------------------------------------------------
// Landing paths, SEO tags, 404s

/** 'Škoda Octavia RS' → 'skoda-octavia-rs', as the site writes make and model segments. */
const slugify = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

for (const site of SITES) {
  test(`${site.slug}: a make and model landing path has its own heading, canonical URL and count`, async ({ page, request }) => {
    // A used make and model of this dealer's stock, as the search API lists them.
    const api = await request.post(serverUrl('/api/search'), {
      headers: { host: `${site.slug}.localhost` },
      data: { filters: { car_type: ['used'] }, facets: ['make_model'], limit: 1 },
    });
    expect(api.status()).toBe(200);
    const distribution: Record<string, number> = (await api.json()).facetDistribution.make_model;
    const [makeModel, count] = Object.entries(distribution).sort((a, b) => b[1] - a[1])[0];
    const [make, model] = makeModel.split(':');
    const path = `/search/used-cars/${slugify(make)}/${slugify(model)}`;

    const response = await page.goto(siteUrl(site.slug, path));
    expect(response?.status()).toBe(200);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toContainText(model);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(new URL(canonical!).pathname).toBe(path);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    expect(await resultCount(page)).toBe(count);
    // The path chooses the make: the sidebar does not offer it again.
    await expect(filterForm(page).locator('input[name="make"]')).toHaveCount(0);

    // Its heading is its own, not the default search page's.
    const landingHeading = await heading.textContent();
    await page.goto(siteUrl(site.slug, site.path));
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(landingHeading!);

    // Any filter on it makes a page for visitors, not search engines; the canonical stays the path.
    const colour = (await facetOptions(page, 'colour'))[0];
    const filtered = await request.get(serverUrl(`${path}?colour=${encodeURIComponent(colour.value)}`), {
      headers: { host: `${site.slug}.localhost` },
    });
    expect(filtered.status()).toBe(200);
    const html = await filtered.text();
    expect(html).toContain('<meta name="robots" content="noindex, follow"/>');
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]+${path.replace(/\//g, '\\/')}"/>`));

    // An unknown model of a known make, and an unknown search slug, are the site's 404.
    expect((await page.goto(siteUrl(site.slug, `/search/used-cars/${slugify(make)}/no-such-model`)))?.status()).toBe(404);
    expect((await page.goto(siteUrl(site.slug, '/search/no-such-cars-anywhere')))?.status()).toBe(404);
  });
}

test('a filtered search URL is noindex, follow; the plain search page is indexable', async ({ page }) => {
  const site = SITES[0];
  await page.goto(siteUrl(site.slug, site.path));
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
  expect(new URL(canonical!).pathname).toBe(site.path);

  const make = (await facetOptions(page, 'make'))[0];
  await page.goto(siteUrl(site.slug, `${site.path}?make=${encodeURIComponent(make.value)}`));
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, follow');
  expect(new URL((await page.locator('link[rel="canonical"]').getAttribute('href'))!).pathname).toBe(site.path);
});

test("southern-cross-skoda: /pre-owned lists the pre-owned stock under its own path", async ({ page }) => {
  const site = SITES[1];
  await page.setViewportSize(DESKTOP);
  await openSearch(page, site);
  const preOwned = (await facetOptions(page, 'car_type')).find((option) => option.value === 'used');
  expect(preOwned?.label).toBe('Pre-owned');

  await openSearch(page, site, '/pre-owned');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/pre-owned/i);
  expect(await resultCount(page)).toBe(preOwned!.count);
  expect(new URL((await page.locator('link[rel="canonical"]').getAttribute('href'))!).pathname).toBe('/pre-owned');

  // Filters stay on the path.
  const colour = (await facetOptions(page, 'colour')).sort((a, b) => b.count - a.count)[0];
  await checkbox(page, 'colour', colour.value).check();
  await expect(page).toHaveURL((url) => url.pathname === '/pre-owned' && url.searchParams.get('colour') === colour.value);
  await expect.poll(() => resultCount(page)).toBe(colour.count);
});

// ---------------------------------------------------------------------------------------------
// POST /api/search

test('POST /api/search answers for the website of the Host header and refuses unknown keys', async ({ request }) => {
  for (const site of SITES) {
    const host = `${site.slug}.localhost`;
    const response = await request.post(serverUrl('/api/search'), { headers: { host }, data: { facets: ['make'], limit: 3 } });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/json');
    const body = await response.json();
    expect(body).toEqual(
      expect.objectContaining({ hits: expect.any(Array), estimatedTotalHits: expect.any(Number), facetDistribution: expect.any(Object) }),
    );
    expect(body.hits.length).toBe(Math.min(3, body.estimatedTotalHits));
    const makes: Record<string, number> = body.facetDistribution.make;
    expect(Object.values(makes).reduce((sum, n) => sum + n, 0)).toBe(body.estimatedTotalHits);
    // Only this dealer's stock: its cars are at its own locations, and the totals match its search page.
    for (const hit of body.hits) if (hit.location) expect(hit.location.name.startsWith(site.name)).toBe(true);
    const html = await (await request.get(serverUrl(site.path), { headers: { host } })).text();
    expect(Number(/data-testid="result-count">([\d,]+)</.exec(html)?.[1].replace(/,/g, ''))).toBe(body.estimatedTotalHits);
  }

  const unknownKey = await request.post(serverUrl('/api/search'), {
    headers: { host: `${SITES[0].slug}.localhost` },
    data: { limit: 3, website_id: 8 },
  });
  expect(unknownKey.status()).toBe(400);
  expect(JSON.stringify(await unknownKey.json())).toContain('website_id');

  const unknownHost = await request.post(serverUrl('/api/search'), { headers: { host: 'nobody.example' }, data: {} });
  expect(unknownHost.status()).toBe(404);
});

// ---------------------------------------------------------------------------------------------
// Screenshots

for (const site of SITES) {
  for (const width of [375, 1280] as const) {
    test(`${site.slug} search page screenshot at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(siteUrl(site.slug, site.path));
      expect(response?.status()).toBe(200);
      await expect(page.getByTestId('result-count')).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 500) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
      await photograph(page, { path: `docs/screenshots/search-${site.slug}-${width}.png`, fullPage: true });
    });
  }
}
