/**
 * The hostile-request probe of issue 13, run by tests/security/run.mjs against a production server
 * on 127.0.0.1 (TRUSTED_PROXY_HOPS=1). Every response of every family must: not be a 5xx; carry the
 * security headers; not expose the internal rewrite. Each family adds its own expectations (an
 * answer for another website is a cross-tenant leak; a limit a forged header resets is a failure).
 * Bounded: a fixed list of requests, 8 at a time, nothing but 127.0.0.1.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';

const PORT = Number(process.env.SECURITY_PORT ?? 3260);
const KEY_A = process.env.SECURITY_KEY_A ?? '';
const KEY_B = process.env.SECURITY_KEY_B ?? '';
/** The dealerships the two keys belong to: A's on website A (harbour-city-mazda), B's on website B (kiwi-motors). */
const DEALERSHIP_A = process.env.SECURITY_DEALERSHIP_A ?? '';
const DEALERSHIP_B = process.env.SECURITY_DEALERSHIP_B ?? '';
const A = 'harbour-city-motors.localhost';
const B = 'kiwi-motors.localhost';
const CONCURRENCY = 8;
const REQUIRED_HEADERS = ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'permissions-policy'];

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };
type Request = { method?: string; path: string; host?: string; headers?: Record<string, string>; body?: string | Buffer; client?: string };
type Family = { name: string; requests: number; failures: string[] };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const families: Family[] = [];
let current: Family;

function family(name: string): Family {
  current = { name, requests: 0, failures: [] };
  families.push(current);
  return current;
}

function fail(message: string) {
  current.failures.push(message);
}

let clientCounter = 0;
/** A fresh client address, as the trusted proxy would append it. */
const freshClient = () => `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter++ & 255}`;

function send({ method = 'GET', path: requestPath, host = A, headers = {}, body, client = freshClient() }: Request): Promise<Answer> {
  const owner = current;
  owner.requests += 1;
  // A kept-alive socket the server closes as idle just as it is reused is reset before the request
  // reaches the server (Node's documented race): that one is sent again, once.
  const attempt = (again: boolean): Promise<Answer> => new Promise((resolve) => {
    const request = http.request(
      { host: '127.0.0.1', port: PORT, method, path: requestPath, agent, headers: { host, 'x-forwarded-for': client, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const answer = { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
          checkEveryAnswer(owner, `${method} ${host}${requestPath.slice(0, 120)}`, answer);
          resolve(answer);
        });
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (again && request.reusedSocket && error.code === 'ECONNRESET') return resolve(attempt(false));
      owner.failures.push(`${method} ${requestPath.slice(0, 120)}: ${error.message}`);
      resolve({ status: 0, headers: {}, body: '' });
    });
    if (body !== undefined) request.write(body);
    request.end();
  });
  return attempt(true);
}

function checkEveryAnswer(owner: Family, what: string, answer: Answer) {
  if (answer.status >= 500) owner.failures.push(`${what}: ${answer.status}`);
  const missing = REQUIRED_HEADERS.filter((name) => !answer.headers[name]);
  if (missing.length) owner.failures.push(`${what}: missing ${missing.join(', ')}`);
  if (answer.headers['x-middleware-rewrite'] !== undefined) owner.failures.push(`${what}: exposes x-middleware-rewrite`);
  if (String(answer.headers.location ?? '').includes('/sites/')) owner.failures.push(`${what}: redirects to an internal path`);
}

async function all<T>(items: T[], run: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

const json = (value: unknown) => JSON.stringify(value);
const jsonHeaders = { 'content-type': 'application/json' };
const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

function lead(overrides: Record<string, unknown> = {}) {
  return { name: 'Probe Visitor', email: `probe.${clientCounter}@example.com`, phone: `04${String(10_000_000 + clientCounter).slice(-8)}`, category: 'General Enquiry', message: 'Is it available?', ...overrides };
}

// ---------------------------------------------------------------------------------------------

async function malformedPaths() {
  family('malformed paths and encodings');
  const bases = ['/', '/cars/', '/motorcycles/', '/campers/', '/search/', '/search/used-cars/', '/media/', '/contact-us/', '/our-locations/', '/pages/', '/blog/', '/sitemaps/', '/api/leads/', '/api/search/', '/websites/1/cars/', '/dealerships/11/', '/_next/static/', '/cars/x/social-image/', '/success/', '/finance/'];
  const payloads = ['%ff', '%c0%ae', '%E0%A4%A', '%', '%%', '%2e%2e%2f', '..%2f..%2f..%2fetc%2fpasswd', '%00', '%0d%0aSet-Cookie:%20probe=1', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '%ED%A0%80', 'x'.repeat(3000), '%F0%9F%98%80', '..;/', '%252e%252e', '.%00.', '%C0%80', '~', '%u002e', 'a%2Fb'];
  const cases = bases.flatMap((base) => payloads.map((payload) => `${base}${payload}`));
  await all(cases, async (requestPath) => {
    for (const host of [A, B]) {
      const answer = await send({ path: requestPath, host });
      if (answer.body.includes('root:x:0:0')) fail(`${requestPath}: file contents`);
      if (answer.headers['set-cookie']?.some((cookie) => cookie.includes('probe=1'))) fail(`${requestPath}: header injection`);
    }
    const segment = requestPath.split('/').pop();
    if (!segment) return;
    const put = await send({ method: 'PUT', path: `/api/leads/${segment}`, headers: jsonHeaders, body: json({ lead: lead() }) });
    if (put.status < 400) fail(`PUT /api/leads/${segment}: ${put.status}`);
  });
}

async function methods() {
  family('methods');
  const pages = ['/', '/about-us', '/contact', '/search/used-cars', '/cars/anything', '/dev/outbox'];
  await all(pages, async (page) => {
    // TRACK and other methods Node's parser does not know never reach the app: Node answers 400 itself.
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE']) {
      const answer = await send({ method, path: page, headers: jsonHeaders, body: '{}' });
      if (answer.status !== 405) fail(`${method} ${page}: ${answer.status}, not 405`);
    }
    const options = await send({ method: 'OPTIONS', path: page });
    if (options.status >= 500) fail(`OPTIONS ${page}: ${options.status}`);
  });
  for (const method of ['TRACE']) {
    const answer = await send({ method, path: '/api/leads' });
    if (answer.status !== 405) fail(`${method} /api/leads: ${answer.status}`);
  }
}

