import type { Metadata } from 'next';
import { CheckoutPage, checkoutPageMetadata, type CheckoutPageParams } from '@/modules/checkout/components/checkout-page';

/** /cars/{slug}/buy-online (SPEC §2): the online purchase flow of one car; other vehicle paths redirect to the website's own. */
export async function generateMetadata({ params }: { params: CheckoutPageParams }): Promise<Metadata> {
  return checkoutPageMetadata(params, 'cars', 'buy_online');
}

export default function Page({ params }: { params: CheckoutPageParams }) {
  return <CheckoutPage params={params} segment="cars" kind="buy_online" />;
}
