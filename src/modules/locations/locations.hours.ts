import { z } from 'zod';
import { dateTimeFormat } from '@/lib/intl';
import { addDays, instantOfWallTime, isoDate, wallTimeAt } from '@/lib/time-zone';
import type { LocationSettings, OpeningHoursEntry, SpecialHoursEntry } from './locations.types';

/**
 * Opening-hours rules (SPEC §2 and §5), pure and client-safe. Everything is computed on the wall
 * clock of the location's own time zone: 'today', 'open now' and which date a holiday falls on.
 */

/** [open, close] as 'HH:MM', or null for closed. */
export type Span = readonly [string, string] | null;

/**
 * A week of opening hours (weekday 0 = Sunday … 6 = Saturday). `weekdays` applies Monday to
 * Friday unless a day is overridden.
 */
export function weeklyHours(spec: { weekdays: Span; saturday: Span; sunday: Span; overrides?: Partial<Record<number, Span>> }): OpeningHoursEntry[] {
  const entries: OpeningHoursEntry[] = [];
  for (let weekday = 0; weekday <= 6; weekday++) {
    let span: Span = weekday === 0 ? spec.sunday : weekday === 6 ? spec.saturday : spec.weekdays;
    if (spec.overrides && weekday in spec.overrides) span = spec.overrides[weekday] ?? null;
    entries.push(
      span
        ? { weekday, status: 'Open', open: span[0], close: span[1] }
        : { weekday, status: 'Closed', open: null, close: null },
    );
  }
  return entries;
}

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** Display order: Monday first, Sunday last. */
export const DISPLAY_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

export const HOURS_TEXT = {
  closed: 'Closed',
  appointment: 'By appointment only',
  today: 'Today',
  enquire: 'Enquire Now',
  weekdays: 'Mon-Fri',
  openNow: 'Open now',
  closedNow: 'Closed now',
} as const;

/** Minutes after midnight of 'H:MM' / 'HH:MM' (24:00 allowed as end of day); null when unreadable. */
export function parseClock(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(value.trim());
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[2]) < 60 && minutes <= 24 * 60 ? minutes : null;
}

/** 12-hour clock: 0 → '12:00 am', 510 → '8:30 am', 720 → '12:00 pm', 1440 → '12:00 am'. */
export function formatClock12(minutes: number): string {
  const inDay = ((minutes % 1440) + 1440) % 1440;
  const hour24 = Math.floor(inDay / 60);
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour12}:${String(inDay % 60).padStart(2, '0')} ${hour24 < 12 ? 'am' : 'pm'}`;
}

// ---- special hours: both entry shapes of SPEC §3 ----

const clock = z
  .string()
  .trim()
  .refine((v) => parseClock(v) != null)
  .nullish();
const status = z
  .string()
  .trim()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(['open', 'closed']))
  .transform((v) => (v === 'open' ? 'Open' : 'Closed') as 'Open' | 'Closed');
const date = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/)
  .transform((v) => v.slice(0, 10))
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v));
const id = z.coerce.number().int().positive();

/** { date, status, location_id, start_hour, end_hour } */
const flatShape = z.object({ date, status, location_id: id, start_hour: clock, end_hour: clock, name: z.string().nullish() });
/** { date, status, location: { id }, hours: { begin, end } } */
const nestedShape = z.object({
  date,
  status,
  location: z.object({ id }),
  hours: z.object({ begin: clock, end: clock }).nullish(),
  name: z.string().nullish(),
});

/**
 * One special-hours entry in either shape, or null when it is not a usable entry (an open day
 * needs a start before its end).
 */
export function parseSpecialHoursEntry(raw: unknown): SpecialHoursEntry | null {
  let entry: SpecialHoursEntry | null = null;
  const flat = flatShape.safeParse(raw);
  if (flat.success) {
    const e = flat.data;
    entry = { date: e.date, status: e.status, locationId: e.location_id, startHour: e.start_hour ?? null, endHour: e.end_hour ?? null, name: e.name ?? null };
  } else {
    const nested = nestedShape.safeParse(raw);
    if (!nested.success) return null;
    const e = nested.data;
    entry = { date: e.date, status: e.status, locationId: e.location.id, startHour: e.hours?.begin ?? null, endHour: e.hours?.end ?? null, name: e.name ?? null };
  }
  if (entry.status === 'Closed') return { ...entry, startHour: null, endHour: null };
  const start = parseClock(entry.startHour);
  const end = parseClock(entry.endHour);
  return start != null && end != null && start < end ? entry : null;
}

/** Usable entries of a list in either shape; when two name the same location and date, the first wins. */
export function parseSpecialHours(raw: unknown): SpecialHoursEntry[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const entries: SpecialHoursEntry[] = [];
  for (const item of raw) {
    const entry = parseSpecialHoursEntry(item);
    if (!entry) continue;
    const key = `${entry.locationId}:${entry.date}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
  }
  return entries.sort((a, b) => a.date.localeCompare(b.date) || a.locationId - b.locationId);
}