async function leadBodies() {
  family('lead API bodies');
  const bodies: unknown[] = [
    null, [], 'lead', 42, {}, { lead: null }, { lead: [] }, { lead: 'x' }, { lead: { name: ['a'] } }, { lead: { email: { $gt: '' } } },
    { lead: lead({ name: 'x'.repeat(10_000) }) }, { lead: lead({ message: '\u0000' }) }, { lead: lead({ message: 'a\uD800b' }) },
    { lead: lead({ car_id: -1 }) }, { lead: lead({ car_id: 1e300 }) }, { lead: lead({ car_id: '1; drop table leads' }) }, { lead: lead({ location_id: 'NaN' }) },
    { lead: lead({ visited_pages: 'x' }) }, { lead: lead({ visited_pages: [null, 5, '\u0000'] }) }, { lead: lead({ linked_query_params: { 'a\u0000': 'b', c: '\uDC00' } }) },
    { lead: lead({ linked_query_params: [1, 2] }) }, { lead: lead({ url: `/x?${'q'.repeat(5000)}` }) }, { lead: lead({ step_number: 'two' }) },
    { lead: lead({ lead_status: 'Hacked' }) }, { lead: lead({ '<img src=x>': 1 }) }, { lead: lead({ nested: { deep: { deeper: 1 } } }) },
    { lead: { ...lead(), __proto__: { admin: true } } },
    ...['toString', '__proto__', 'constructor', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'].map((category) => ({ lead: lead({ category }) })),
  ];
  await all(bodies, async (body) => {
    const answer = await send({ method: 'POST', path: '/api/leads', headers: jsonHeaders, body: json(body) });
    if (answer.status !== 201 && (answer.status < 400 || answer.status >= 500)) fail(`POST /api/leads ${json(body).slice(0, 80)}: ${answer.status}`);
  });
  // A lead on website A that names website B's slug or B's dealership is refused, naming the field
  // (422), and stored nowhere: neither A's dealership nor B's lists it.
  const claims: [Record<string, string>, string[]][] = [
    [{ website_slug: 'kiwi-motors' }, ['lead.website_slug']],
    [{ dealership_slug: 'kiwi-motors' }, ['lead.dealership_slug']],
    [{ website_slug: 'kiwi-motors', dealership_slug: 'kiwi-motors' }, ['lead.website_slug', 'lead.dealership_slug']],
  ];
  const claimEmails: string[] = [];
  for (const [claim, fields] of claims) {
    const email = `probe.claim.${claimEmails.length}.${Date.now()}@example.com`;
    claimEmails.push(email);
    const answer = await send({ method: 'POST', path: '/api/leads', headers: jsonHeaders, body: json({ lead: lead({ ...claim, email }) }) });
    const named = (JSON.parse(answer.body || '{}') as { fields?: Record<string, string> }).fields ?? {};
    if (answer.status !== 422) fail(`lead on A claiming ${json(claim)}: ${answer.status}, expected 422`);
    for (const field of fields) if (!named[field]) fail(`lead on A claiming ${json(claim)}: ${field} not named (${json(named).slice(0, 120)})`);
  }
  for (const [dealership, key] of [[DEALERSHIP_A, KEY_A], [DEALERSHIP_B, KEY_B]]) {
    const answer = await send({ path: `/dealerships/${dealership}/leads.json?per_page=100`, headers: { authorization: basic(key) } });
    if (answer.status !== 200) fail(`leads of dealership ${dealership}: ${answer.status}`);
    const stored = ((JSON.parse(answer.body || '{}') as { leads?: { email?: string }[] }).leads ?? []).filter((l) => claimEmails.includes(l.email ?? ''));
    if (stored.length > 0) fail(`refused leads stored for dealership ${dealership}: ${stored.length}`);
  }
  const raw = ['{', '{"lead":', '\u0000', 'null', '{"lead":{"name":"a"}}'.repeat(5000), Buffer.from([0xff, 0xfe, 0x00])];
  await all(raw, async (body) => {
    const answer = await send({ method: 'POST', path: '/api/leads', headers: jsonHeaders, body });
    if (answer.status < 400) fail(`POST /api/leads raw body: ${answer.status}`);
  });
  for (const key of ['x'.repeat(300), 'a b', '']) {
    const answer = await send({ method: 'POST', path: '/api/leads', headers: { ...jsonHeaders, 'idempotency-key': key }, body: json({ lead: lead() }) });
    if (answer.status !== 400) fail(`Idempotency-Key '${key.slice(0, 10)}': ${answer.status}`);
  }
}

async function otherApiBodies() {
  family('other API bodies');
  const ids = { car_id: 1, dealership_id: 1, website_id: 1 };
  // Each hostile body with the answer it must get: the status, and for a refusal the fields it
  // names (every bad input gets a 4xx naming the field). A few bodies are harmless and taken: a NUL
  // searched for finds nothing special, a key named toString is data, car 1 is not this website's.
  type Expected = { status: number; fields?: string[] };
  const cases: [string, string, unknown, Expected][] = [
    ['POST', '/api/search', { q: 'x'.repeat(10_000) }, { status: 400, fields: ['q'] }],
    ['POST', '/api/search', { filters: { price: { min: 'a' } } }, { status: 400, fields: ['filters.price.min'] }],
    ['POST', '/api/search', { limit: -1 }, { status: 400, fields: ['limit'] }],
    ['POST', '/api/search', { sort: '__proto__' }, { status: 400, fields: ['sort'] }],
    ['POST', '/api/search', { facets: ['constructor'] }, { status: 400, fields: ['facets.0'] }],
    ['POST', '/api/search', { q: '\u0000' }, { status: 200 }],
    ['POST', '/api/search', [], { status: 400, fields: ['body'] }],
    ['POST', '/api/valuations', { valuation: { vin: '\u0000' } }, { status: 422, fields: ['valuation.vin'] }],
    ['POST', '/api/valuations', { valuation: { lead_id: 'not-a-uuid' } }, { status: 422, fields: ['valuation.lead_id'] }],
    ['PUT', '/api/valuations', { valuation: { id: '00000000-0000-0000-0000-000000000000' } }, { status: 404 }],
    ['POST', '/api/miscellaneous', { column_name: '__proto__', data: {} }, { status: 422, fields: ['column_name'] }],
    ['POST', '/api/miscellaneous', { column_name: 'a', data: { toString: 1 } }, { status: 200 }],
    ['POST', '/api/phone-reveal', { ...ids, car_id: 'x' }, { status: 400, fields: ['car_id'] }],
    ['POST', '/api/phone-reveal', { ...ids, extra: 1 }, { status: 400, fields: ['extra'] }],
    ['POST', '/api/events/car_phone_call', { ...ids, url: '\u0000\uD800' }, { status: 404 }],
    ['POST', '/api/phone-codes', { phone: '\u0000' }, { status: 422, fields: ['phone'] }],
    ['POST', '/api/phone-codes', { phone: '+44 7700 900123' }, { status: 422, fields: ['phone'] }],
    ['POST', '/api/phone-codes/verify', { phone: '0412345678', code: { $ne: 1 } }, { status: 422, fields: ['code'] }],
    ['POST', '/api/rate-limit', { phone: ['x'] }, { status: 422, fields: ['phone'] }],
    ['POST', '/api/rate-limit', {}, { status: 422, fields: ['phone'] }],
    ['POST', '/api/nevdis', { vin: '\u0000' }, { status: 422, fields: ['vin'] }],
    ['POST', '/api/nevdis', { rego: 'x'.repeat(1000), state: 'NSW' }, { status: 422, fields: ['rego'] }],
    ['POST', '/api/simple-autograb-lookup', { make: '__proto__', model: 'x', year: 2020, km: 1 }, { status: 422, fields: ['make'] }],
    ['POST', '/api/youx/quote', { purchasePrice: '1e309', loanTerm: [], selfAssessedCreditScore: { $gt: '' } }, { status: 422, fields: ['purchasePrice', 'loanTerm', 'selfAssessedCreditScore'] }],
    ['POST', '/api/youx/quote', { year: '\u0000' }, { status: 422, fields: ['year'] }],
    ['POST', '/api/youx/create-customer', { data: { phoneNumber: '0412345678', firstName: 'x'.repeat(10_000) }, additionalData: { car_id: '1 or 1=1' } }, { status: 422, fields: ['data.firstName'] }],
    ['POST', '/api/youx/create-customer', { data: [], additionalData: 'x' }, { status: 422, fields: ['data', 'additionalData'] }],
    ['POST', '/api/carClarityCustomer', { constructor: { prototype: { x: 1 } } }, { status: 422, fields: ['data'] }],
  ];
  await all(cases, async ([method, requestPath, body, expected]) => {
    const answer = await send({ method, path: requestPath, headers: jsonHeaders, body: json(body) });
    const what = `${method} ${requestPath} ${json(body).slice(0, 60)}`;
    if (answer.status !== expected.status) return fail(`${what}: ${answer.status}, expected ${expected.status}`);
    let parsed: { error?: unknown; fields?: Record<string, unknown> } = {};
    try {
      parsed = JSON.parse(answer.body) as typeof parsed;
    } catch {
      return fail(`${what}: the answer is not JSON`);
    }
    if (expected.status >= 400 && (typeof parsed.error !== 'string' || parsed.error === '')) fail(`${what}: no error message`);
    for (const field of expected.fields ?? []) {
      const reason = parsed.fields?.[field];
      if (typeof reason !== 'string' || reason === '') fail(`${what}: does not name ${field} with a reason (${json(parsed.fields ?? {}).slice(0, 120)})`);
    }
  });
  // The contact check: a malformed number is refused with a message; the first of two values counts.
  for (const value of ['', '%00', '%ff', 'x'.repeat(500), '%2B44%207700%20900123']) {
    const answer = await send({ path: `/api/check-if-contact-exists?phone_number=${value}` });
    const parsed = (() => {
      try {
        return JSON.parse(answer.body) as { data?: unknown; error?: unknown };
      } catch {
        return {};
      }
    })();
    if (answer.status !== 422 || typeof parsed.error !== 'string' || parsed.error === '' || parsed.data !== null) {
      fail(`check-if-contact-exists ${value.slice(0, 20)}: ${answer.status} ${answer.body.slice(0, 80)}`);
    }
  }
  const repeated = await send({ path: '/api/check-if-contact-exists?phone_number=0412345678&phone_number=1' });
  if (repeated.status !== 200 || json(JSON.parse(repeated.body || '{}')) !== json({ data: { exists: false }, error: null })) {
    fail(`check-if-contact-exists with two numbers: ${repeated.status} ${repeated.body.slice(0, 80)}`);
  }
  const authHeaders = ['Basic', 'Basic !!!', `Basic ${'A'.repeat(5000)}`, basic('dk_000000000000000000000000:x'), basic(':'), basic('\u0000:\u0000'), 'Bearer x', basic(`${KEY_A.split(':')[0]}:wrong`)];
  await all(authHeaders, async (authorization) => {
    const answer = await send({ path: '/websites/1/cars/x.json', headers: { authorization } });
    if (answer.status !== 401 && answer.status !== 429) fail(`dashboard auth ${authorization.slice(0, 20)}: ${answer.status}`);
  });
}

async function crossSite() {
  family('cross-site writes (CSRF)');
  const endpoints: [string, string, string][] = [
    ['POST', '/api/leads', json({ lead: lead() })], ['PUT', '/api/leads/00000000-0000-0000-0000-000000000000', json({ lead: {} })], ['POST', '/api/leads/with-files', json({ lead: lead() })],
    ['POST', '/api/valuations', json({ valuation: {} })], ['PUT', '/api/valuations', json({ valuation: {} })], ['POST', '/api/miscellaneous', json({ column_name: 'a', data: {} })],
    ['POST', '/api/phone-reveal', json({ car_id: 1, dealership_id: 1, website_id: 1 })], ['POST', '/api/events/car_phone_call', json({ car_id: 1, dealership_id: 1, website_id: 1 })],
    ['POST', '/api/nevdis', json({ vin: '1HGCM82633A004352' })], ['POST', '/api/phone-codes', json({ phone: '0412345678' })],
    ['POST', '/api/phone-codes/verify', json({ phone: '0412345678', code: '123456' })], ['POST', '/api/rate-limit', json({ phone: '0412345678' })], ['POST', '/api/simple-autograb-lookup', json({ make: 'Mazda', model: 'CX-5', year: 2020, km: 1 })],
    ['POST', '/api/youx/quote', json({ purchasePrice: 30000 })], ['POST', '/api/youx/create-customer', json({ data: {} })], ['POST', '/api/carClarityCustomer', json({ data: {} })],
  ];
  const foreign: Record<string, string>[] = [
    { 'content-type': 'text/plain' },
    { 'content-type': 'application/x-www-form-urlencoded' },
    { ...jsonHeaders, origin: 'https://evil.example' },
    { ...jsonHeaders, origin: `http://${B}:${PORT}` },
    { ...jsonHeaders, origin: 'null' },
    { ...jsonHeaders, 'sec-fetch-site': 'cross-site' },
    { ...jsonHeaders, 'sec-fetch-site': 'same-site' },
  ];
  const cases = endpoints.flatMap((endpoint) => foreign.map((headers) => [endpoint, headers] as const));
  await all(cases, async ([[method, requestPath, body], headers]) => {
    // The no-JavaScript phone reveal is a documented form post: only its Origin is checked.
    if (requestPath === '/api/phone-reveal' && headers['content-type'] === 'application/x-www-form-urlencoded') return;
    const answer = await send({ method, path: requestPath, headers, body });
    if (answer.status !== 403 && answer.status !== 415) fail(`${method} ${requestPath} ${json(headers)}: ${answer.status}`);
  });
  const dashboard = await send({ method: 'DELETE', path: '/websites/1/cars/anything.json', headers: { authorization: basic(KEY_A), origin: 'https://evil.example' } });
  if (dashboard.status !== 403) fail(`Dashboard DELETE from a foreign origin: ${dashboard.status}`);
}

async function crossTenant() {
  family('cross-tenant answers');
  const search = await send({ method: 'POST', path: '/api/search', headers: jsonHeaders, body: json({ limit: 5 }) });
  const hits = (JSON.parse(search.body || '{}').hits ?? []) as { id: number; slug: string }[];
  if (hits.length === 0) fail('no car on website A to probe with');
  const created = await send({ method: 'POST', path: '/api/leads', headers: jsonHeaders, body: json({ lead: lead({ lead_status: 'Incomplete', form_completed: false }) }) });
  const { id, token } = JSON.parse(created.body || '{}') as { id?: string; token?: string };
  if (created.status !== 201 || !id || !token) fail(`lead on A not created: ${created.status}`);
  const checks: [string, Request, (status: number) => boolean][] = [
    ['A’s lead changed on B’s host', { method: 'PUT', host: B, path: `/api/leads/${id}`, headers: { ...jsonHeaders, 'x-edit-token': token ?? '' }, body: json({ lead: { message: 'from B' } }) }, (s) => s === 404],
    ['A’s lead changed without its token', { method: 'PUT', path: `/api/leads/${id}`, headers: jsonHeaders, body: json({ lead: { message: 'no token' } }) }, (s) => s === 404],
    // Served (200, from this machine, as 'demo outbox' checks) but B's own: A's lead is not in it (below).
    ['website A’s outbox from B', { host: B, path: '/dev/outbox', client: '127.0.0.1', headers: { 'x-dealer-client-address': '127.0.0.1' } }, (s) => s === 200],
    ['key B reads website 1', { path: `/websites/1/cars/${hits[0]?.slug}.json`, headers: { authorization: basic(KEY_B) } }, (s) => s === 404],
    ['key B reads dealership 11’s leads', { path: '/dealerships/11/leads.json', headers: { authorization: basic(KEY_B) } }, (s) => s === 404],
    ['key A reads website 7', { path: '/websites/7/pages/search_slugs.json', headers: { authorization: basic(KEY_A) } }, (s) => s === 404],
  ];
  for (const hit of hits) {
    checks.push([`A’s car ${hit.slug} on B`, { host: B, path: `/cars/${hit.slug}` }, (s) => s === 404]);
    checks.push([`A’s social image on B`, { host: B, path: `/cars/${hit.slug}/social-image` }, (s) => s === 404]);
  }
  for (const [what, request, ok] of checks) {
    const answer = await send(request);
    if (!ok(answer.status)) fail(`${what}: ${answer.status}`);
    if (what.includes('outbox') && id && answer.body.includes(id)) fail(`${what}: shows A's lead`);
  }
  // A's car revealed through B's host: the website is B's (the Host), so A's ids name no car of it
  // and the route answers its NotFoundError, 404 {"error":"Not found"}, with no phone. The body
  // carries the car's real dealership (read through key A) and the same body on A's own host
  // answers 200 with the number, so B's host alone is what refuses it.
  for (const hit of hits) {
    const car = await send({ path: `/websites/1/cars/${hit.slug}.json`, headers: { authorization: basic(KEY_A) } });
    const dealershipId = (JSON.parse(car.body || '{}') as { dealership_id?: unknown }).dealership_id;
    if (car.status !== 200 || typeof dealershipId !== 'number') {
      fail(`A’s car ${hit.slug} through key A: ${car.status}`);
      continue;
    }
    const body = json({ car_id: hit.id, dealership_id: dealershipId, website_id: 1 });
    const onB = await send({ method: 'POST', host: B, path: '/api/phone-reveal', headers: jsonHeaders, body });
    if (onB.status !== 404 || onB.body !== json({ error: 'Not found' })) fail(`A’s car ${hit.slug} revealed on B: ${onB.status} ${onB.body.slice(0, 120)}`);
    const onA = await send({ method: 'POST', host: A, path: '/api/phone-reveal', headers: jsonHeaders, body });
    if (onA.status !== 200 || typeof (JSON.parse(onA.body || '{}') as { phone?: unknown }).phone !== 'string') fail(`A’s car ${hit.slug} revealed on A (the control): ${onA.status} ${onA.body.slice(0, 120)}`);
  }
}

async function forgedHeaders() {
  family('limits under forged client headers');
  // One client (the address the trusted proxy appends) that forges everything else, every time.
  const client = '198.51.100.77';
  const statuses: number[] = [];
  for (let i = 0; i < 31; i += 1) {
    const answer = await send({
      method: 'POST',
      path: '/api/leads',
      headers: { ...jsonHeaders, 'x-real-ip': `10.1.1.${i}`, forwarded: `for=10.2.2.${i}`, 'x-dealer-client-address': `10.3.3.${i}`, 'x-forwarded-for': `10.4.4.${i}, ${client}` },
      body: json({ lead: lead() }),
      client: `10.4.4.${i}, ${client}`,
    });
    statuses.push(answer.status);
  }
  if (statuses.at(-1) !== 429) fail(`the 31st lead from one client with forged headers: ${statuses.at(-1)} (limit reset)`);
  const logins: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const answer = await send({ path: '/websites/1/cars/x.json', headers: { authorization: basic(`${KEY_A.split(':')[0]}:wrong-${i}`), 'x-real-ip': `10.5.5.${i}` }, client: `10.6.6.${i}, 198.51.100.78` });
    logins.push(answer.status);
  }
  if (logins.at(-1) !== 429) fail(`failed Dashboard logins with forged headers: ${logins.join(',')}`);
  const reveals: number[] = [];
  for (let i = 0; i < 61; i += 1) {
    const answer = await send({ method: 'POST', path: '/api/phone-reveal', headers: jsonHeaders, body: json({ car_id: 1, dealership_id: 1, website_id: 1 }), client: `10.7.7.${i}, 198.51.100.79` });
    reveals.push(answer.status);
  }
  if (reveals.at(-1) !== 429) fail(`phone reveals past the limit with forged headers: ${reveals.at(-1)}`);
}

