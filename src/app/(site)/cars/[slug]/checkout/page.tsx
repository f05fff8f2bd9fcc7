import type { Metadata } from 'next';
import { CheckoutPage, checkoutPageMetadata, type CheckoutPageParams } from '@/modules/checkout/components/checkout-page';

/** /cars/{slug}/checkout (SPEC §2): the reserve flow of one car; other vehicle paths redirect to the website's own. */
export async function generateMetadata({ params }: { params: CheckoutPageParams }): Promise<Metadata> {
  return checkoutPageMetadata(params, 'cars', 'reserve');
}

export default function Page({ params }: { params: CheckoutPageParams }) {
  return <CheckoutPage params={params} segment="cars" kind="reserve" />;
}
