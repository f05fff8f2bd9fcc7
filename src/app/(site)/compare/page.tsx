import type { Metadata } from 'next';
import { requireTenant } from '@/modules/tenancy/tenancy.request';
import { ComparePage } from '@/screens/compare-page';

// A comparison is for the visitor who made it (and whoever they share it with), not for search engines.
export const metadata: Metadata = { title: 'Compare', robots: { index: false, follow: true } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function Page({ searchParams }: Props) {
  return <ComparePage tenant={await requireTenant()} raw={(await searchParams).car} />;
}
