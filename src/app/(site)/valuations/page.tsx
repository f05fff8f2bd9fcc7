import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /valuations: trade-in valuation. */
export const generateMetadata = () => leadPageMetadata('trade-in');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="trade-in" {...props} />;
}
