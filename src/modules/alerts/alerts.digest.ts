import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, type Db } from '@/db';
import { rowsOf } from '@/db/rows';
import { formatMoney } from '@/lib/format';
import { smsFrom } from '@/modules/identity/server';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { carPath, garagePath } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { unsubscribeUrls } from './alerts.consent';
import { OVERLAP_MS } from './alerts.sweep';
import type { AlertChannel, AlertKind } from './alerts.schema';

/**
 * Sends what the sweep found (decision 066): a visitor's unsent items become one message in the
 * outbox, in the transaction that marks them sent. At most one digest a day per visitor and
 * website; a visitor who chose instant price drops gets each sweep's price drops at once, in a
 * message of their own that does not count as the digest. The outbox worker delivers them.
 */

export const DIGEST_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Channels of the outbox (lead_deliveries) for visitors' alerts: rows without a lead. */
export const ALERT_OUTBOX_CHANNEL = { email: 'visitor_alert_email', sms: 'visitor_alert_sms' } as const;
const SIMILAR_CARS = 3;

type Due = { customerId: string; websiteId: number; channel: AlertChannel; address: string; instantPriceDrops: boolean; origin: string; lastDigestAt: Date | null; consentedAt: Date; firstName: string | null };

export type AlertLine = {
  kind: AlertKind;
  carId: number;
  name: string;
  year: number;
  slug: string;
  price: number;
  oldPrice: number | null;
  newPrice: number | null;
  searchName: string | null;
  make: string;
  model: string;
};

/** A line of a message: an item (id) or a new car of a search (no id: alert_matches). */
type Item = AlertLine & { id: number | null };

/** Time between two digests: a day, or ALERTS_DIGEST_INTERVAL_MS (the browser tests send each sweep's finds at once). */
function digestIntervalMs(): number {
  const configured = Number(process.env.ALERTS_DIGEST_INTERVAL_MS);
  return process.env.ALERTS_DIGEST_INTERVAL_MS && Number.isFinite(configured) && configured >= 0 ? configured : DIGEST_INTERVAL_MS;
}

/** A digest is due when none was sent in the last interval (a day by default). */
export function isDigestDue(lastDigestAt: Date | string | null, now: Date): boolean {
  return !lastDigestAt || new Date(lastDigestAt).getTime() <= lastDigestDueBy(now).getTime();
}

/** A visitor whose last digest was sent at or before this instant is due another. */
function lastDigestDueBy(now: Date): Date {
  return new Date(now.getTime() - digestIntervalMs());
}

/** Visitors queued per transaction: a few statements for the lot instead of a transaction each. */
const VISITORS_PER_BATCH = 500;
/**
 * A saved search (`ss`) tells of a car (`c`) listed after it was saved. A car's created_at is
 * written in milliseconds and a saved search's by the database in microseconds: a car listed within
 * the millisecond the search was saved counts as after it (compared as microseconds it could fall
 * before, and nobody would be told of it).
 */
const savedBeforeListed = sql`date_trunc('milliseconds', ss.created_at) <= c.created_at`;

export async function queueDueAlerts(now = new Date()): Promise<number> {
  const db = await getDb();
  const owed = await newStockOwed(now);
  // Visitors owed new stock, and those with items not yet sent; in customer order, as the batches lock their rows (queueBatch).
  const due = new Map([...owed.values()].map((o) => [o.visitor.customerId, o.visitor]));
  for (const visitor of rowsOf<Due>(
    await db.execute(sql`
      select ${VISITOR_COLUMNS} from alert_subscriptions s join customers c on c.id = s.customer_id
      where s.unsubscribed_at is null and s.customer_id in (select customer_id from alert_items where delivery_id is null)`),
  )) {
    due.set(visitor.customerId, visitor);
  }
  const visitors = [...due.values()]
    .filter((visitor) => isDigestDue(visitor.lastDigestAt, now) || visitor.instantPriceDrops)
    .sort((x, y) => (x.customerId < y.customerId ? -1 : 1));
  // Read once for all the batches: the websites, and the cars like each sold or reserved car.
  const tenants = new Map<number, Tenant | null>();
  const similar = new Map<number, SimilarCar[]>();
  let queued = 0;
  for (let i = 0; i < visitors.length; i += VISITORS_PER_BATCH) queued += await queueBatch(visitors.slice(i, i + VISITORS_PER_BATCH), tenants, owed, similar, now);
  await dropToldMatches();
  return queued;
}

