import '../../globals.css';
import type { ReactNode } from 'react';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { hostFromParams, type HostParams } from '@/modules/tenancy/tenancy.request';

export default async function SiteLayout({ children, params }: { children: ReactNode; params: HostParams }) {
  const tenant = await findTenantByHost(await hostFromParams(params));
  return (
    <html lang={tenant?.config.locale ?? 'en'}>
      <body>{children}</body>
    </html>
  );
}
