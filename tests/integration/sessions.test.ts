import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as sendCode } from '@/app/api/phone-codes/route';
import { GET as authRoute } from '@/app/api/auth/route';
import { POST as signInRoute } from '@/app/api/auth/sign-in/route';
import { POST as signInFormRoute } from '@/app/api/auth/sign-in/form/route';
import { postedSignIn } from '@/modules/identity/identity.sign-in';
import { POST as refreshRoute } from '@/app/api/auth/refresh/route';
import { POST as signOutRoute } from '@/app/api/auth/sign-out/route';
import { ACCESS_TOKEN_SECONDS, currentUser, findOrCreateCustomer, refreshSession, signOut, startSession, verifyAccessToken, platformSecret } from '@/modules/identity/identity.sessions';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { createHash } from 'node:crypto';
import { sessions, customers } from '@/modules/identity/identity.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { cars } from '@/modules/stock/stock.schema';
import { analyticsEvents } from '@/modules/widgets/widgets.schema';
import { POST as garageSave } from '@/app/api/garage/route';
import { DELETE as garageRemove } from '@/app/api/garage/[carId]/route';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';

let counter = 0;
const mobile = () => `0413 ${String(200 + (counter += 1)).padStart(3, '0')} ${String(300 + counter).slice(-3)}`;

type Jar = Record<string, string>;

