import { requireTenant, type HostParams } from '@/modules/tenancy/tenancy.request';

export default async function HomePage({ params }: { params: HostParams }) {
  const tenant = await requireTenant(params);
  return <main>{tenant.name}</main>;
}
