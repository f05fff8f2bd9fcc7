import { CareersPage, careersMetadata } from '@/modules/content/components/careers-page';

/** /careers: the career pages with the careers enquiry form. */
export const generateMetadata = () => careersMetadata('careers');

export default function Page() {
  return <CareersPage slug="careers" />;
}
