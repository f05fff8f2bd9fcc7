import { LinkButton } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Container } from '@/components/ui/container';
import { PhoneIcon } from '@/components/ui/icons';
import { spell } from '@/lib/format';
import { telHref } from '../tenancy.links';
import { searchPath } from '../tenancy.paths';
import type { Tenant } from '../tenancy.types';
import { placeName } from './place-name';
import { StockSearchForm } from './stock-search-form';

type Props = { tenant: Tenant };

/**
 * The home page's opening band in the dealer's brand colour: the configured heading and
 * subheading, the stock search box and call/browse buttons. No image, so nothing remote and
 * nothing large delays the first paint. On phones the search box comes straight after the
 * heading; from lg it sits beside the text. The override template centres everything.
 */
export function HomeHero({ tenant }: Props) {
  const { hero } = tenant.config;
  const phone = tenant.phone ? telHref(tenant.phone) : null;
  const place = placeName(tenant);
  const centred = tenant.template === 'override';

  return (
    <section aria-labelledby="home-hero-heading" className="relative isolate overflow-hidden bg-brand text-brand-foreground">
      {/* Depth without an image: soft light from the top right and a darker foot. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(circle_at_85%_-10%,rgb(255_255_255/0.22),transparent_55%),linear-gradient(to_bottom,transparent_40%,rgb(0_0_0/0.18))]"
      />
      <Container
        className={cn(
          'grid gap-6 py-8 sm:py-10 md:gap-8 md:py-14',
          centred
            ? 'justify-items-center text-center lg:py-16'
            : 'items-center lg:grid-cols-[1.1fr_1fr] lg:grid-rows-[auto_auto] lg:gap-x-12 lg:gap-y-7 lg:py-20',
        )}
      >
        <div className={cn(centred ? 'max-w-3xl' : 'lg:self-end')}>
          {place ? <p className="mb-3 text-sm font-semibold tracking-widest uppercase">{place}</p> : null}
          <h1
            id="home-hero-heading"
            className="text-[2rem] leading-tight font-extrabold tracking-tight text-balance sm:text-4xl lg:text-5xl"
          >
            {hero.heading}
          </h1>
          {hero.subheading ? (
            <p className={cn('mt-4 text-base leading-relaxed text-pretty sm:text-lg md:text-xl', centred && 'mx-auto max-w-2xl')}>
              {hero.subheading}
            </p>
          ) : null}
        </div>
        <div
          className={cn(
            'w-full rounded-site bg-white p-5 text-left text-gray-900 shadow-2xl sm:p-6',
            centred ? 'max-w-2xl' : 'lg:col-start-2 lg:row-span-2 lg:row-start-1',
          )}
        >
          <StockSearchForm
            action={searchPath(tenant)}
            id="home-search-q"
            labels={{
              label: spell(tenant.config, 'Search our stock'),
              placeholder: 'Make, model or keyword',
              submit: 'Search',
            }}
          />
        </div>
        <div className={cn('flex flex-wrap gap-3', centred ? 'justify-center' : 'lg:col-start-1 lg:row-start-2 lg:self-start')}>
          <LinkButton href={searchPath(tenant)} variant="inverse" size="lg" className="max-sm:min-h-12 max-sm:px-5 max-sm:text-base">
            {spell(tenant.config, 'Browse all stock')}
          </LinkButton>
          {phone ? (
            <LinkButton
              href={phone}
              variant="ghost"
              size="lg"
              className="border-2 border-current hover:bg-white/10 max-sm:min-h-12 max-sm:px-5 max-sm:text-base"
            >
              <PhoneIcon size={20} />
              {tenant.phone}
            </LinkButton>
          ) : null}
        </div>
      </Container>
    </section>
  );
}
