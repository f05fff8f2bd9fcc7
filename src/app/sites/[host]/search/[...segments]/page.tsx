import type { Metadata } from 'next';
import {
  StockListPage,
  stockListMetadata,
  type StockListParams,
  type StockListSearchParams,
} from '@/modules/stock/components/stock-list-page';

type Props = { params: StockListParams; searchParams: StockListSearchParams };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  return stockListMetadata(params, searchParams);
}

export default function Page({ params, searchParams }: Props) {
  return <StockListPage params={params} searchParams={searchParams} />;
}