async function demoOutbox() {
  family('demo outbox');
  const cases: [string, number][] = [['203.0.113.9', 404], ['127.0.0.1, 203.0.113.9', 404], ['127.0.0.1', 200]];
  for (const [client, expected] of cases) {
    const answer = await send({ path: '/dev/outbox', client, headers: { 'x-dealer-client-address': '127.0.0.1' } });
    if (answer.status !== expected) fail(`/dev/outbox from ${client}: ${answer.status}, expected ${expected}`);
  }
}

function rawRequest(lines: string): Promise<string> {
  current.requests += 1;
  return new Promise((resolve) => {
    const socket = net.connect(PORT, '127.0.0.1', () => socket.write(lines));
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
  });
}

async function requestLines() {
  family('request lines and hosts');
  const foreign = await rawRequest(`GET http://evil.example/about-us HTTP/1.1\r\nHost: ${A}\r\nConnection: close\r\n\r\n`);
  if (!foreign.startsWith('HTTP/1.1 400')) fail(`absolute-form for another host: ${foreign.split('\r\n')[0]}`);
  if (/location:\s*http:\/\/evil/i.test(foreign)) fail('absolute-form redirected to another host');
  const own = await rawRequest(`GET http://${A}/about-us HTTP/1.1\r\nHost: ${A}\r\nConnection: close\r\n\r\n`);
  if (!own.startsWith('HTTP/1.1 200')) fail(`absolute-form for its own host: ${own.split('\r\n')[0]}`);
  const pagePath = '/search/used-cars';
  await send({ path: pagePath, host: A });
  for (const host of [A.toUpperCase(), `${A}:${PORT}`, `${A}.`]) {
    const answer = await send({ path: pagePath, host });
    if (answer.headers['x-page-cache'] !== 'hit') fail(`page cache key differs for Host ${host}: ${answer.headers['x-page-cache']}`);
  }
  for (const host of ['', 'evil.example', 'a'.repeat(300), '127.0.0.1', '[::1]', `${A}:99999`, 'localhost', 'x..y']) {
    const answer = await send({ path: '/', host });
    if (answer.status >= 500) fail(`Host ${host.slice(0, 20)}: ${answer.status}`);
  }
  const health = await send({ path: '/api/health', host: 'evil.example' });
  if (/pglite|postgres/i.test(health.body)) fail(`/api/health names the database: ${health.body}`);
}

