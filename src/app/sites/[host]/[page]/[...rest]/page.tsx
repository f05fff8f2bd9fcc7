import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { NOT_FOUND_METADATA } from '@/modules/content/content.route';

/**
 * Any deeper path no route claims (/a/b/c, /cars/x/y): the dealer's own 404 page inside the
 * site's layout, instead of Next's bare default (there is no app-wide root layout to give it one).
 */
export const metadata: Metadata = NOT_FOUND_METADATA;

export default function UnmatchedPath(): never {
  notFound();
}
