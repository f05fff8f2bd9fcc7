import { sql } from 'drizzle-orm';
import { getDatabase } from '@/db';
import { logger } from '@/lib/logger';

export const dynamic = 'force-dynamic';

/**
 * For load balancers and the start script: 200 when the database answers, 503 otherwise. It says
 * nothing else: which database runs is nobody's business on a public host.
 */
export async function GET() {
  try {
    const { db } = await getDatabase();
    await db.execute(sql`select 1`);
    return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    logger.error({ err: error }, 'health check failed');
    return Response.json({ ok: false }, { status: 503 });
  }
}
