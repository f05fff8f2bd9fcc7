import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /vehicle-parts-and-accessories: parts and accessories enquiry. */
export const generateMetadata = () => leadPageMetadata('parts');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="parts" {...props} />;
}
