import type { Page, Request } from '@playwright/test';
import { dashboardAuth, expect, photograph, serverUrl, siteUrl, test } from './support';

/**
 * Lead capture journeys (issue 5 'Done when') on harbour-city-motors, on the standalone form
 * pages: the enquiry with bad input then good, the two-step test drive with its partial save,
 * request photos, and a careers enquiry recorded as General Enquiry / Career Enquiry.
 */

const SITE = 'harbour-city-motors';
const HOST = `${SITE}.localhost`;

type Hit = { id: number; slug: string; name: string; car_type: 'new' | 'used' | 'demo' };

/** Dealership 11, harbour-city-mazda: the e2e Dashboard API key's, so its leads can be read back. */
const DEALERSHIP_ID = 11;
const DEALERSHIP_NAME = 'Harbour City Mazda';

async function firstCar(page: Page, carType: Hit['car_type']): Promise<Hit> {
  const response = await page.request.post(serverUrl('/api/search'), {
    headers: { host: HOST },
    data: { filters: { car_type: [carType], dealership_name: [DEALERSHIP_NAME] }, limit: 1 },
  });
  expect(response.status()).toBe(200);
  const [hit] = (await response.json()).hits as Hit[];
  expect(hit).toBeTruthy();
  return hit;
}

/** Every lead API request the page makes, with its body. */
function recordLeadRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/leads')) requests.push(request);
  });
  return requests;
}

/** The lead as the dealer reads it through the Dashboard API. */
async function storedLead(page: Page, id: string): Promise<Record<string, unknown>> {
  const response = await page.request.get(serverUrl(`/dealerships/${DEALERSHIP_ID}/leads.json?per_page=100`), {
    headers: { authorization: dashboardAuth() },
  });
  expect(response.status()).toBe(200);
  const lead = ((await response.json()).leads as Record<string, unknown>[]).find((row) => row.id === id);
  expect(lead, `lead ${id} in leads.json`).toBeTruthy();
  return lead!;
}

/** The outbox rows of a lead, as the demo-mode /dev/outbox page lists them. */
async function outboxEmails(page: Page, id: string): Promise<number> {
  const outbox = await page.context().newPage();
  await outbox.goto(siteUrl(SITE, '/dev/outbox'));
  const count = await outbox.locator(`[data-lead-id="${id}"][data-channel="email"]`).count();
  await outbox.close();
  return count;
}

const leadOf = (request: Request) => (request.postDataJSON() as { lead: Record<string, unknown> }).lead;

/** A form control by its label; optional fields' labels end in ' (optional)'. */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));

async function fillDetails(page: Page, details: Partial<Record<'First Name' | 'Last Name' | 'Email' | 'Phone' | 'Postcode', string>>) {
  for (const [label, value] of Object.entries(details)) await field(page, label).fill(value);
}

const GOOD = { 'First Name': 'Olivia', 'Last Name': 'Nguyen', Email: 'olivia.nguyen@example.com', Phone: '0412 345 678', Postcode: '2000' };

async function shoot(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await photograph(page, { path: `docs/screenshots/leads-${name}-${width}.png`, fullPage: true });
  }
}

