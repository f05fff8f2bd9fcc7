import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { parse as parseCsv } from 'csv-parse/sync';
import { getDb } from '@/db';
import { logger } from '@/lib/logger';
import { dealerships } from '../tenancy/tenancy.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { StockInputError, upsertCar, csvRecordToInput, fieldErrors, stockImportRowSchema } from '@/modules/stock/server';

/**
 * Stock import (npm run stock:import): each row is validated with the same schema as the Dashboard
 * API's PUT and written with the same upsertCar, one transaction per row, so a bad row never stops
 * the good ones.
 */

export type ImportRowResult =
  | { row: number; status: 'accepted'; slug: string; created: boolean }
  | { row: number; status: 'rejected'; slug: string | null; errors: Record<string, string> };

export type ImportResult = { rows: ImportRowResult[]; accepted: number; rejected: number };

/** The input could not be read at all (exit code 2 in the script). */
export class StockFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StockFileError';
  }
}

export const MAX_IMPORT_ROWS = 50_000;

/** Rows of a .csv (header row of car field names; lists '|'-separated) or .json (an array, or {cars: [...]}) file. */
export function parseStockFile(fileName: string, content: string): Record<string, unknown>[] {
  const lower = fileName.toLowerCase();
  let rows: unknown;
  if (lower.endsWith('.json')) {
    try {
      rows = JSON.parse(content);
    } catch (error) {
      throw new StockFileError(`not valid JSON: ${(error as Error).message}`);
    }
    if (rows && typeof rows === 'object' && !Array.isArray(rows) && Array.isArray((rows as { cars?: unknown }).cars)) {
      rows = (rows as { cars: unknown[] }).cars;
    }
    if (!Array.isArray(rows)) throw new StockFileError('a JSON stock file must hold an array of cars (or {"cars": [...]})');
    // Non-object rows are kept so they are reported as rejected rows, numbered as in the file.
    rows = rows.map((row) => (row && typeof row === 'object' && !Array.isArray(row) ? row : { __invalid: row }));
  } else if (lower.endsWith('.csv')) {
    let records: Record<string, string>[];
    try {
      records = parseCsv(content, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
    } catch (error) {
      throw new StockFileError(`unreadable CSV: ${(error as Error).message}`);
    }
    rows = records.map(csvRecordToInput);
  } else {
    throw new StockFileError('the file must end in .csv or .json');
  }
  const list = rows as Record<string, unknown>[];
  if (list.length > MAX_IMPORT_ROWS) throw new StockFileError(`at most ${MAX_IMPORT_ROWS} rows per file`);
  return list;
}

/**
 * Validates and writes each row for the tenant's website. A row without dealership_id goes to the
 * website's dealership when it has exactly one. Rows are numbered from 1 in file order.
 */
export async function importStock(tenant: Tenant, rows: readonly unknown[], options: { now?: Date } = {}): Promise<ImportResult> {
  const db = await getDb();
  const websiteDealerships = await db
    .select({ id: dealerships.id })
    .from(dealerships)
    .where(eq(dealerships.websiteId, tenant.id))
    .orderBy(asc(dealerships.id));
  const results: ImportRowResult[] = [];
  for (const [index, raw] of rows.entries()) {
    const row = index + 1;
    const rawSlug =
      raw && typeof raw === 'object' && typeof (raw as { slug?: unknown }).slug === 'string' ? (raw as { slug: string }).slug : null;
    if (!raw || typeof raw !== 'object' || '__invalid' in raw) {
      results.push({ row, status: 'rejected', slug: null, errors: { row: 'must be an object of car fields' } });
      continue;
    }
    const parsed = stockImportRowSchema.safeParse(raw);
    if (!parsed.success) {
      results.push({ row, status: 'rejected', slug: rawSlug, errors: fieldErrors(parsed.error) });
      continue;
    }
    const { slug, ...input } = parsed.data;
    const dealershipId = input.dealership_id ?? (websiteDealerships.length === 1 ? websiteDealerships[0].id : null);
    if (dealershipId == null) {
      results.push({
        row,
        status: 'rejected',
        slug,
        errors: {
          dealership_id: websiteDealerships.length ? 'is required: this website has several dealerships' : 'this website has no dealership',
        },
      });
      continue;
    }
    try {
      const written = await upsertCar(tenant, dealershipId, slug, input, { now: options.now });
      results.push({ row, status: 'accepted', slug, created: written.created });
    } catch (error) {
      if (error instanceof StockInputError) {
        results.push({ row, status: 'rejected', slug, errors: error.fields });
      } else {
        logger.error({ err: error, websiteId: tenant.id, row, slug }, 'stock import row failed');
        results.push({ row, status: 'rejected', slug, errors: { row: 'could not be saved (server error, see the log)' } });
      }
    }
  }
  const accepted = results.filter((r) => r.status === 'accepted').length;
  return { rows: results, accepted, rejected: results.length - accepted };
}

/** `row N: accepted <slug>` / `row N: rejected – <field>: <reason>; …` */
export function formatImportRow(result: ImportRowResult): string {
  if (result.status === 'accepted') return `row ${result.row}: accepted ${result.slug}`;
  const reasons = Object.entries(result.errors)
    .map(([field, reason]) => `${field}: ${reason}`)
    .join('; ');
  return `row ${result.row}: rejected – ${reasons}`;
}
