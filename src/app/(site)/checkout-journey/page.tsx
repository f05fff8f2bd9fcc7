import { CheckoutJourneyPage, checkoutJourneyMetadata } from '@/modules/checkout/components/checkout-journey-page';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** /checkout-journey?car_id={slug} (SPEC §2): online purchase — the buyer's choices, then the deposit. */
export const generateMetadata = (props: Props) => checkoutJourneyMetadata(props);

export default function Page(props: Props) {
  return <CheckoutJourneyPage {...props} />;
}