// ---- issue 33: abuse limits across the platform --------------------------------------------

/** The demo websites that use phone codes with Australian mobiles (instant finance, AUD). */
const AUD_SITES = ['harbour-city-motors', 'southern-cross-skoda', 'outback-trucks', 'coastline-motorcycles', 'wanderer-rv', 'gold-coast-used-cars'].map((slug) => `${slug}.localhost`);
/** The demo website with neither sign-in nor instant finance: it must send no SMS at all. */
const NO_CODES = 'lone-star-auto.localhost';
const TOO_MANY_CODES = 'Too many verification attempts. Please try again later.';
let phoneCounter = 0;
/** A fresh Australian mobile number, local form, and its E.164. */
function probeMobile(): { local: string; e164: string } {
  const digits = String(20_000_000 + (phoneCounter += 1) * 7 + (process.pid % 1000) * 10_000).slice(-8);
  return { local: `04${digits}`, e164: `+614${digits}` };
}
const errorOf = (answer: Answer) => {
  try {
    return (JSON.parse(answer.body) as { error?: string }).error ?? null;
  } catch {
    return null;
  }
};

async function smsLimitsAcrossWebsites() {
  family('SMS limits across websites');
  // One phone asks every Australian website at once: one code in all, the rest refused with the message.
  const phone = probeMobile();
  const answers = await Promise.all(AUD_SITES.map((host) => send({ method: 'POST', host, path: '/api/phone-codes', headers: jsonHeaders, body: json({ phone: phone.local }) })));
  const sent = answers.filter((a) => a.status === 200).length;
  if (sent !== 1) fail(`one phone on ${AUD_SITES.length} websites at once: ${sent} codes sent, expected 1`);
  for (const answer of answers.filter((a) => a.status !== 200)) {
    if (answer.status !== 429 || errorOf(answer) !== TOO_MANY_CODES) fail(`a refused code: ${answer.status} ${answer.body.slice(0, 80)}`);
    if (!/^\d+$/.test(String(answer.headers['retry-after'] ?? ''))) fail('a refused code without Retry-After');
  }
  // One client address: 10 codes an hour in all, whichever websites it asks (2 on each of 5), then none anywhere.
  const client = '198.51.100.90';
  const statuses: number[] = [];
  for (let i = 0; i < 10; i += 1) statuses.push((await send({ method: 'POST', host: AUD_SITES[i % 5], path: '/api/phone-codes', headers: jsonHeaders, body: json({ phone: probeMobile().local }), client })).status);
  if (statuses.some((status) => status !== 200)) fail(`10 codes from one address over 5 websites: ${statuses.join(',')}`);
  for (const host of AUD_SITES) {
    const answer = await send({ method: 'POST', host, path: '/api/phone-codes', headers: jsonHeaders, body: json({ phone: probeMobile().local }), client });
    if (answer.status !== 429 || errorOf(answer) !== TOO_MANY_CODES) fail(`code 11+ from one address on ${host}: ${answer.status}`);
  }
  // A website with neither sign-in nor instant finance sends nothing and has no code routes.
  for (const [requestPath, body] of [
    ['/api/phone-codes', { phone: '(512) 555-0123' }],
    ['/api/phone-codes/verify', { phone: '(512) 555-0123', code: '123456' }],
    ['/api/rate-limit', { phone: '(512) 555-0123' }],
  ] as const) {
    const answer = await send({ method: 'POST', host: NO_CODES, path: requestPath, headers: jsonHeaders, body: json(body) });
    if (answer.status !== 404) fail(`${requestPath} on ${NO_CODES}: ${answer.status}, expected 404`);
  }
}

