import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /pages/photography: photography enquiry. */
export const generateMetadata = () => leadPageMetadata('photography');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="photography" {...props} />;
}