/** The SPEC §7 (flat) shape, as website_session_data sends it. */
export function specialHoursJson(entry: SpecialHoursEntry) {
  return {
    date: entry.date,
    status: entry.status,
    location_id: entry.locationId,
    start_hour: entry.startHour,
    end_hour: entry.endHour,
    name: entry.name,
  };
}

// ---- one day's hours ----

export type Interval = { open: number; close: number };

/** The opening intervals of one weekday in the weekly hours, earliest first. */
export function weeklyIntervals(openingHours: readonly OpeningHoursEntry[], weekday: number): Interval[] {
  const intervals: Interval[] = [];
  for (const entry of openingHours) {
    if (!entry || typeof entry !== 'object' || entry.weekday !== weekday || entry.status !== 'Open') continue;
    const open = parseClock(entry.open);
    const close = parseClock(entry.close);
    if (open != null && close != null && open < close) intervals.push({ open, close });
  }
  return intervals.sort((a, b) => a.open - b.open);
}

/** Intervals of a date: its special hours when it has them, else the weekly hours of its weekday. */
export function intervalsOn(
  openingHours: readonly OpeningHoursEntry[],
  weekday: number,
  special: Pick<SpecialHoursEntry, 'status' | 'startHour' | 'endHour'> | undefined,
): Interval[] {
  if (special?.status === 'Closed') return [];
  if (special?.status === 'Open') {
    const open = parseClock(special.startHour);
    const close = parseClock(special.endHour);
    if (open != null && close != null && open < close) return [{ open, close }];
  }
  return weeklyIntervals(openingHours, weekday);
}

function intervalsText(intervals: Interval[]): string {
  return intervals.map((i) => `${formatClock12(i.open)} - ${formatClock12(i.close)}`).join(', ');
}

// ---- the weekly list ----

export type HoursRowKind = 'open' | 'closed' | 'appointment' | 'enquire';

export type HoursRow = {
  /** 'Monday' … or 'Mon-Fri'. */
  label: string;
  weekdays: number[];
  /** '8:30 am - 5:30 pm', 'Closed', 'By appointment only' or 'Enquire Now'. */
  text: string;
  kind: HoursRowKind;
  /** The row holds the location's local today. */
  today: boolean;
  /** Holiday name when special hours apply to this row's date. */
  holiday: string | null;
};

type RowOptions = {
  timeZone: string;
  now: Date;
  specialHours?: readonly SpecialHoursEntry[];
  settings?: LocationSettings;
};

/** The local date and weekday of an instant in a zone. */
export function localDay(now: Date, timeZone: string): { date: string; weekday: number; minute: number } {
  const wall = wallTimeAt(now.getTime(), timeZone);
  const day = addDays(wall, 0);
  return { date: isoDate(day), weekday: day.weekday, minute: wall.hour * 60 + wall.minute };
}

/**
 * The opening-hours list of the coming week (today and the six days after, Monday first): special
 * hours override their date; Monday to Friday share one row when all five read the same; closed
 * days read 'By appointment only' at appointment-only locations; weekend days become an 'Enquire
 * Now' link where the location is configured so; today's row is marked.
 */
export function openingHoursRows(openingHours: readonly OpeningHoursEntry[], options: RowOptions): HoursRow[] {
  const { settings = {}, specialHours = [] } = options;
  const wall = wallTimeAt(options.now.getTime(), options.timeZone);
  const byWeekday = new Map<number, { date: string; special: SpecialHoursEntry | undefined }>();
  for (let offset = 0; offset < 7; offset++) {
    const day = addDays(wall, offset);
    const dateText = isoDate(day);
    byWeekday.set(day.weekday, { date: dateText, special: specialHours.find((s) => s.date === dateText) });
  }
  const todayWeekday = addDays(wall, 0).weekday;

  const dayRow = (weekday: number): HoursRow => {
    const { special } = byWeekday.get(weekday)!;
    const base = { label: WEEKDAY_NAMES[weekday], weekdays: [weekday], today: weekday === todayWeekday, holiday: special?.name ?? (special ? 'Special hours' : null) };
    if (settings.weekendEnquiryLink && (weekday === 0 || weekday === 6)) return { ...base, text: HOURS_TEXT.enquire, kind: 'enquire' };
    const intervals = intervalsOn(openingHours, weekday, special);
    if (intervals.length > 0) return { ...base, text: intervalsText(intervals), kind: 'open' };
    return settings.appointmentOnly
      ? { ...base, text: HOURS_TEXT.appointment, kind: 'appointment' }
      : { ...base, text: HOURS_TEXT.closed, kind: 'closed' };
  };

  const rows = DISPLAY_ORDER.map(dayRow);
  const weekdays = rows.slice(0, 5);
  const same = weekdays.every((row) => row.text === weekdays[0].text && row.kind === weekdays[0].kind && row.holiday === null);
  if (!same) return rows;
  return [
    { label: HOURS_TEXT.weekdays, weekdays: [1, 2, 3, 4, 5], text: weekdays[0].text, kind: weekdays[0].kind, today: weekdays.some((r) => r.today), holiday: null },
    ...rows.slice(5),
  ];
}

