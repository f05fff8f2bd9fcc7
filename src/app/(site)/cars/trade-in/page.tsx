import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /cars/trade-in?car_id={id}: a trade-in valuation towards one car (a static segment, so it wins over /cars/{slug}). */
export const generateMetadata = () => leadPageMetadata('trade-in');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="trade-in" {...props} />;
}