/** What a message needs of its visitor (alert_subscriptions s, customers c). */
const VISITOR_COLUMNS = sql`s.customer_id as "customerId", s.website_id as "websiteId", s.channel, s.address, s.instant_price_drops as "instantPriceDrops",
  s.origin, s.last_digest_at as "lastDigestAt", s.consented_at as "consentedAt", c.first_name as "firstName"`;

type NewStockLine = AlertLine & { generation: number };
/** New stock a visitor is owed: the lines of generations after their new_stock_through (when read) up to `through`, their website's progress. */
type Owed = { visitor: Due; through: number; lines: NewStockLine[] };

/**
 * The new stock owed to visitors due for a digest, in two statements for all of them: the matches
 * of their searches (not paused) after their new_stock_through, up to their website's progress,
 * for cars listed after they saved the search, with the visitor; then those cars. Matches and
 * progress are written in one statement (alerts.sweep.ts's advance), so in the first statement's
 * snapshot every match up to the progress read is there. A batch takes what is still owed under
 * its lock (queueBatch).
 */
async function newStockOwed(now: Date): Promise<Map<string, Owed>> {
  const db = await getDb();
  const visitors = rowsOf<Due & { through: string; lines: [generation: number, carId: number, searchName: string][] }>(
    await db.execute(sql`
      select ${VISITOR_COLUMNS}, o.through, o.lines
      from (
        select s.customer_id, p.generation as through,
          json_agg(json_build_array(m.generation, c.id, ss.name) order by m.generation, ss.created_at, c.id) as lines
        from alert_matches m
        join alert_progress p on p.website_id = m.website_id and m.generation <= p.generation
        join cars c on c.id = m.car_id
        join saved_searches ss on ss.website_id = m.website_id and ss.path = m.path and ss.query = m.query and not ss.paused and ${savedBeforeListed}
        join (select * from alert_subscriptions
          where unsubscribed_at is null and (last_digest_at is null or last_digest_at <= ${lastDigestDueBy(now)}) offset 0) s
          on s.customer_id = ss.customer_id and s.new_stock_through < m.generation
        group by s.customer_id, p.generation
      ) o
      join alert_subscriptions s on s.customer_id = o.customer_id join customers c on c.id = s.customer_id`),
  );
  const carIds = [...new Set(visitors.flatMap((visitor) => visitor.lines.map(([, carId]) => carId)))];
  const cars = new Map(
    carIds.length === 0
      ? []
      : rowsOf<Pick<AlertLine, 'carId' | 'name' | 'year' | 'slug' | 'price' | 'make' | 'model'>>(
          await db.execute(sql`select id as "carId", name, year, slug, price, make, model from cars where id = any(${`{${carIds.join(',')}}`}::int[])`),
        ).map((car) => [Number(car.carId), car]),
  );
  const owed = new Map<string, Owed>();
  for (const { through, lines, ...visitor } of visitors) {
    owed.set(visitor.customerId, {
      visitor,
      through: Number(through),
      lines: lines.map(([generation, carId, searchName]): NewStockLine => ({ ...cars.get(carId)!, kind: 'new_stock', oldPrice: null, newPrice: null, searchName, generation })),
    });
  }
  return owed;
}

/**
 * A match is dropped once the sweep can no longer find its car new again (a car counts as new
 * while it was listed less than the sweep's overlap before the website's last sweep,
 * alerts.sweep.ts: until then the match is what keeps a second finding from telling anyone twice)
 * and no visitor is still owed it: every saver of the search was told of it, or never will be
 * (their search paused or deleted, their alerts off, the search saved after the car was listed).
 */
