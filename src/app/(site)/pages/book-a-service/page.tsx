import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /pages/book-a-service: book a service (a static segment, so it wins over /pages/{slug}). */
export const generateMetadata = () => leadPageMetadata('service');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="service" {...props} />;
}
