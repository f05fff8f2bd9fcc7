import type { Metadata } from 'next';
import { SuccessView } from '@/modules/leads/components/success-view';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/** /success?category={slug} plus extra key=value pairs: where every lead form lands (SPEC §2). */

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: 'Thank you', robots: { index: false } };

export default async function SuccessPage({ searchParams }: Props) {
  const tenant = await requireTenant();
  const { category } = await searchParams;
  return <SuccessView tenant={tenant} category={Array.isArray(category) ? category[0] : category} />;
}
