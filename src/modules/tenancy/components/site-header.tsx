import Link from 'next/link';
import { Container } from '@/components/ui/container';
import { MapPinIcon, PhoneIcon } from '@/components/ui/icons';
import { spell } from '@/lib/format';
import { telHref } from '../tenancy.links';
import type { Tenant } from '../tenancy.types';
import { placeName } from './place-name';
import { HeaderNavigation } from './header-navigation';
import { MobileMenu } from './mobile-menu';
import type { NavEntry } from './navigation-model';
import { SiteLogo } from './site-logo';

type Props = { tenant: Tenant; entries: NavEntry[] };

/**
 * The site header, by template: 'default' puts the logo left and the menu beside it; 'override'
 * adds a contact bar above a centred logo and menu. Below md both collapse to logo, call and menu
 * buttons. Only the menus are client islands.
 */
export function SiteHeader({ tenant, entries }: Props) {
  const href = tenant.phone ? telHref(tenant.phone) : null;
  const phone = href ? { display: tenant.phone, href } : null;
  const labels = {
    menu: 'Open menu',
    close: 'Close menu',
    call: 'Call',
  };
  const contactBar = tenant.template === 'override';
  // The garage (and through it sign-in) where the website keeps one (issue 14).
  const garageLink = (className: string) => (
    <Link
      href={tenant.config.garage.path}
      prefetch={false}
      aria-label="My garage"
      title="My garage"
      className={`size-11 items-center justify-center rounded-site text-header-foreground hover:bg-current/10 ${className}`}
    >
      <span aria-hidden="true" className="heart-icon size-[22px]" />
    </Link>
  );
  const garage = tenant.config.garage.enabled;
  // Below 400 px the bar has no room for a third button: the garage is in the menu there.
  const menuEntries: NavEntry[] = garage ? [...entries, { id: -1, label: 'My garage', link: { kind: 'internal', href: tenant.config.garage.path }, children: [] }] : entries;
  const mobile = (
    <div className="ml-auto flex items-center gap-1 md:hidden">
      {garage ? garageLink('hidden xs:inline-flex') : null}
      {phone && !contactBar ? (
        <a
          href={phone.href}
          className="inline-flex size-11 items-center justify-center rounded-site text-header-foreground hover:bg-current/10"
          aria-label={`${labels.call} ${tenant.name} on ${phone.display}`}
        >
          <PhoneIcon size={22} />
        </a>
      ) : null}
      <MobileMenu entries={menuEntries} siteName={tenant.name} phone={phone} labels={labels} />
    </div>
  );

  if (contactBar) {
    const place = placeName(tenant);
    return (
      <>
        <div className="bg-brand text-sm text-brand-foreground">
          <Container className="flex min-h-10 items-center justify-center gap-x-6 gap-y-1 py-1.5 sm:justify-between">
            {place ? (
              <p className="hidden items-center gap-1.5 sm:flex">
                <MapPinIcon size={16} />
                {place}
              </p>
            ) : null}
            <div className="flex items-center gap-x-5">
              {phone ? (
                <a href={phone.href} className="inline-flex items-center gap-1.5 font-semibold hover:underline">
                  <PhoneIcon size={16} />
                  {phone.display}
                </a>
              ) : null}
              <Link href="/contact" prefetch={false} className="font-semibold underline-offset-2 hover:underline">
                {spell(tenant.config, 'Contact us')}
              </Link>
            </div>
          </Container>
        </div>
        <header className="relative z-30 border-b border-black/10 bg-header text-header-foreground shadow-sm">
          <Container className="flex items-center py-3 md:flex-col md:gap-3 md:py-5">
            <SiteLogo name={tenant.name} logoUrl={tenant.logoUrl} size="large" align="center" />
            <div className="hidden w-full md:block">
              <HeaderNavigation entries={entries} align="center" />
            </div>
            {mobile}
          </Container>
        </header>
      </>
    );
  }

  return (
    <header className="relative z-30 border-b border-black/10 bg-header text-header-foreground shadow-sm">
      <Container className="flex items-center gap-x-4 py-3 md:grid md:grid-cols-[auto_1fr_auto] md:gap-y-2 xl:py-4">
        <SiteLogo name={tenant.name} logoUrl={tenant.logoUrl} />
        <div className="hidden md:col-span-3 md:row-start-2 md:-mx-3 md:block xl:col-span-1 xl:col-start-2 xl:row-start-1 xl:mx-0">
          <HeaderNavigation entries={entries} align="end" />
        </div>
        <div className="hidden items-center gap-2 justify-self-end md:col-start-3 md:row-start-1 md:flex">
          {garage ? garageLink('inline-flex') : null}
          {phone ? (
            <a
              href={phone.href}
              className="inline-flex min-h-11 items-center gap-2 rounded-site bg-header-cta px-4 font-semibold whitespace-nowrap text-header-cta-foreground hover:brightness-110"
            >
              <PhoneIcon size={18} />
              <span>
                <span className="sr-only">{labels.call} </span>
                {phone.display}
              </span>
            </a>
          ) : null}
        </div>
        {mobile}
      </Container>
    </header>
  );
}