// ---- open now ----

export type OpenStatus =
  | { open: true; closesAt: string }
  | { open: false; opensAt: { day: string; time: string } | null };

/**
 * Whether the location is open at `now` on its own wall clock, when it closes, or when it next
 * opens within a week ('today', 'tomorrow' or a weekday name).
 */
export function openStatus(openingHours: readonly OpeningHoursEntry[], options: Omit<RowOptions, 'settings'>): OpenStatus {
  const { specialHours = [] } = options;
  const wall = wallTimeAt(options.now.getTime(), options.timeZone);
  const minute = wall.hour * 60 + wall.minute;
  for (let offset = 0; offset < 8; offset++) {
    const day = addDays(wall, offset);
    const special = specialHours.find((s) => s.date === isoDate(day));
    for (const interval of intervalsOn(openingHours, day.weekday, special)) {
      if (offset === 0 && interval.open <= minute && minute < interval.close) {
        return { open: true, closesAt: formatClock12(interval.close) };
      }
      if (offset > 0 || interval.open > minute) {
        const dayName = offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : WEEKDAY_NAMES[day.weekday];
        return { open: false, opensAt: { day: dayName, time: formatClock12(interval.open) } };
      }
    }
  }
  return { open: false, opensAt: null };
}

/** 'Open now · closes at 5:30 pm' / 'Closed now · opens tomorrow at 8:30 am'. */
export function openStatusText(status: OpenStatus): string {
  if (status.open) return `${HOURS_TEXT.openNow} · closes at ${status.closesAt}`;
  return status.opensAt ? `${HOURS_TEXT.closedNow} · opens ${status.opensAt.day} at ${status.opensAt.time}` : HOURS_TEXT.closedNow;
}

/**
 * The first instant after `now` at which the location's hours may read differently: its next
 * opening or closing time today, else its next local midnight ('Today' moves, 'tomorrow' becomes
 * 'today', a holiday passes). 'Open now', the week's rows and the holiday list all follow from the
 * local date and from where the minute falls among today's intervals, so nothing changes before.
 */
export function nextHoursChange(openingHours: readonly OpeningHoursEntry[], options: Omit<RowOptions, 'settings'>): number {
  const { specialHours = [], timeZone } = options;
  const wall = wallTimeAt(options.now.getTime(), timeZone);
  const minute = wall.hour * 60 + wall.minute;
  const today = addDays(wall, 0);
  const special = specialHours.find((s) => s.date === isoDate(today));
  const boundaries = intervalsOn(openingHours, today.weekday, special).flatMap((i) => [i.open, i.close]);
  const next = Math.min(24 * 60, ...boundaries.filter((m) => m > minute));
  // A wall time the clocks skip (daylight saving starts) happens when the skipped hour ends.
  for (let late = 0; late <= 180; late += 15) {
    const day = addDays(today, Math.floor((next + late) / 1440));
    const inDay = (next + late) % 1440;
    const instant = instantOfWallTime({ ...day, hour: Math.floor(inDay / 60), minute: inDay % 60 }, timeZone);
    if (instant !== null) return instant;
  }
  return options.now.getTime() + 3_600_000;
}

// ---- holiday hours dialog ----

export type HolidayRow = { date: string; label: string; name: string | null; text: string; kind: HoursRowKind };

/**
 * Upcoming special hours of one location from its local today, as the 'Holiday Opening Hours'
 * dialog lists them: 'Friday 25 December'.
 */
export function holidayRows(
  specialHours: readonly SpecialHoursEntry[],
  options: { timeZone: string; now: Date; locale: string; settings?: LocationSettings; limit?: number },
): HolidayRow[] {
  const today = localDay(options.now, options.timeZone).date;
  const formatter = dateTimeFormat(options.locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  return specialHours
    .filter((s) => s.date >= today)
    .slice(0, options.limit ?? 20)
    .map((s) => {
      const intervals = intervalsOn([], 0, s);
      const closedKind: HoursRowKind = options.settings?.appointmentOnly ? 'appointment' : 'closed';
      return {
        date: s.date,
        label: formatter.format(new Date(`${s.date}T00:00:00Z`)),
        name: s.name,
        text: intervals.length > 0 ? intervalsText(intervals) : options.settings?.appointmentOnly ? HOURS_TEXT.appointment : HOURS_TEXT.closed,
        kind: intervals.length > 0 ? 'open' : closedKind,
      };
    });
}
