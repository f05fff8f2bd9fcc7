import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { SignInForm } from '@/modules/identity/components/sign-in-form';
import { postedSignIn, SIGN_IN_FORM_COOKIE, signInNext } from '@/modules/identity/identity.sign-in';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

export const metadata: Metadata = { title: 'Sign in', robots: { index: false, follow: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** /sign-in (issue 14): phone, then code. Only where the website enables phone sign-in. */
export default async function SignInPage({ searchParams }: Props) {
  const tenant = await requireTenant();
  if (!tenant.config.phoneSignIn.enabled) notFound();
  const next = signInNext(tenant, (await searchParams).next);
  // Where a plain post of the form (before the scripts ran) left the visitor: phone, code sent, messages.
  const posted = postedSignIn((await cookies()).get(SIGN_IN_FORM_COOKIE)?.value);
  return (
    <>
      <PageHeader title="Sign in" lead="We will text a 6-digit code to your mobile. No password needed." breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Sign in' }]} />
      <Container className="py-8">
        <SignInForm next={next} posted={posted} />
      </Container>
    </>
  );
}