test('an enquiry with a bad email and postcode shows the exact messages and sends nothing; corrected, it lands on the success page', async ({ page }) => {
  const car = await firstCar(page, 'used');
  const requests = recordLeadRequests(page);
  // From the car page: Enquire Now opens the form in a dialog.
  await page.goto(siteUrl(SITE, `/cars/${car.slug}`));
  await page.getByRole('list', { name: 'Actions' }).getByRole('link', { name: 'Enquire Now' }).click();
  await expect(page.getByRole('dialog', { name: 'Enquire Now' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/cars/${car.slug}`);

  await fillDetails(page, { ...GOOD, Email: 'olivia.example.com', Postcode: '200' });
  await expect(field(page, 'Postcode')).toHaveAttribute('maxlength', '4');
  await field(page, 'Comments').fill('Is it still available for an inspection on Saturday?');
  await page.getByRole('button', { name: 'Enquire Now' }).click();

  const email = field(page, 'Email');
  await expect(page.getByText('invalid email address', { exact: true })).toBeVisible();
  await expect(page.getByText('Invalid postcode. Please enter a 4-digit number.', { exact: true })).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toBeFocused();
  await expect(email).toHaveAccessibleDescription('invalid email address');
  await shoot(page, 'enquiry-errors');
  expect(requests).toHaveLength(0);

  await email.fill(GOOD.Email);
  await field(page, 'Postcode').fill(GOOD.Postcode);
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads');
  await page.getByRole('button', { name: 'Enquire Now' }).click();
  expect((await response).status()).toBeLessThan(300);
  const { id } = await (await response).json();
  await page.waitForURL(/\/success\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('category')).toBe('used-vehicle-enquiry');
  expect(url.searchParams.get('car_id')).toBe(String(car.id));
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();

  expect(requests).toHaveLength(1);
  const sent = leadOf(requests[0]);
  expect(requests[0].headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  expect(sent).toMatchObject({
    name: 'Olivia Nguyen',
    first_name: 'Olivia',
    email: GOOD.Email,
    phone: '0412345678',
    postcode: '2000',
    category: 'Used Vehicle Enquiry',
    car_id: car.id,
    source: 'Website',
    favourite_color: '',
  });
  expect(sent.fill_ms).toBeGreaterThan(0);
  // The trail this browser kept (SPEC §4): the car page the enquiry was sent from.
  expect(sent.visited_pages).toContain(`/cars/${car.slug}`);
  await shoot(page, 'success');

  expect(await storedLead(page, id)).toMatchObject({ category: 'Used Vehicle Enquiry', email: GOOD.Email, car_id: car.id, lead_status: 'Complete', spam: false });
  expect(await outboxEmails(page, id)).toBe(1);

  // The details are kept in the browser and prefill the next form.
  await page.goto(siteUrl(SITE, `/request-photos?car_id=${car.id}`));
  await expect(field(page, 'Email')).toHaveValue(GOOD.Email);
  await expect(field(page, 'First Name')).toHaveValue('Olivia');
});

test('a two-step test drive saves an Incomplete lead after step 1 and completes it after step 2', async ({ page }) => {
  const car = await firstCar(page, 'new');
  const requests = recordLeadRequests(page);
  await page.goto(siteUrl(SITE, `/book-test-drive?car_id=${car.id}`));
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');

  // Validation runs on submit only.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('*This is a required field.').first()).toBeVisible();
  await expect(field(page, 'First Name')).toBeFocused();
  expect(requests).toHaveLength(0);

  await fillDetails(page, GOOD);
  const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads');
  await page.getByRole('button', { name: 'Continue' }).click();
  const createdBody = await (await created).json();
  expect(createdBody.id).toBeTruthy();
  expect(leadOf(requests[0])).toMatchObject({ lead_status: 'Incomplete', form_completed: false, step_number: 1, car_id: car.id });
  expect(await storedLead(page, createdBody.id)).toMatchObject({ lead_status: 'Incomplete', form_completed: false, step_number: 1 });
  expect(await outboxEmails(page, createdBody.id)).toBe(0);

  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
  await expect(page.getByRole('heading', { name: 'Choose a Time' })).toBeFocused();
  await shoot(page, 'test-drive-step-2');

  // Go Back and Continue again: the unchanged first step is not saved twice.
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expect(field(page, 'Email')).toHaveValue(GOOD.Email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();

  await field(page, 'Preferred time').selectOption('Morning');
  const updated = page.waitForResponse((r) => r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Book Test Drive' }).click();
  expect((await updated).status()).toBeLessThan(300);
  await page.waitForURL(/\/success\?category=new-vehicle-enquiry/);

  const puts = requests.filter((request) => request.method() === 'PUT');
  expect(puts).toHaveLength(1);
  const final = puts[0];
  expect(new URL(final.url()).pathname).toBe(`/api/leads/${createdBody.id}`);
  const finalLead = leadOf(final);
  expect(finalLead).toMatchObject({ lead_id: createdBody.id, lead_status: 'Complete', form_completed: true, step_number: 2, preferred_time: 'Morning' });
  expect(finalLead).not.toHaveProperty('email');
  expect(requests.filter((request) => request.method() === 'POST')).toHaveLength(1);
  expect(await storedLead(page, createdBody.id)).toMatchObject({
    lead_status: 'Complete',
    form_completed: true,
    step_number: 2,
    email: GOOD.Email,
    category: 'Test Drive Enquiry',
  });
  expect(await outboxEmails(page, createdBody.id)).toBe(1);
});

test('request photos needs no message', async ({ page }) => {
  const car = await firstCar(page, 'demo');
  const requests = recordLeadRequests(page);
  await page.goto(siteUrl(SITE, `/request-photos?car_id=${car.id}`));
  await fillDetails(page, GOOD);
  await page.getByRole('button', { name: 'Request Photos' }).click();
  await page.waitForURL(/\/success\?category=demo-vehicle-enquiry/);
  expect(leadOf(requests[0])).toMatchObject({ subcategory: 'Request Photos', message: null, car_id: car.id });
});

test('a careers enquiry is recorded as General Enquiry / Career Enquiry', async ({ page }) => {
  const requests = recordLeadRequests(page);
  await page.goto(siteUrl(SITE, '/careers'));
  const form = page.getByRole('form', { name: 'Careers Enquiry' });
  await expect(form).toBeVisible();
  await fillDetails(page, GOOD);
  await form.getByLabel('Position of interest').fill('Sales Consultant');
  await form.getByLabel('Tell us about yourself').fill('Five years selling cars in Parramatta.');
  // A CV goes with the lead (issue 31): a text file is refused in the browser, a PDF is sent multipart.
  await form.getByLabel(/^Your CV/).setInputFiles({ name: 'cv.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  // The spec's button (issue 31: it said 'Submit').
  await form.getByRole('button', { name: 'Enquire Now' }).click();
  await expect(form.getByText('Only photos (JPEG, PNG, WebP, HEIC) and PDF documents can be attached.', { exact: true })).toBeVisible();
  expect(requests).toHaveLength(0);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  await form.getByLabel(/^Your CV/).setInputFiles({ name: 'Olivia Nguyen CV.pdf', mimeType: 'application/pdf', buffer: pdf });
  await shoot(page, 'careers');
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/with-files');
  await form.getByRole('button', { name: 'Enquire Now' }).click();
  expect((await response).status()).toBeLessThan(300);
  const { id } = await (await response).json();
  await page.waitForURL(/\/success\?category=general-enquiry/);
  expect(requests.map((request) => new URL(request.url()).pathname)).toEqual(['/api/leads/with-files']);
  const stored = await storedLead(page, id);
  expect(stored).toMatchObject({ category: 'General Enquiry', subcategory: 'Career Enquiry', has_files: true, attributes: { position: 'Sales Consultant' } });
  // Listed and downloadable through the Dashboard API.
  const [file] = stored.files as { id: string; file_name: string }[];
  expect(file).toMatchObject({ file_name: 'Olivia Nguyen CV.pdf' });
  const download = await page.request.get(serverUrl(`/dealerships/${DEALERSHIP_ID}/leads/${id}/files/${file!.id}`), { headers: { authorization: dashboardAuth() } });
  expect(download.status()).toBe(200);
  expect((await download.body()).equals(pdf)).toBe(true);
});

test('the contact page carries the general contact form; a message reaches the chosen location', async ({ page }) => {
  const requests = recordLeadRequests(page);
  await page.goto(siteUrl(SITE, '/contact'));
  const section = page.locator('#contact-form');
  const form = section.locator('form');
  await expect(form).toBeVisible();
  for (const [label, value] of Object.entries(GOOD)) await section.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`)).fill(value);
  await form.getByLabel('Location').selectOption({ label: 'Harbour City Motors Parramatta' });
  await form.getByLabel(/^Comments/).fill('Are you open on the public holiday?');
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads');
  await form.getByRole('button', { name: /Enquire Now|Message Now|Submit/ }).click();
  expect((await response).status()).toBeLessThan(300);
  await page.waitForURL(/\/success\?category=general-enquiry/);
  expect(leadOf(requests[0])).toMatchObject({ category: 'General Enquiry', message: 'Are you open on the public holiday?' });
});

test('a trade-in valuation towards a car stores the lead and the vehicle as a valuation', async ({ page }) => {
  const car = await firstCar(page, 'used');
  const requests = recordLeadRequests(page);
  await page.goto(siteUrl(SITE, `/cars/trade-in?car_id=${car.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Trade-In Valuation' })).toBeVisible();
  await expect(page.getByText(car.name).first()).toBeVisible();
  await fillDetails(page, GOOD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await shoot(page, 'trade-in');

  await field(page, 'Registration \\(Rego\\)').fill('ABC<1>');
  await field(page, 'Odometer \\(km\\)').fill('85k');
  await page.getByRole('button', { name: 'Get Your Valuation' }).click();
  await expect(page.getByText('must be letters and digits')).toBeVisible();
  await expect(page.getByText('Please enter whole kilometres, digits only.')).toBeVisible();
  await expect(page.getByText('*This is a required field.').first()).toBeVisible();
  expect(requests).toHaveLength(1);

  await field(page, 'Registration \\(Rego\\)').fill('ABC123');
  await field(page, 'Registration state').selectOption('NSW');
  await field(page, 'Make').fill('Toyota');
  await field(page, 'Model').fill('Corolla');
  await field(page, 'Year').fill('2017');
  await field(page, 'Odometer \\(km\\)').fill('85,000');
  const valuation = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/valuations');
  await page.getByRole('button', { name: 'Get Your Valuation' }).click();
  const saved = await valuation;
  expect(saved.status()).toBe(201);
  expect((saved.request().postDataJSON() as { valuation: Record<string, unknown> }).valuation).toMatchObject({
    rego: 'ABC123',
    state: 'NSW',
    make: 'Toyota',
    year: 2017,
    km: 85000,
    car_id: car.id,
  });
  await page.waitForURL(/\/success\?category=trade-in-enquiry/);
  const leadId = (await (await requests[0].response())!.json()).id;
  expect(await storedLead(page, leadId)).toMatchObject({ category: 'Trade-In Enquiry', lead_status: 'Complete', car_id: car.id });
});

test('the honeypot is out of reach and the forms work with the keyboard', async ({ page }) => {
  await page.goto(siteUrl(SITE, '/service'));
  const honeypot = page.locator('input[name="favourite_color"]');
  await expect(honeypot).toHaveAttribute('tabindex', '-1');
  await expect(honeypot).toHaveAttribute('autocomplete', 'off');
  await expect(page.locator('[aria-hidden="true"]').filter({ has: honeypot })).toHaveCount(1);
  expect(await honeypot.isVisible()).toBe(true); // in the layout, but off screen
  const box = await honeypot.boundingBox();
  expect(box!.x + box!.width).toBeLessThan(0);

  await field(page, 'First Name').focus();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => document.activeElement?.getAttribute('name'));
    expect(name).not.toBe('favourite_color');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('type'))) === 'submit') break;
  }
  await page.keyboard.press('Enter');
  await expect(field(page, 'First Name')).toBeFocused();
  await shoot(page, 'service');
});

test('the enquiry pages answer on their routes', async ({ page }) => {
  for (const [path, heading] of [
    ['/trade-in', 'Trade-In Valuation'],
    ['/valuations', 'Trade-In Valuation'],
    ['/sell-my-car', 'Sell My Car'],
    ['/service', 'Book a Service'],
    ['/pages/book-a-service', 'Book a Service'],
    ['/vehicle-parts-and-accessories', 'Vehicle Parts and Accessories'],
    ['/pages/photography', 'Photography'],
  ] as const) {
    const response = await page.goto(siteUrl(SITE, path));
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  expect((await page.goto(siteUrl(SITE, '/enquire?car_id=999999999')))?.status()).toBe(404);
});
