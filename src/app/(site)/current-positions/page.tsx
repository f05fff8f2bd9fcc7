import { CareersPage, careersMetadata } from '@/screens/careers-page';

/** /current-positions: the career pages with the careers enquiry form. */
export const generateMetadata = () => careersMetadata('current-positions');

export default function Page() {
  return <CareersPage slug="current-positions" />;
}
