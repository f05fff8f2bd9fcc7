import { LinkButton } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { PhoneIcon } from '@/components/ui/icons';
import { spell } from '@/lib/format';
import { telHref } from '../tenancy.links';
import { searchPath } from '../tenancy.paths';
import type { Tenant } from '../tenancy.types';
import { StockSearchForm } from './stock-search-form';

type Props = { tenant: Tenant };

/**
 * The home page's opening band in the dealer's brand colour: the configured heading and
 * subheading, a call button and the stock search box. No image, so nothing remote and nothing
 * large delays the first paint.
 */
export function HomeHero({ tenant }: Props) {
  const { hero } = tenant.config;
  const phone = tenant.phone ? telHref(tenant.phone) : null;
  const place = [tenant.overrideCity ?? tenant.city, tenant.state].filter(Boolean).join(', ');
  const centred = tenant.template === 'override';

  return (
    <section aria-labelledby="home-hero-heading" className="relative isolate overflow-hidden bg-brand text-brand-foreground">
      {/* Depth without an image: soft light from the top right and a darker foot. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(circle_at_85%_-10%,rgb(255_255_255/0.22),transparent_55%),linear-gradient(to_bottom,transparent_40%,rgb(0_0_0/0.22))]"
      />
      <Container
        className={
          centred
            ? 'flex flex-col items-center gap-8 py-12 text-center md:py-16 lg:py-20'
            : 'grid items-center gap-8 py-10 md:py-14 lg:grid-cols-[1.1fr_1fr] lg:gap-12 lg:py-20'
        }
      >
        <div className={centred ? 'max-w-3xl' : undefined}>
          {place ? (
            <p className="mb-3 text-sm font-semibold tracking-widest uppercase">{place}</p>
          ) : null}
          <h1 id="home-hero-heading" className="text-3xl leading-tight font-extrabold tracking-tight text-balance sm:text-4xl lg:text-5xl">
            {hero.heading}
          </h1>
          {hero.subheading ? (
            <p className="mt-4 max-w-2xl text-lg leading-relaxed text-pretty md:text-xl">{hero.subheading}</p>
          ) : null}
          <div className={`mt-7 flex flex-wrap gap-3 ${centred ? 'justify-center' : ''}`}>
            <LinkButton href={searchPath(tenant)} variant="inverse" size="lg">
              {spell(tenant.config, 'Browse all stock')}
            </LinkButton>
            {phone ? (
              <LinkButton
                href={phone}
                variant="ghost"
                size="lg"
                className="border-2 border-current hover:bg-white/10"
              >
                <PhoneIcon size={20} />
                {tenant.phone}
              </LinkButton>
            ) : null}
          </div>
        </div>
        <div className={`w-full rounded-site bg-white p-5 text-left text-gray-900 shadow-2xl sm:p-6 ${centred ? 'max-w-2xl' : ''}`}>
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
      </Container>
    </section>
  );
}
