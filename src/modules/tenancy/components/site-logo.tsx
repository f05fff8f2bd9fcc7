import Link from 'next/link';
import { cn } from '@/components/ui/cn';

type SiteLogoProps = {
  name: string;
  logoUrl: string | null;
  /** The box the logo is fitted into; fixed so the header never shifts while the logo loads. */
  size?: 'default' | 'large';
  align?: 'left' | 'center';
  className?: string;
};

const BOX = {
  default: { width: 260, height: 56, className: 'h-11 w-[210px] xs:w-[220px] md:h-14 md:w-[260px]' },
  large: { width: 360, height: 80, className: 'h-11 w-[210px] xs:w-[220px] md:h-20 md:w-[360px]' },
} as const;

/**
 * The dealer's logo linking home. The image fills a box of fixed size (object-fit: contain), so
 * its intrinsic size cannot move the layout. Without a logo the dealer's name is the wordmark.
 */
export function SiteLogo({ name, logoUrl, size = 'default', align = 'left', className }: SiteLogoProps) {
  const box = BOX[size];
  return (
    <Link href="/" prefetch={false} className={cn('inline-flex shrink-0 items-center rounded-site', className)}>
      {logoUrl ? (
        // A dealer's SVG or raster logo at a fixed box: next/image would add nothing for an SVG.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={logoUrl}
          alt={`${name} home`}
          width={box.width}
          height={box.height}
          fetchPriority="high"
          decoding="async"
          className={cn(box.className, 'object-contain', align === 'center' ? 'object-center' : 'object-left')}
        />
      ) : (
        <span
          className={cn(
            'font-extrabold tracking-tight leading-none',
            size === 'large' ? 'text-2xl md:text-3xl' : 'text-xl md:text-2xl',
          )}
        >
          {name}
          <span className="sr-only"> home</span>
        </span>
      )}
    </Link>
  );
}
