import { sql } from 'drizzle-orm';
import { getDatabase } from '@/db';
import { noteDatabaseAnswered, noteDatabaseUnavailable } from '@/db/health';
import { logger } from '@/lib/logger';

export const dynamic = 'force-dynamic';

/**
 * How long the check waits for the database before it reports it unavailable: load balancers and
 * the start script get an answer within 2 s whatever the database is doing (decision 055).
 */
const HEALTH_WAIT_MS = 1_500;

class NoAnswer extends Error {}

/**
 * For load balancers and the start script: 200 `{ ok: true, database: 'up' }` when the database
 * answers within HEALTH_WAIT_MS, 503 `{ ok: false, database: 'unavailable' }` otherwise (refused,
 * failing or stalled). It says nothing else: which database runs is nobody's business on a public host.
 */
export async function GET() {
  const headers = { 'Cache-Control': 'no-store' };
  let timer: NodeJS.Timeout | undefined;
  try {
    const check = (async () => {
      const { db } = await getDatabase();
      await db.execute(sql`select 1`);
    })();
    check.catch(() => undefined);
    await Promise.race([check, new Promise((_, reject) => (timer = setTimeout(() => reject(new NoAnswer(`no answer within ${HEALTH_WAIT_MS} ms`)), HEALTH_WAIT_MS)))]);
    noteDatabaseAnswered();
    return Response.json({ ok: true, database: 'up' }, { headers });
  } catch (error) {
    noteDatabaseUnavailable();
    logger.error({ err: error }, 'health check failed');
    return Response.json({ ok: false, database: 'unavailable' }, { status: 503, headers: { ...headers, 'Retry-After': '30' } });
  } finally {
    clearTimeout(timer);
  }
}