/** The code the demo outbox (loopback only) shows for this number on this website. */
async function codeFromOutbox(host: string, e164: string): Promise<string | null> {
  const page = await send({ host, path: '/dev/outbox', client: '127.0.0.1' });
  const match = new RegExp(`data-sms-to="${e164.replace('+', '\\+')}"[^>]*>\\s*(\\d{6}) is your`).exec(page.body);
  return match?.[1] ?? null;
}

async function oneTimeVerification() {
  family('phone verification used once');
  const phone = probeMobile();
  const client = freshClient();
  const sent = await send({ method: 'POST', path: '/api/phone-codes', headers: jsonHeaders, body: json({ phone: phone.local, first_name: 'Probe' }), client });
  const code = sent.status === 200 ? await codeFromOutbox(A, phone.e164) : null;
  if (!code) return fail(`no code to verify with (${sent.status})`);
  const verified = await send({ method: 'POST', path: '/api/phone-codes/verify', headers: jsonHeaders, body: json({ phone: phone.local, code }), client });
  const cookie = (verified.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('dp_phone_verification='));
  if (verified.status !== 200 || !cookie) return fail(`verify: ${verified.status}, cookie ${cookie ?? 'none'}`);
  const application = json({
    data: { selfAssessedCreditScore: 'GREAT', purchasePrice: 30000, loanTerm: 5, phoneNumber: phone.local, firstName: 'Probe', lastName: 'Visitor', email: 'probe@example.com', subscribe: false, postCode: '2000' },
    additionalData: { category: 'Finance Enquiry', lead_attributes: {} },
  });
  const apply = (headers: Record<string, string>, host = A) => send({ method: 'POST', host, path: '/api/youx/create-customer', headers: { ...jsonHeaders, ...headers }, body: application, client });
  // Another client, without the cookie, cannot use the verification; nor can another website.
  for (const [what, answer] of [
    ['without the cookie', await apply({})],
    ['with a forged cookie', await apply({ cookie: 'dp_phone_verification=forged' })],
    ['on another website', await apply({ cookie }, AUD_SITES[1])],
  ] as const) {
    if (answer.status !== 403) fail(`finance application ${what}: ${answer.status}, expected 403`);
  }
  const first = await apply({ cookie });
  if (first.status !== 200 || !/redirectUrl/.test(first.body)) fail(`the verified application: ${first.status} ${first.body.slice(0, 80)}`);
  const second = await apply({ cookie });
  if (second.status !== 403) fail(`a second application on one verification: ${second.status}, expected 403`);
}