describe('phone sign-in sessions', () => {
  let db: Db;
  let w: LeadWorld;
  let tenantA: Tenant;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
    const [a] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
    await db.update(websites).set({ config: { ...a.config, phoneSignIn: { enabled: true }, garage: { enabled: true } } }).where(eq(websites.id, w.a.websiteId));
    tenantA = (await findTenantById(w.a.websiteId))!;
  });

  const cookieHeader = (jar: Jar) => Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');
  function absorb(jar: Jar, response: Response): Jar {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (value) jar[name] = value;
      else delete jar[name];
    }
    return jar;
  }
  /** Both sign-in cookies cleared (Max-Age=0): the list is checked by name, so an empty one fails. */
  function expectCleared(response: Response) {
    const cookies = response.headers.getSetCookie();
    expect(cookies.map((line) => line.split('=')[0]).sort()).toEqual(['dp_access', 'dp_refresh']);
    for (const line of cookies) expect(line).toMatch(/Max-Age=0/);
  }
  const call = (handler: typeof signInRoute, options: { body?: unknown; jar?: Jar; host?: string; method?: string } = {}) =>
    callLeadRoute(handler, {
      host: options.host ?? w.hostA,
      method: options.method,
      body: options.body,
      headers: { [CLIENT_ADDRESS_HEADER]: `198.51.100.${counter % 250}`, ...(options.jar && Object.keys(options.jar).length ? { cookie: cookieHeader(options.jar) } : {}) },
    });
  const me = async (jar: Jar, host = w.hostA) => ((await (await call(authRoute as unknown as typeof signInRoute, { jar, host, method: 'GET' })).json()) as { user: { phone: string } | null });

  async function signIn(phone = mobile()): Promise<{ jar: Jar; response: Response }> {
    expect((await call(sendCode, { body: { phone, first_name: 'Mia' } })).status).toBe(200);
    const [sms] = await db.select().from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms')).orderBy(desc(leadDeliveries.id)).limit(1);
    const code = sms.payload.kind === 'sms' ? sms.payload.body.slice(0, 6) : '';
    const response = await call(signInRoute, { body: { phone, code } });
    return { jar: absorb({}, response), response };
  }

  it('signs in with a phone code: httpOnly SameSite=Lax cookies (not Secure on .localhost), the user, and GET /api/auth', async () => {
    const { jar, response } = await signIn();
    expect(response.status).toBe(200);
    const all = response.headers.getSetCookie();
    // The plain sign-in form's state (decision 060) is cleared with every sign-in, on its own path.
    expect(all.filter((line) => line.startsWith('sign_in_form='))).toEqual(['sign_in_form=; Path=/sign-in; Max-Age=0; HttpOnly; SameSite=Lax']);
    const cookies = all.filter((line) => !line.startsWith('sign_in_form='));
    expect(cookies.map((line) => line.split('=')[0]).sort()).toEqual(['dp_access', 'dp_refresh']);
    for (const line of cookies) {
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Lax/);
      expect(line).toMatch(/Max-Age=34560000/);
      expect(line).not.toMatch(/Secure/);
    }
    expect(((await response.json()) as { user: { first_name: string } }).user.first_name).toBe('Mia');
    expect((await me(jar)).user?.phone).toMatch(/^\+614/);
    expect((await me({})).user).toBeNull();
    // Private and revalidated, but not no-store: that would keep every car page out of the back/forward cache.
    const answer = await call(authRoute as unknown as typeof signInRoute, { jar, host: w.hostA, method: 'GET' });
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    const claims = await verifyAccessToken(tenantA, jar.dp_access);
    expect(claims.customerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.familyId).toMatch(/^[0-9a-f-]{36}$/);
    // SPEC §9 authentication events: a code sent (35), signed in (36).
    const categories = (await db.select({ category: analyticsEvents.category }).from(analyticsEvents).where(eq(analyticsEvents.websiteId, w.a.websiteId))).map((e) => e.category);
    expect(categories).toEqual(expect.arrayContaining([35, 36]));
  });

  it('refuses a tampered, expired, unsigned or other website’s token', async () => {
    const { jar } = await signIn();
    const [header, payload, signature] = jar.dp_access.split('.');
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('A') ? 'B' : 'A'}A`;
    expect((await me({ dp_access: flipped })).user).toBeNull();
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await me({ dp_access: unsigned })).user).toBeNull();
    await expect(verifyAccessToken(tenantA, jar.dp_access, Date.now() + (ACCESS_TOKEN_SECONDS + 5) * 1000)).rejects.toThrow('expired');
    const tenantB = (await findTenantById(w.b.websiteId))!;
    await expect(verifyAccessToken(tenantB, jar.dp_access)).rejects.toThrow('wrong-website');
    for (const garbage of ['x', 'a.b.c', '', '\u00e9'.repeat(10), 'e'.repeat(5000)]) expect((await me({ dp_access: encodeURIComponent(garbage) })).user).toBeNull();
  });

  it('rotates the refresh token on every use; a used one presented again ends the whole sign-in', async () => {
    const { jar } = await signIn();
    const first = jar.dp_refresh;
    const refreshed = await call(refreshRoute, { jar: { dp_refresh: first } });
    expect(refreshed.status).toBe(200);
    const next = absorb({}, refreshed);
    expect(next.dp_refresh).toBeTruthy();
    expect(next.dp_refresh).not.toBe(first);
    expect((await me(next)).user).not.toBeNull();

    const reused = await call(refreshRoute, { jar: { dp_refresh: first } });
    expect(reused.status).toBe(401);
    expectCleared(reused);
    // The family is over: the newer tokens are refused too.
    expect((await call(refreshRoute, { jar: { dp_refresh: next.dp_refresh } })).status).toBe(401);
    expect((await me(next)).user).toBeNull();
    expect((await call(refreshRoute, { jar: {} })).status).toBe(401);
  });

  it('signs out this browser (local), everyone else (others) or everywhere (global)', async () => {
    const phone = mobile();
    const one = (await signIn(phone)).jar;
    const { customerId } = await verifyAccessToken(tenantA, one.dp_access);
    const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
    // More browsers of the same customer.
    const another = async (): Promise<Jar> => {
      const session = await startSession(tenantA, customer);
      return { dp_access: session.access_token, dp_refresh: session.refresh_token };
    };
    const two = await another();
    const three = await another();
    expect((await call(signOutRoute, { jar: one, body: { scope: 'others' } })).status).toBe(200);
    expect((await me(one)).user).not.toBeNull();
    expect((await me(two)).user).toBeNull();
    expect((await me(three)).user).toBeNull();
    const local = await call(signOutRoute, { jar: one, body: { scope: 'local' } });
    expectCleared(local);
    expect((await me(one)).user).toBeNull();
    const four = await another();
    const five = await another();
    await call(signOutRoute, { jar: four, body: { scope: 'global' } });
    expect((await db.select().from(analyticsEvents).where(eq(analyticsEvents.category, 37))).length).toBeGreaterThanOrEqual(3);
    expect((await me(four)).user).toBeNull();
    expect((await me(five)).user).toBeNull();
    expect((await call(signOutRoute, { jar: five, body: { scope: 'everywhere' } })).status).toBe(422);
  });

  it('a website without phone sign-in answers 404 on every sign-in route', async () => {
    for (const [handler, method] of [[authRoute, 'GET'], [signInRoute, 'POST'], [refreshRoute, 'POST'], [signOutRoute, 'POST']] as const) {
      const response = await call(handler as typeof signInRoute, { host: w.hostB, method, body: method === 'POST' ? {} : undefined });
      expect(response.status, String(handler)).toBe(404);
    }
  });

  it('keeps a garage: listed cars of this website only, each once, events 20 and 21, 401 signed out', async () => {
    const { jar } = await signIn();
    const [hidden] = await db.update(cars).set({ showOnDealerWebsite: false }).where(and(eq(cars.websiteId, w.a.websiteId), eq(cars.slug, 'a-corolla-1'))).returning({ id: cars.id });
    const [camry2] = await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, w.a.websiteId), eq(cars.slug, 'a-camry-2')));
    const save = (carIds: unknown, cookies: Jar = jar) => call(garageSave, { jar: cookies, body: { car_ids: carIds } });
    expect((await save([w.carA], {})).status).toBe(401);
    const saved = await save([w.carA, camry2.id, hidden.id, w.carB, w.carA]);
    expect(saved.status).toBe(200);
    const list = ((await saved.json()) as { watchlist: { id: number; slug: string; make: string }[] }).watchlist;
    expect(list.map((car) => car.id).sort()).toEqual([w.carA, camry2.id].sort());
    expect(list[0]).toEqual(expect.objectContaining({ name: expect.any(String), slug: expect.any(String), make: expect.any(String), model: expect.any(String), primary_image_url: null, status: 'in_stock', reserved: false, saved_price: expect.any(Number) }));
    const auth = (await (await call(authRoute as unknown as typeof signInRoute, { jar, method: 'GET' })).json()) as { watchlist: unknown[] };
    expect(auth.watchlist).toHaveLength(2);

    const remove = (carId: string) => callLeadRoute(garageRemove, { host: w.hostA, method: 'DELETE', params: { carId }, headers: { cookie: cookieHeader(jar) } });
    expect((await remove(String(w.carA))).status).toBe(200);
    expect((await remove(String(w.carA))).status).toBe(404);
    expect((await remove('abc')).status).toBe(404);
    const events = await db.select({ category: analyticsEvents.category }).from(analyticsEvents).where(inArray(analyticsEvents.category, [20, 21]));
    expect(events.filter((e) => e.category === 20)).toHaveLength(2);
    expect(events.filter((e) => e.category === 21)).toHaveLength(1);
    for (const body of [[], ['x'], Array(201).fill(1), [-1], 'all']) expect((await save(body)).status, JSON.stringify(body)).toBe(422);
    expect((await call(garageSave, { host: w.hostB, jar, body: { car_ids: [w.carB] } })).status).toBe(404);
  });

  describe('the plain sign-in form (posted before the scripts ran, or without them: decision 060)', () => {
    const postForm = (fields: Record<string, string>, options: { host?: string; headers?: Record<string, string> } = {}) =>
      callLeadRoute(signInFormRoute, {
        host: options.host ?? w.hostA,
        rawBody: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_ADDRESS_HEADER]: `203.0.113.${counter % 250}`, ...options.headers },
      });
    /** The form's state the answer left for /sign-in, as the page reads it. */
    const stateOf = (response: Response) => {
      const line = response.headers.getSetCookie().find((l) => l.startsWith('sign_in_form='))!;
      expect(line).toMatch(/; Path=\/sign-in; Max-Age=600; HttpOnly; SameSite=Lax$/);
      return postedSignIn(line.split(';')[0].slice('sign_in_form='.length));
    };
    const lastCode = async () => {
      const [sms] = await db.select().from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms')).orderBy(desc(leadDeliveries.id)).limit(1);
      return sms.payload.kind === 'sms' ? sms.payload.body.slice(0, 6) : '';
    };

    it('sends the code, then signs in and goes on to `next` with the session cookies and the form state cleared', async () => {
      const phone = mobile();
      const sent = await postForm({ phone, step: 'send', next: '/my-garage' });
      expect(sent.status).toBe(303);
      expect(sent.headers.get('location')).toBe('/sign-in?next=%2Fmy-garage');
      // SPEC §4: 'Resend Code' after 30 s.
      expect(stateOf(sent)).toEqual({ phone, sent: true, errors: {}, resendAfter: 30 });

      const wrong = await postForm({ phone, step: 'verify', code: (await lastCode()) === '000000' ? '111111' : '000000', next: '/my-garage' });
      expect(wrong.headers.get('location')).toBe('/sign-in?next=%2Fmy-garage');
      expect(stateOf(wrong)).toMatchObject({ phone, sent: true, errors: { code: 'The verification code is invalid. Please try again.' } });
      expect(wrong.headers.getSetCookie().some((l) => l.startsWith('dp_access='))).toBe(false);

      const signedIn = await postForm({ phone, step: 'verify', code: await lastCode(), next: '/my-garage' });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toBe('/my-garage');
      const cookies = signedIn.headers.getSetCookie();
      expect(cookies.map((line) => line.split('=')[0]).sort()).toEqual(['dp_access', 'dp_refresh', 'sign_in_form']);
      expect(cookies.find((l) => l.startsWith('sign_in_form='))).toMatch(/Max-Age=0/);
      expect((await me(absorb({}, signedIn))).user?.phone).toMatch(/^\+614/);
    });

    it('a resend within the 30 s wait is refused with the limit message and leaves the code step standing', async () => {
      const phone = mobile();
      expect(stateOf(await postForm({ phone, step: 'send' }))).toMatchObject({ sent: true, errors: {} });
      const again = await postForm({ phone, step: 'resend' });
      expect(again.status).toBe(303);
      expect(stateOf(again)).toMatchObject({ phone, sent: true, errors: { code: 'Too many verification attempts. Please try again later.' } });
    });

    it('gives a refused phone back with its message, and never sends the visitor to another site', async () => {
      const refused = await postForm({ phone: '12', step: 'send', next: '//evil.example/x' });
      expect(refused.status).toBe(303);
      // Only a path of this website: an address elsewhere becomes the garage.
      expect(refused.headers.get('location')).toBe('/sign-in?next=%2Fmy-garage');
      const state = stateOf(refused)!;
      expect(state).toMatchObject({ phone: '12', sent: false });
      expect(state.errors.phone).toBeTruthy();
      expect(state.errors.code).toBeUndefined();
      const phone = mobile();
      await postForm({ phone, step: 'send' });
      const abroad = await postForm({ phone, step: 'verify', code: await lastCode(), next: 'https://evil.example/' });
      expect(abroad.headers.get('location')).toBe('/my-garage');
    });

    it('refuses cross-site posts, JSON bodies and a website without sign-in, storing nothing', async () => {
      const before = (await db.select({ id: leadDeliveries.id }).from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms'))).length;
      expect((await postForm({ phone: mobile(), step: 'send' }, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
      expect((await postForm({ phone: mobile(), step: 'send' }, { host: w.hostB })).status).toBe(404);
      const json = await callLeadRoute(signInFormRoute, { host: w.hostA, body: { phone: mobile(), step: 'send' } });
      expect(json.status).toBe(415);
      const huge = await postForm({ phone: 'x'.repeat(10_000), step: 'send' });
      expect(huge.status).toBe(413);
      expect((await db.select({ id: leadDeliveries.id }).from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms'))).length).toBe(before);
    });

    it('reads a tampered state cookie as nothing or as plain text, never as markup', () => {
      expect(postedSignIn('%7Bnot json')).toBeNull();
      expect(postedSignIn(encodeURIComponent(JSON.stringify({ phone: ['x'], sent: 'yes', errors: { code: 5 }, resendAt: 'soon' })))).toEqual({ phone: '', sent: false, errors: {}, resendAfter: 0 });
      expect(postedSignIn(encodeURIComponent(JSON.stringify({ phone: '0412', sent: true, errors: {}, resendAt: 60_000 })), 30_000)).toEqual({ phone: '0412', sent: true, errors: {}, resendAfter: 30 });
    });
  });

  it('answers hostile sign-in bodies with 4xx', async () => {
    for (const body of [null, {}, { phone: '0412345678' }, { phone: '0412345678', code: '12345' }, { phone: '+44 7700 900123', code: '123456' }, { phone: ['x'], code: 1 }, { phone: '0412345678', code: '123456', admin: true }]) {
      const status = (await call(signInRoute, { body })).status;
      expect(status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });
  // Issue 36: each refusal with its reason, at the functions the routes call.
  it('issues 15-minute access tokens and 400-day sessions, and refuses each bad token with its reason', async () => {
    const reason = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: Error) => error.message);
    const customer = await findOrCreateCustomer(tenantA, '+61413999001', { first_name: '  Ann  ', last_name: '   ', email: 'x'.repeat(250) });
    expect(customer).toMatchObject({ firstName: 'Ann', lastName: null });
    expect(customer.email).toHaveLength(200);
    expect((await findOrCreateCustomer(tenantA, '+61413999001', {})).id).toBe(customer.id);

    // Decision 029: a 15-minute access token, HS256, for this website; SPEC §9: the session lives 34,560,000 s.
    const t = Date.UTC(2026, 10, 28, 9, 0, 0);
    const session = await startSession(tenantA, customer, t);
    expect(session).toMatchObject({ expires_in: 900, expires_at: t / 1000 + 900, token_type: 'bearer', user: { id: customer.id, first_name: 'Ann' } });
    expect(decodeProtectedHeader(session.access_token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decodeJwt(session.access_token)).toMatchObject({ sub: customer.id, aud: `website:${tenantA.id}`, iss: 'dealer-platform', iat: t / 1000, exp: t / 1000 + 900 });
    // Only the refresh token's SHA-256 is stored.
    const [row] = await db.select().from(sessions).where(eq(sessions.refreshTokenHash, createHash('sha256').update(session.refresh_token).digest('hex')));
    expect(row.expiresAt.getTime()).toBe(t + 34_560_000_000);
    expect(await verifyAccessToken(tenantA, session.access_token, t + 899_000)).toMatchObject({ customerId: customer.id, expiresAt: t / 1000 + 900 });
    expect(await reason(verifyAccessToken(tenantA, session.access_token, t + 900_000))).toBe('expired');
    expect(await reason(verifyAccessToken(tenantA, 'x.y.z', t))).toBe('invalid');

    // Signed with the platform's key but not in the platform's shape.
    const secret = new TextEncoder().encode(await platformSecret());
    const uuid = '11111111-2222-4333-8444-555555555555';
    const forge = (claims: Record<string, unknown>, options: { sub?: string; aud?: string | string[]; exp?: boolean } = {}) => {
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer('dealer-platform').setAudience(options.aud ?? `website:${tenantA.id}`).setIssuedAt(t / 1000);
      if (options.sub !== undefined) jwt = jwt.setSubject(options.sub);
      if (options.exp !== false) jwt = jwt.setExpirationTime(t / 1000 + 60);
      return jwt.sign(secret);
    };
    const verify = async (token: Promise<string>) => reason(verifyAccessToken(tenantA, await token, t));
    expect(await verify(forge({ sid: uuid }, { sub: customer.id, aud: ['website:999', `website:${tenantA.id}`] }))).toBe('accepted');
    expect(await verify(forge({ sid: uuid }, { sub: customer.id, aud: ['website:999'] }))).toBe('wrong-website');
    expect(await verify(forge({ sid: uuid }))).toBe('invalid'); // no subject
    expect(await verify(forge({ sid: 5 }, { sub: customer.id }))).toBe('invalid');
    expect(await verify(forge({ sid: uuid }, { sub: customer.id, exp: false }))).toBe('invalid');
    expect(await verify(forge({ sid: uuid }, { sub: 'not-a-uuid' }))).toBe('invalid');
    expect(await verify(forge({ sid: 'not-a-uuid' }, { sub: customer.id }))).toBe('invalid');
    // A well-formed token of a customer that does not exist, and of a session signed out.
    expect(await reason(currentUser(tenantA, await forge({ sid: uuid }, { sub: uuid }), t))).toBe('invalid');
    expect(await currentUser(tenantA, session.access_token, t)).toMatchObject({ id: customer.id });

    // Refresh: unknown, expired at the session's end exactly, exchanged twice, signed out.
    expect(await reason(refreshSession(tenantA, 'no-such-token', t))).toBe('invalid');
    expect(await reason(refreshSession(tenantA, session.refresh_token, t + 34_560_000_000))).toBe('expired');
    const next = await refreshSession(tenantA, session.refresh_token, t + 1_000);
    expect(await reason(refreshSession(tenantA, session.refresh_token, t + 2_000))).toBe('reused');
    expect(await reason(refreshSession(tenantA, next.refresh_token, t + 3_000))).toBe('revoked');
    const other = await startSession(tenantA, customer, t);
    await signOut(tenantA, other.access_token, 'local', t);
    expect(await reason(currentUser(tenantA, other.access_token, t))).toBe('revoked');
  });
});
