import type { Metadata } from 'next';
import { SuccessView } from '@/modules/leads/components/success-view';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/** /success?category={slug} plus extra key=value pairs: where every lead form lands (SPEC §2). */

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: 'Thank you', robots: { index: false } };

export default async function SuccessPage({ searchParams }: Props) {
  const tenant = await requireTenant();
  const { category, form } = await searchParams;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return <SuccessView tenant={tenant} category={first(category)} form={first(form)} />;
}