async function dropToldMatches(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`delete from alert_matches m
    using cars c, alert_progress p
    where c.id = m.car_id and p.website_id = m.website_id and c.created_at < p.swept_at - ${`${OVERLAP_MS} milliseconds`}::interval
      and not exists (
        select 1 from saved_searches ss join alert_subscriptions s on s.customer_id = ss.customer_id and s.unsubscribed_at is null
        where ss.website_id = m.website_id and ss.path = m.path and ss.query = m.query and not ss.paused
          and s.new_stock_through < m.generation and ${savedBeforeListed})`);
}

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/**
 * A batch of visitors' messages: for each, the unsent items and the new stock of their searches (or,
 * between digests, the price drops) become one message, queued and marked sent in the batch's one
 * transaction, with a few statements for the whole batch (the row locks, the items, the new stock,
 * the similar cars, the outbox rows, the marks, the counts).
 *
 * Nothing is sent twice, with sweeps in several processes at once: the batch first locks its
 * visitors' subscription rows (FOR UPDATE, in customer order, as every batch of every sweep takes
 * them, so two batches never wait on each other in a cycle). A sweep that has to wait reads, once
 * the other's transaction has committed, the subscription as it left it (FOR UPDATE returns the
 * latest row in READ COMMITTED: its last digest time and how far new stock was told) and, in its
 * next statements, the items it left unsent and the matches after that point: none of those the
 * other queued. An unsubscribed visitor's row is not locked, so nothing is queued for them.
 *
 * New stock comes with the digest: a visitor due for one is told what they are owed (read before
 * the batches, newStockOwed) of generations after their new_stock_through as locked, which then
 * moves on to the progress that was read with it.
 */
