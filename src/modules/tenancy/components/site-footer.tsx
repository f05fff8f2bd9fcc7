import { Container } from '@/components/ui/container';
import { MapPinIcon, PhoneIcon } from '@/components/ui/icons';
import { spell } from '@/lib/format';
import { telHref } from '../tenancy.links';
import type { Tenant } from '../tenancy.types';
import { placeName } from './place-name';
import type { NavEntry } from './navigation-model';
import { SiteLink } from './site-link';

type Props = {
  tenant: Tenant;
  entries: NavEntry[];
  year: number;
  /** Dealer licence numbers, shown on every page where the dealer has one (NSW requires it). */
  licences?: { dealershipName: string; number: string }[];
};

// The footer-link class of globals.css: every page carries the footer's links twice (HTML and RSC payload).
const linkClass = 'footer-link';

/**
 * The footer from the footer navigation: items with dropdown items become titled columns, single
 * items one 'Quick links' column. Dealer name, place and phone; the copyright line below.
 */
export function SiteFooter({ tenant, entries, year, licences = [] }: Props) {
  const groups = entries.filter((entry) => entry.children.length > 0);
  const singles = entries.filter((entry) => entry.children.length === 0 && entry.link);
  // Single links form one 'Quick links' column beside the groups (two columns wide when alone).
  const singlesWide = groups.length === 0;
  const phone = tenant.phone ? telHref(tenant.phone) : null;
  const place = placeName(tenant);

  return (
    <footer className="mt-auto bg-footer text-footer-foreground">
      <Container className="grid gap-10 py-12 lg:grid-cols-4 lg:py-14">
        <div className="lg:col-span-1">
          <p className="text-xl font-extrabold tracking-tight">{tenant.name}</p>
          <ul className="mt-4 space-y-2 text-[0.95rem]">
            {place ? (
              <li className="flex items-center gap-2">
                <MapPinIcon size={18} />
                {place}
              </li>
            ) : null}
            {phone ? (
              <li>
                <a href={phone} className={`${linkClass} inline-flex items-center gap-2 font-semibold`}>
                  <PhoneIcon size={18} />
                  {tenant.phone}
                </a>
              </li>
            ) : null}
          </ul>
        </div>
        {groups.length > 0 || singles.length > 0 ? (
          <nav aria-label="Footer" className="grid gap-10 sm:grid-cols-2 lg:col-span-3 lg:grid-cols-3">
            {groups.map((group) => (
              <div key={group.id}>
                <h2 className="text-sm font-bold tracking-wider uppercase">
                  {group.link ? (
                    <SiteLink link={group.link} className={linkClass}>
                      {group.label}
                    </SiteLink>
                  ) : (
                    group.label
                  )}
                </h2>
                <ul className="mt-4 space-y-2.5 text-[0.95rem]">
                  {group.children.map((child) =>
                    child.link ? (
                      <li key={child.id}>
                        <SiteLink link={child.link} className={linkClass}>
                          {child.label}
                        </SiteLink>
                      </li>
                    ) : null,
                  )}
                </ul>
              </div>
            ))}
            {singles.length > 0 ? (
              <div className={singlesWide ? 'sm:col-span-2' : undefined}>
                <h2 className="text-sm font-bold tracking-wider uppercase">{spell(tenant.config, 'Quick links')}</h2>
                <ul className={`mt-4 grid gap-x-8 gap-y-2.5 text-[0.95rem] ${singlesWide ? 'sm:grid-cols-2' : ''}`}>
                  {singles.map((entry) => (
                    <li key={entry.id}>
                      <SiteLink link={entry.link!} className={linkClass}>
                        {entry.label}
                      </SiteLink>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </nav>
        ) : null}
      </Container>
      <div className="border-t border-current/15">
        <Container className="flex flex-col gap-3 py-5 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {year} {tenant.name}
          </p>
          {licences.length > 0 ? (
            <p data-testid="dealer-licences">
              {licences
                .map((licence) =>
                  licences.length > 1
                    ? `${licence.dealershipName}: ${spell(tenant.config, 'Dealer licence')} ${licence.number}`
                    : `${spell(tenant.config, 'Dealer licence')} ${licence.number}`,
                )
                .join(' · ')}
            </p>
          ) : null}
        </Container>
      </div>
    </footer>
  );
}
