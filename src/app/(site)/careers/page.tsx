import { CareersPage, careersMetadata } from '@/screens/careers-page';

/** /careers: the career pages with the careers enquiry form. */
export const generateMetadata = () => careersMetadata('careers');

export default function Page() {
  return <CareersPage slug="careers" />;
}
