import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /photography: where the link rules send /pages/photography on sites without a pages path. */
export const generateMetadata = () => leadPageMetadata('photography');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="photography" {...props} />;
}
