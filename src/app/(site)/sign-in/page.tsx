import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { SignInForm } from '@/modules/identity/components/sign-in-form';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

export const metadata: Metadata = { title: 'Sign in', robots: { index: false, follow: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** /sign-in (issue 14): phone, then code. Only where the website enables phone sign-in. */
export default async function SignInPage({ searchParams }: Props) {
  const tenant = await requireTenant();
  if (!tenant.config.phoneSignIn.enabled) notFound();
  const wanted = (await searchParams).next;
  // Only a path of this website: never an address elsewhere.
  const next = typeof wanted === 'string' && /^\/(?!\/)[^\s\\]*$/.test(wanted) ? wanted : tenant.config.garage.enabled ? tenant.config.garage.path : '/';
  return (
    <>
      <PageHeader title="Sign in" lead="We will text a 6-digit code to your mobile. No password needed." breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Sign in' }]} />
      <Container className="py-8">
        <SignInForm next={next} />
      </Container>
    </>
  );
}
