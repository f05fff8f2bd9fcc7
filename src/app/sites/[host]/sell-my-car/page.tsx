import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/modules/leads/components/lead-pages';

/** /sell-my-car: sell my car. */
export const generateMetadata = (props: LeadPageProps) => leadPageMetadata('sell-my-car', props);

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="sell-my-car" {...props} />;
}
