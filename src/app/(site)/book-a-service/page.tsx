import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /book-a-service: where the link rules send /pages/book-a-service on sites without a pages path. */
export const generateMetadata = () => leadPageMetadata('service');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="service" {...props} />;
}
