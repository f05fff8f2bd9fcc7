import { clsx as cn } from 'clsx';
import type { TagBanner as TagBannerValue } from '../stock.rules';

const tone: Record<TagBannerValue['kind'], string> = {
  fuel: 'bg-emerald-700 text-white',
  reserved: 'bg-slate-900 text-white',
  certified: 'bg-brand text-brand-foreground',
  custom: 'bg-accent text-accent-foreground',
  coming_soon: 'bg-sky-800 text-white',
  just_arrived: 'bg-accent text-accent-foreground',
  sold: 'bg-red-700 text-white',
};

/** The one tag banner of a car (see tagBanner in stock.rules.ts); on many cards, so its style is a class of globals.css. */
export function TagBanner({ banner, className }: { banner: TagBannerValue | null; className?: string }) {
  if (!banner) return null;
  return (
    <span
      className={cn('tag-banner', tone[banner.kind], className)}
    >
      {banner.label}
    </span>
  );
}
