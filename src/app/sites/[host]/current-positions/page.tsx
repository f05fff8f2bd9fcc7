import { CareersPage, careersMetadata } from '@/modules/content/components/careers-page';
import type { HostParams } from '@/modules/tenancy/tenancy.request';

/** /current-positions: the career pages with the careers enquiry form. */
type Props = { params: HostParams };

export const generateMetadata = ({ params }: Props) => careersMetadata(params, 'current-positions');

export default function Page({ params }: Props) {
  return <CareersPage params={params} slug="current-positions" />;
}