async function queueBatch(
  batch: Due[],
  tenants: Map<number, Tenant | null>,
  owed: Map<string, Owed>,
  similarFound: Map<number, SimilarCar[]>,
  now: Date,
): Promise<number> {
  // Read before the transaction: the embedded database runs one connection, and the tenant or the secret may be read from it.
  for (const visitor of batch) if (!tenants.has(visitor.websiteId)) tenants.set(visitor.websiteId, await findTenantById(visitor.websiteId));
  const visitors = batch.filter((visitor) => tenants.get(visitor.websiteId));
  if (visitors.length === 0) return 0;
  const links = new Map(await Promise.all(visitors.map(async (visitor) => [visitor.customerId, await unsubscribeUrls(visitor.origin, visitor.websiteId, visitor.customerId)] as const)));
  const db = await getDb();
  return db.transaction(async (tx) => {
    const live = rowsOf<{ customerId: string; lastDigestAt: Date | null; toldThrough: string }>(
      await tx.execute(sql`select customer_id as "customerId", last_digest_at as "lastDigestAt", new_stock_through as "toldThrough" from alert_subscriptions
        where customer_id = any(${uuidArray(visitors.map((visitor) => visitor.customerId))}) and unsubscribed_at is null
        order by customer_id for update`),
    );
    const digestDue = new Map(live.map((row) => [row.customerId, isDigestDue(row.lastDigestAt, now)]));
    const sending = visitors.filter((visitor) => digestDue.has(visitor.customerId) && (digestDue.get(visitor.customerId) || visitor.instantPriceDrops));
    if (sending.length === 0) return 0;
    // What is still owed under the lock: another sweep may have told some of it since it was read.
    const toldThrough = new Map<string, number>();
    for (const row of live) {
      const visitor = owed.get(row.customerId);
      if (digestDue.get(row.customerId) && visitor && visitor.through > Number(row.toldThrough)) toldThrough.set(row.customerId, Number(row.toldThrough));
    }
    const itemsOf = new Map<string, Item[]>();
    const add = (customerId: string, item: Item) => {
      const items = itemsOf.get(customerId);
      if (items) items.push(item);
      else itemsOf.set(customerId, [item]);
    };
    for (const row of rowsOf<Item & { customerId: string }>(
      await tx.execute(sql`
        select i.customer_id as "customerId", i.id, i.kind, i.car_id as "carId", c.name, c.year, c.slug, c.price, c.make, c.model, i.old_price as "oldPrice", i.new_price as "newPrice", ss.name as "searchName"
        from alert_items i join cars c on c.id = i.car_id left join saved_searches ss on ss.id = i.saved_search_id
        where i.customer_id = any(${uuidArray(sending.map((visitor) => visitor.customerId))}) and i.delivery_id is null
        order by i.id`),
    )) {
      const { customerId, ...item } = row;
      // Between digests, only the price drops of a visitor who takes them at once.
      if (!digestDue.get(customerId) && item.kind !== 'price_drop') continue;
      add(customerId, { ...item, id: Number(item.id) });
    }
    for (const [customerId, after] of toldThrough) {
      for (const { generation, ...line } of owed.get(customerId)!.lines) if (generation > after) add(customerId, { ...line, id: null });
    }
    const messages = sending.filter((visitor) => itemsOf.has(visitor.customerId));
    if (messages.length > 0) {
      const similar = await similarCars(tx, messages.flatMap((visitor) => itemsOf.get(visitor.customerId)!.map((item) => ({ ...item, websiteId: visitor.websiteId }))), similarFound);
      const ids = rowsOf<{ id: string }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('lead_deliveries', 'id')) as id from generate_series(1, ${messages.length})`));
      const rows = messages.map((visitor, k) => {
        const tenant = tenants.get(visitor.websiteId)!;
        const items = itemsOf.get(visitor.customerId)!;
        const unsubscribe = links.get(visitor.customerId)!;
        const payload = visitor.channel === 'email' ? alertEmail(tenant, visitor, items, similar, unsubscribe) : alertSms(tenant, visitor, items, unsubscribe.page);
        return { id: Number(ids[k].id), website_id: visitor.websiteId, channel: ALERT_OUTBOX_CHANNEL[visitor.channel], payload };
      });
      await tx.execute(sql`insert into lead_deliveries (id, website_id, lead_id, channel, payload)
        select v.id, v.website_id, null, v.channel, v.payload from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id bigint, website_id int, channel text, payload jsonb)`);
      const sent = messages.flatMap((visitor, k) => itemsOf.get(visitor.customerId)!.flatMap((item) => (item.id === null ? [] : [[item.id, rows[k].id] as const])));
      if (sent.length > 0) {
        await tx.execute(sql`update alert_items i set delivery_id = v.delivery from unnest(${`{${sent.map(([item]) => item).join(',')}}`}::int8[], ${`{${sent.map(([, delivery]) => delivery).join(',')}}`}::int8[]) as v(id, delivery) where i.id = v.id`);
      }
      await tx.execute(sql`insert into alert_counts (website_id, kind, items)
        select v.website_id, v.kind, v.items from jsonb_to_recordset(${JSON.stringify(countsOf(messages, itemsOf))}::jsonb) as v(website_id int, kind text, items int)`);
    }
    // A digest sent: its time; new stock read for a visitor due for one: how far it was told.
    const digests = new Set(messages.filter((visitor) => digestDue.get(visitor.customerId)).map((visitor) => visitor.customerId));
    const told = [...new Set([...toldThrough.keys(), ...digests])].map((customerId) => ({
      customer_id: customerId,
      through: toldThrough.has(customerId) ? owed.get(customerId)!.through : null,
      digest: digests.has(customerId),
    }));
    if (told.length > 0) {
      await tx.execute(sql`update alert_subscriptions s
        set last_digest_at = case when v.digest then ${now} else s.last_digest_at end, new_stock_through = greatest(s.new_stock_through, v.through)
        from jsonb_to_recordset(${JSON.stringify(told)}::jsonb) as v(customer_id uuid, through bigint, digest boolean) where s.customer_id = v.customer_id`);
    }
    return messages.length;
  });
}

/** The lines of each kind the messages told of, per website: the dealer's figures (alert_counts). */
function countsOf(messages: Due[], itemsOf: Map<string, Item[]>): { website_id: number; kind: AlertKind; items: number }[] {
  const counts = new Map<string, { website_id: number; kind: AlertKind; items: number }>();
  for (const visitor of messages) {
    for (const item of itemsOf.get(visitor.customerId)!) {
      const key = `${visitor.websiteId} ${item.kind}`;
      const count = counts.get(key) ?? { website_id: visitor.websiteId, kind: item.kind, items: 0 };
      count.items += 1;
      counts.set(key, count);
    }
  }
  return [...counts.values()];
}

type SimilarCar = { name: string; year: number; slug: string; price: number };

/**
 * For each sold or reserved car: up to three listed cars of the same website, same model first,
 * then same make, nearest in price; one statement for those not already in `found` (what the
 * sweep's earlier batches read), added to it.
 */
async function similarCars(db: Pick<Db, 'execute'>, items: (Item & { websiteId: number })[], found: Map<number, SimilarCar[]>): Promise<Map<number, SimilarCar[]>> {
  const wanted = new Map<number, { car_id: number; website_id: number; make: string; model: string; price: number }>();
  for (const item of items) {
    if ((item.kind === 'sold' || item.kind === 'reserved') && !found.has(item.carId)) {
      wanted.set(item.carId, { car_id: item.carId, website_id: item.websiteId, make: item.make, model: item.model, price: item.price });
    }
  }
  if (wanted.size === 0) return found;
  for (const id of wanted.keys()) found.set(id, []);
  const rows = rowsOf<SimilarCar & { forCar: number }>(
    await db.execute(sql`
      select x.car_id as "forCar", o.name, o.year, o.slug, o.price
      from jsonb_to_recordset(${JSON.stringify([...wanted.values()])}::jsonb) as x(car_id int, website_id int, make text, model text, price int)
      cross join lateral (
        select name, year, slug, price, row_number() over (order by (model = x.model) desc, abs(price - x.price), id) as rank from cars
        where website_id = x.website_id and id <> x.car_id and status in ('in_stock', 'coming_soon') and not reserved and show_on_dealer_website and make = x.make
        order by rank
        limit ${SIMILAR_CARS}
      ) o
      order by x.car_id, o.rank`),
  );
  for (const { forCar, ...car } of rows) found.get(Number(forCar))!.push(car);
  return found;
}

/** Links already made: every visitor of a website told of a car gets the same one, and a sweep writes tens of thousands. */
const madeLinks = new Map<string, string>();
const MADE_LINKS_KEPT = 10_000;

/** A link back to the website from an alert, tagged so that the visit (and a lead it brings) is known to come from one. */
export function alertLink(origin: string, path: string, kind: AlertKind | 'digest', medium: AlertChannel): string {
  const key = `${origin} ${path} ${kind} ${medium}`;
  let link = madeLinks.get(key);
  if (link === undefined) {
    const url = new URL(path, origin);
    url.searchParams.set('utm_source', 'alerts');
    url.searchParams.set('utm_medium', medium);
    url.searchParams.set('utm_campaign', kind);
    link = url.toString();
    if (madeLinks.size >= MADE_LINKS_KEPT) madeLinks.clear();
    madeLinks.set(key, link);
  }
  return link;
}

const HEADINGS: Record<AlertKind, string> = {
  price_drop: 'Price drops on cars you saved',
  new_stock: 'New cars for your saved searches',
  sold: 'Sold',
  reserved: 'Reserved',
  back_in_stock: 'Back in stock',
};

function carLine(tenant: Tenant, item: AlertLine, origin: string, medium: AlertChannel): string {
  const money = (value: number) => formatMoney(tenant.config, value);
  const url = alertLink(origin, carPath(tenant, item.slug), item.kind, medium);
  if (item.kind === 'price_drop') return `- ${item.name}: now ${money(item.newPrice ?? item.price)} (was ${money(item.oldPrice ?? item.price)})\n  ${url}`;
  return `- ${item.name}${item.price > 10 ? `, ${money(item.price)}` : ''}\n  ${url}`;
}

export type EmailMessage = { kind: 'email'; to: string; subject: string; text: string; adf: string; attachmentIds: string[]; messageKey: string; headers: Record<string, string> };

export function alertEmail(
  tenant: Tenant,
  visitor: Pick<Due, 'address' | 'origin' | 'firstName' | 'consentedAt'>,
  items: AlertLine[],
  similar: Map<number, SimilarCar[]>,
  unsubscribe: { page: string; oneClick: string },
): EmailMessage {
  const lines: string[] = [`Hi ${visitor.firstName || 'there'},`, ''];
  for (const kind of Object.keys(HEADINGS) as AlertKind[]) {
    const ofKind = items.filter((item) => item.kind === kind);
    if (ofKind.length === 0) continue;
    lines.push(HEADINGS[kind]);
    if (kind === 'new_stock') {
      for (const name of [...new Set(ofKind.map((item) => item.searchName ?? ''))]) {
        lines.push(`“${name}”:`);
        lines.push(...ofKind.filter((item) => (item.searchName ?? '') === name).map((item) => carLine(tenant, item, visitor.origin, 'email')));
      }
    } else {
      for (const item of ofKind) {
        lines.push(carLine(tenant, item, visitor.origin, 'email'));
        const like = similar.get(item.carId) ?? [];
        if (like.length) {
          lines.push('  Similar cars:');
          lines.push(...like.map((car) => `  - ${car.name}${car.price > 10 ? `, ${formatMoney(tenant.config, car.price)}` : ''}: ${alertLink(visitor.origin, carPath(tenant, car.slug), kind, 'email')}`));
        }
      }
    }
    lines.push('');
  }
  lines.push(`Your saved cars and searches: ${alertLink(visitor.origin, garagePath(tenant), 'digest', 'email')}`, '');
  lines.push(`You get these alerts because you turned them on at ${tenant.name} on ${new Date(visitor.consentedAt).toISOString().slice(0, 10)}.`);
  lines.push(`${tenant.name}${tenant.phone ? `, ${tenant.phone}` : ''}, ${visitor.origin}`);
  lines.push(`Unsubscribe: ${unsubscribe.page}`);
  const count = items.length;
  return {
    kind: 'email',
    to: visitor.address,
    subject: `${count} ${count === 1 ? 'update' : 'updates'} on your saved cars and searches at ${tenant.name}`.replace(/[\r\n]+/g, ' '),
    text: lines.join('\n'),
    adf: '',
    attachmentIds: [],
    messageKey: `alert-${crypto.randomUUID()}`,
    headers: { 'List-Unsubscribe': `<${unsubscribe.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

export type SmsMessage = { kind: 'sms'; to: string; from: string; body: string };

/** An SMS: the first thing found in a sentence, how many more, the garage's link and the unsubscribe link. */
export function alertSms(tenant: Tenant, visitor: Pick<Due, 'address' | 'origin'>, items: AlertLine[], unsubscribe: string): SmsMessage {
  const money = (value: number) => formatMoney(tenant.config, value);
  const first = items[0];
  const what =
    first.kind === 'price_drop'
      ? `price drop: ${first.name} now ${money(first.newPrice ?? first.price)} (was ${money(first.oldPrice ?? first.price)})`
      : first.kind === 'new_stock'
        ? `new for “${first.searchName ?? ''}”: ${first.name}`
        : `${HEADINGS[first.kind].toLowerCase()}: ${first.name}`;
  const more = items.length > 1 ? ` and ${items.length - 1} more` : '';
  const link = alertLink(visitor.origin, items.length === 1 ? carPath(tenant, first.slug) : garagePath(tenant), items.length === 1 ? first.kind : 'digest', 'sms');
  return { kind: 'sms', to: visitor.address, from: smsFrom(tenant), body: `${tenant.name}: ${what}${more}. ${link} Unsubscribe: ${unsubscribe}` };
}
