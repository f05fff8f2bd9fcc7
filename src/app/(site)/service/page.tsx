import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /service: book a service. */
export const generateMetadata = () => leadPageMetadata('service');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="service" {...props} />;
}
