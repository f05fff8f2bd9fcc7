import Link from 'next/link';
import type { ReactNode } from 'react';
import { Container } from '@/components/ui/container';
import { ArrowRightIcon, ChatIcon, DollarIcon, SwapIcon, TagIcon } from '@/components/ui/icons';
import { spell } from '@/lib/format';
import { searchPath } from '../tenancy.paths';
import type { Tenant } from '../tenancy.types';
import type { CarTypeQuickLink } from './navigation-model';

function SectionHeading({ id, title, action }: { id: string; title: string; action?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <h2 id={id} className="text-2xl font-extrabold tracking-tight text-gray-900 md:text-3xl">
        {title}
      </h2>
      {action}
    </div>
  );
}

const cardClass =
  'group flex h-full items-center gap-4 rounded-site border border-gray-200 bg-white p-5 shadow-sm transition ' +
  'hover:-translate-y-0.5 hover:border-brand hover:shadow-md';

/** Quick links by car type, labelled as the dealer's navigation labels them. */
export function CarTypeLinks({ tenant, links }: { tenant: Tenant; links: CarTypeQuickLink[] }) {
  if (links.length === 0) return null;
  return (
    <section aria-labelledby="shop-by-type" className="bg-gray-50 py-10 md:py-14">
      <Container>
        <SectionHeading
          id="shop-by-type"
          title={spell(tenant.config, 'Shop by type')}
          action={
            <Link
              href={searchPath(tenant)}
              prefetch={false}
              className="inline-flex items-center gap-1 rounded-sm font-semibold text-brand-text hover:underline"
            >
              {spell(tenant.config, 'View all stock')}
              <ArrowRightIcon size={18} />
            </Link>
          }
        />
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {links.map((link) => (
            <li key={link.carType}>
              <Link href={link.href} prefetch={false} className={cardClass}>
                <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand text-brand-foreground">
                  <TagIcon size={24} />
                </span>
                <span className="flex-1 text-lg font-bold text-gray-900">{link.label}</span>
                <ArrowRightIcon size={20} className="text-brand-text transition-transform group-hover:translate-x-1" />
              </Link>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

/** Finance, trade-in and contact: the three things every dealer site offers (SPEC §1). */
export function HelpLinks({ tenant }: { tenant: Tenant }) {
  const items = [
    {
      href: '/finance',
      icon: <DollarIcon size={24} />,
      title: spell(tenant.config, 'Apply for finance'),
      text: spell(tenant.config, 'Get a quick quote and apply online in minutes.'),
    },
    {
      href: '/trade-in',
      icon: <SwapIcon size={24} />,
      title: spell(tenant.config, 'Value your trade-in'),
      text: spell(tenant.config, 'Find out what your current vehicle is worth.'),
    },
    {
      href: '/contact',
      icon: <ChatIcon size={24} />,
      title: spell(tenant.config, 'Talk to our team'),
      text: spell(tenant.config, 'Questions about a vehicle? Send us an enquiry.'),
    },
  ];
  return (
    <section aria-labelledby="how-we-help" className="py-10 md:py-14">
      <Container>
        <SectionHeading id="how-we-help" title={spell(tenant.config, 'How we can help')} />
        <ul className="grid gap-4 md:grid-cols-3">
          {items.map((item) => (
            <li key={item.href}>
              <Link href={item.href} prefetch={false} className={`${cardClass} items-start`}>
                <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground">
                  {item.icon}
                </span>
                <span className="flex-1">
                  <span className="block text-lg font-bold text-gray-900">{item.title}</span>
                  <span className="mt-1 block text-gray-600">{item.text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

export { SectionHeading };
