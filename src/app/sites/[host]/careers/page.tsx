import { CareersPage, careersMetadata } from '@/modules/content/components/careers-page';
import type { HostParams } from '@/modules/tenancy/tenancy.request';

/** /careers: the career pages with the careers enquiry form. */
type Props = { params: HostParams };

export const generateMetadata = ({ params }: Props) => careersMetadata(params, 'careers');

export default function Page({ params }: Props) {
  return <CareersPage params={params} slug="careers" />;
}
