import { LeadPage, leadPageMetadata, type LeadPageProps } from '@/screens/lead-pages';

/** /book-test-drive/: book a test drive, of one car with ?car_id={id}. */
export const generateMetadata = () => leadPageMetadata('test-drive');

export default function Page(props: LeadPageProps) {
  return <LeadPage kind="test-drive" {...props} />;
}
