import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /request-photos?car_id={id}: ask for more photos of one car. */
export const generateMetadata = () => leadPageMetadata('request-photos');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="request-photos" {...props} />;
}