async function reservationIdempotency() {
  family('reservation Idempotency-Key');
  const client = freshClient();
  const search = await send({ method: 'POST', path: '/api/search', headers: jsonHeaders, body: json({ limit: 40 }) });
  const hits = (JSON.parse(search.body || '{}').hits ?? []) as { id: number }[];
  let carId: number | null = null;
  for (const hit of hits) {
    const quote = await send({ path: `/api/checkout/quote?car_id=${hit.id}`, client });
    if (quote.status === 200 && JSON.parse(quote.body).eligible === true) {
      carId = hit.id;
      break;
    }
  }
  if (carId === null) return fail('no reservable car on website A to probe with');
  const visitor = (name: string, phone: string) => ({ car_id: carId, visitor: { name, last_name: 'Probe', email: `${name.toLowerCase()}@example.com`, phone, postcode: '2000' }, terms_accepted: true });
  const mine = json(visitor('Alice', probeMobile().local));
  const key = { ...jsonHeaders, 'idempotency-key': `probe-${process.pid}-${Date.now()}` };
  const start = (body: string, headers: Record<string, string> = key) => send({ method: 'POST', path: '/api/checkout/reservations', headers, body, client });
  const first = await start(mine);
  if (first.status !== 201) return fail(`the first start: ${first.status} ${first.body.slice(0, 120)}`);
  const { reservation, token } = JSON.parse(first.body) as { reservation: { id: string }; token: string };
  const again = await start(mine);
  const repeated = again.status === 200 ? (JSON.parse(again.body) as { reservation: { id: string }; token: string }) : null;
  if (!repeated || repeated.reservation.id !== reservation.id || repeated.token !== token) fail(`the same request again: ${again.status}, not the same reservation and token`);
  for (const [what, answer] of [
    ['another visitor', await start(json(visitor('Mallory', probeMobile().local)))],
    ['another lead token', await start(mine, { ...key, 'x-edit-token': 'not-alices' })],
  ] as const) {
    if (answer.status !== 422) fail(`the key with ${what}: ${answer.status}, expected 422`);
    if (answer.body.includes(reservation.id) || answer.body.includes(token)) fail(`the key with ${what}: the answer names the reservation`);
  }
  const status = await send({ path: `/api/checkout/reservations/${reservation.id}`, headers: { 'x-reservation-token': token }, client });
  if (status.status !== 200) fail(`the first token after the repeats: ${status.status}, expected 200 (not voided)`);
}

