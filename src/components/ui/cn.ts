import { clsx, type ClassValue } from 'clsx';

/** Class names joined, falsy values dropped. */
export function cn(...values: ClassValue[]): string {
  return clsx(values);
}
