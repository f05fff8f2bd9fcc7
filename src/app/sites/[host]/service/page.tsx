import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/modules/leads/components/lead-pages';

/** /service: book a service. */
export const generateMetadata = (props: LeadPageProps) => leadPageMetadata('service', props);

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="service" {...props} />;
}
