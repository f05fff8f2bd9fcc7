import { sql } from 'drizzle-orm';
import { jwtVerify } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db';
import { rowsOf } from '@/db/rows';
import { useTestDatabase } from '../support/database';
import { seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';

/**
 * The platform's signing secret (decision 029): AUTH_SECRET when it has 32 characters or more,
 * otherwise a random key made once and kept in platform_secrets. The secret is read once per
 * process, so each test imports the sessions module afresh (vi.resetModules) with its own
 * AUTH_SECRET.
 */

let db: Db;
let w: LeadWorld;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedLeadWorld(db);
});

afterEach(() => {
  delete process.env.AUTH_SECRET;
});

async function freshSessions(authSecret?: string) {
  if (authSecret === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = authSecret;
  vi.resetModules();
  return import('@/modules/identity/identity.sessions');
}

describe('the platform secret', () => {
  it('is AUTH_SECRET when it has 32 characters: the session tokens are signed with it', async () => {
    const secret = 'a'.repeat(32);
    const sessions = await freshSessions(secret);
    expect(await sessions.platformSecret()).toBe(secret);
    const customer = await sessions.findOrCreateCustomer(w.a.tenant, '+61413555001', {});
    const issued = await sessions.startSession(w.a.tenant, customer);
    const { payload } = await jwtVerify(issued.access_token, new TextEncoder().encode(secret), { audience: `website:${w.a.tenant.id}` });
    expect(payload.sub).toBe(customer.id);
  });

  it('is the key kept in the database when AUTH_SECRET has 31 characters, or is not set', async () => {
    const short = await freshSessions('b'.repeat(31));
    const kept = await short.platformSecret();
    expect(kept).toMatch(/^[\w-]{64}$/);
    const [row] = rowsOf<{ value: string }>(await db.execute(sql`select value from platform_secrets where name = 'session-signing-key'`));
    expect(kept).toBe(row.value);
    const unset = await freshSessions();
    expect(await unset.platformSecret()).toBe(kept);
  });

  it('a secret that could not be read is read again on the next call, and sessions are signed then', async () => {
    const sessions = await freshSessions();
    const customer = await sessions.findOrCreateCustomer(w.a.tenant, '+61413555002', {});
    await db.execute(sql`alter table platform_secrets rename to platform_secrets_away`);
    try {
      await expect(sessions.startSession(w.a.tenant, customer)).rejects.toThrow();
    } finally {
      await db.execute(sql`alter table platform_secrets_away rename to platform_secrets`);
    }
    const issued = await sessions.startSession(w.a.tenant, customer);
    expect(await sessions.verifyAccessToken(w.a.tenant, issued.access_token)).toMatchObject({ customerId: customer.id });
  });
});
