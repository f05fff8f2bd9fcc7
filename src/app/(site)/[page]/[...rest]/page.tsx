import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { NOT_FOUND_METADATA } from '@/modules/content/content.route';
import { GARAGE_METADATA, isGaragePath } from '@/modules/identity/identity.route';
import { GaragePage } from '@/screens/garage-page';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/**
 * Any deeper path no route claims (/a/b/c, /cars/x/y): the dealer's own 404 page inside the
 * site's layout, instead of Next's bare default (there is no app-wide root layout to give it one);
 * or the website's garage where it has a deeper path of its own (/mymotorama/saved).
 */

type Props = { params: Promise<{ page: string; rest: string[] }> };

async function pathOf(params: Props['params']): Promise<string> {
  const { page, rest } = await params;
  return `/${[page, ...rest].join('/')}`;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  return isGaragePath(tenant, await pathOf(params)) ? GARAGE_METADATA : NOT_FOUND_METADATA;
}

export default async function UnmatchedPath({ params }: Props) {
  const tenant = await requireTenant();
  if (isGaragePath(tenant, await pathOf(params))) return <GaragePage tenant={tenant} />;
  notFound();
}