async function csvFeeds() {
  family('CSV feeds: formula cells');
  const hostile = { make: '@SUM(1+1)', model: '=HYPERLINK("http://evil.example","x")', badge: '+cmd', colour: '-2+3' };
  const put = await send({
    method: 'PUT',
    path: '/websites/1/cars/probe-formula.json',
    headers: { ...jsonHeaders, authorization: basic(KEY_A) },
    body: json({ ...hostile, year: 2021, km: 10_000, price: 25_990, car_type: 'used', images: ['/media/probe-formula.jpg'] }),
  });
  if (put.status !== 200 && put.status !== 201) fail(`the Dashboard API did not take the hostile car: ${put.status} ${put.body.slice(0, 120)}`);
  let seen = false;
  for (const host of [...AUD_SITES, B, NO_CODES]) {
    const feed = await send({ host, path: '/feeds/meta-vehicles.csv' });
    if (feed.status !== 200) continue;
    const rows = parseCsv(feed.body) as string[][];
    for (const cell of rows.flat()) {
      if (/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell))) fail(`${host}: a cell starts a formula: ${cell.slice(0, 60)}`);
    }
    if (host === A) seen = rows.some((row) => row.includes(`'${hostile.make}`) && row.includes(`'${hostile.model}`));
  }
  if (!seen) fail('the hostile car is not in website A’s CSV feed, neutralised');
}

