import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /sell-my-car: sell my car. */
export const generateMetadata = () => leadPageMetadata('sell-my-car');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="sell-my-car" {...props} />;
}
