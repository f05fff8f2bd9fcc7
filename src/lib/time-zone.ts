/**
 * Time-zone arithmetic with Intl only (no library): wall-clock times of a location's own zone,
 * correct across daylight-saving changes. Client-safe.
 */
import { dateTimeFormat } from './intl';

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  return dateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number };

/** The wall-clock time in timeZone at an instant. */
export function wallTimeAt(instantMs: number, timeZone: string): WallTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** Offset of timeZone from UTC at an instant, in minutes (e.g. +660 for AEDT). */
export function offsetMinutesAt(instantMs: number, timeZone: string): number {
  const w = wallTimeAt(instantMs, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time happens in timeZone; the earlier one when it happens twice (clocks
 * go back), null when it does not happen at all (clocks go forward over it).
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): number | null {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const candidates = new Set<number>();
  for (const probe of [naive - 14 * 3_600_000, naive, naive + 14 * 3_600_000]) {
    candidates.add(naive - offsetMinutesAt(probe, timeZone) * 60_000);
  }
  const matches = [...candidates]
    .filter((instant) => {
      const w = wallTimeAt(instant, timeZone);
      return w.year === wall.year && w.month === wall.month && w.day === wall.day && w.hour === wall.hour && w.minute === wall.minute;
    })
    .sort((a, b) => a - b);
  return matches[0] ?? null;
}

/** ISO 8601 with the zone's offset: 2026-10-05T09:00:00+11:00. */
export function formatInZone(instantMs: number, timeZone: string): string {
  const w = wallTimeAt(instantMs, timeZone);
  const offset = offsetMinutesAt(instantMs, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The calendar date `days` after a local date, with its weekday (0 Sunday). */
export function addDays(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}

export function isoDate(date: { year: number; month: number; day: number }): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
