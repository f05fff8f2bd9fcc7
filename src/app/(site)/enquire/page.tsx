import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /enquire?car_id={id}: the enquiry form of one car (the car page opens it as a modal). */
export const generateMetadata = () => leadPageMetadata('enquire');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="enquire" {...props} />;
}