async function junkHosts() {
  family('junk hosts and return URLs');
  for (const host of [`${A}:80@evil.example`, `${A}:${PORT}@evil.example`, `${A}:80/x`, `${A}:x`, `${A}@evil.example`]) {
    for (const [method, requestPath, body] of [
      ['GET', '/', undefined],
      ['GET', '/feeds/meta-vehicles.csv', undefined],
      ['POST', '/api/checkout/reservations', json({ car_id: 1 })],
      ['POST', '/api/phone-codes', json({ phone: probeMobile().local })],
    ] as const) {
      const answer = await send({ method, host, path: requestPath, headers: body ? jsonHeaders : {}, body });
      if (answer.status !== 400) fail(`${method} ${requestPath} with Host ${host}: ${answer.status}, expected 400`);
      if (answer.body.includes('evil.example')) fail(`${method} ${requestPath} with Host ${host}: the answer names evil.example`);
    }
  }
}

async function vinDecodes() {
  family('VIN decodes');
  // Offline decodes from many clients on one website: all answered from the vPIC data, none refused
  // for the website's provider quota (only a paid lookup counts against it).
  const clients = Array.from({ length: 40 }, () => freshClient());
  await all(clients, async (client) => {
    const answer = await send({ method: 'POST', host: AUD_SITES[2], path: '/api/nevdis', headers: jsonHeaders, body: json({ vin: '1HGCM82633A004352' }), client });
    if (answer.status !== 200 || !/"make":"Honda"/.test(answer.body)) fail(`an offline VIN decode: ${answer.status} ${answer.body.slice(0, 80)}`);
  });
}

/** A client that sends half its headers and stops: the server must close it, not hold it a minute. */
function slowClient(limitMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const opened = Date.now();
    const socket = net.connect(PORT, '127.0.0.1', () => socket.write(`GET / HTTP/1.1\r\nHost: ${A}\r\nX-Slow: `));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, limitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - opened);
    });
    socket.on('error', () => {});
    // Read what the server answers (its 408), or the socket never sees the end and never closes.
    socket.resume();
  });
}

async function socialImages() {
  family('cached social images');
  const search = await send({ method: 'POST', path: '/api/search', headers: jsonHeaders, body: json({ limit: 20 }) });
  const hits = (JSON.parse(search.body || '{}').hits ?? []) as { slug: string }[];
  for (const hit of hits) {
    const first = await send({ path: `/cars/${hit.slug}/social-image` });
    if (first.status !== 200) continue;
    const etag = String(first.headers.etag ?? '');
    if (!etag) fail('social image without an ETag');
    const again = await send({ path: `/cars/${hit.slug}/social-image` });
    if (again.headers.etag !== etag) fail('social image ETag changed between two requests');
    const revalidated = await send({ path: `/cars/${hit.slug}/social-image`, headers: { 'if-none-match': etag } });
    if (revalidated.status !== 304) fail(`If-None-Match on the social image: ${revalidated.status}`);
    return;
  }
  fail('no car with a social image to probe');
}

const started = Date.now();
// Runs beside the families. Node checks the header timeout every 30 s: with the platform's 10 s it
// closes within 40 s (some slack for the load here); with Node's default 60 s never before 60 s.
const SLOW_LIMIT_MS = 55_000;
const slow = slowClient(SLOW_LIMIT_MS);
await malformedPaths();
await methods();
await leadBodies();
await otherApiBodies();
await crossSite();
await crossTenant();
await forgedHeaders();
await demoOutbox();
await requestLines();
await socialImages();
await smsLimitsAcrossWebsites();
await oneTimeVerification();
await reservationIdempotency();
await csvFeeds();
await junkHosts();
await vinDecodes();
family('slow requests').requests += 1;
const closedAfter = await slow;
if (closedAfter === null) fail(`a request with half its headers was held open ${SLOW_LIMIT_MS / 1000} s`);
else console.log(`  a request with half its headers was closed after ${(closedAfter / 1000).toFixed(1)} s`);
agent.destroy();

const total = families.reduce((sum, f) => sum + f.requests, 0);
const failed = families.filter((f) => f.failures.length > 0);
console.log(`\nSecurity probe: ${total} hostile requests in ${((Date.now() - started) / 1000).toFixed(1)} s against 127.0.0.1:${PORT}`);
for (const f of families) {
  console.log(`  ${f.failures.length ? '✗' : '✓'} ${f.name}: ${f.requests} requests${f.failures.length ? `, ${f.failures.length} failures` : ''}`);
  for (const message of f.failures.slice(0, 8)) console.log(`      ${message}`);
}
if (total < 1000) {
  console.log(`  ✗ fewer than 1,000 requests (${total})`);
  failed.push({ name: 'count', requests: total, failures: ['fewer than 1,000 requests'] });
}
const results = { passed: families.length - failed.length, failed: failed.length, requests: total };
fs.mkdirSync(path.resolve('.test-results'), { recursive: true });
fs.writeFileSync(path.resolve('.test-results/security.json'), JSON.stringify(results));
console.log(`security: ${results.passed} passed, ${results.failed} failed`);
process.exit(failed.length ? 1 : 0);
