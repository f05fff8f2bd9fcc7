import type { CSSProperties } from 'react';
import type { WebsiteConfig } from '../tenancy.config';

/**
 * A website's theme as CSS variables on <body> (globals.css maps them to Tailwind colours).
 * Text on a coloured background is the configured foreground when it reaches WCAG AA (4.5:1);
 * otherwise whichever of near-black and white reads better, so no dealer palette ships unreadable text.
 */

type Theme = WebsiteConfig['theme'];

export const AA_NORMAL_TEXT = 4.5;
const DARK = '#111827';
const LIGHT = '#ffffff';
const BLACK = '#000000';
/** The palest surface brand-coloured text sits on (gray-100): reading there means reading on white too. */
const LIGHT_SURFACE = '#f3f4f6';

export const FONT_STACKS: Record<Theme['fontStack'], string> = {
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  serif: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, "Times New Roman", serif',
  condensed:
    '"Roboto Condensed", "Arial Narrow", "Helvetica Neue Condensed", "Avenir Next Condensed", "Liberation Sans Narrow", system-ui, sans-serif',
};

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The preferred text colour on `background` if it meets AA, else the better of dark and white.
 * On mid-luminance backgrounds (around #2f7fc0 or #c0392b) neither near-black nor white reaches
 * 4.5:1; pure black always does wherever white does not (the worst case is about 4.58:1), so it
 * is the last resort and every background gets readable text.
 */
export function readableOn(background: string, preferred?: string): string {
  if (preferred && contrastRatio(background, preferred) >= AA_NORMAL_TEXT) return preferred;
  const better = contrastRatio(background, DARK) >= contrastRatio(background, LIGHT) ? DARK : LIGHT;
  if (contrastRatio(background, better) >= AA_NORMAL_TEXT) return better;
  return contrastRatio(background, LIGHT) >= AA_NORMAL_TEXT ? LIGHT : BLACK;
}

/**
 * The brand colour as used for text and links on the light page backgrounds: the brand itself when
 * it reads at AA on them, else darkened until it does.
 */
export function brandTextOnLight(primary: string): string {
  let colour = primary;
  for (let i = 0; i < 20 && contrastRatio(colour, LIGHT_SURFACE) < AA_NORMAL_TEXT; i++) colour = mix(colour, BLACK, 0.1);
  return colour;
}

function mix(a: string, b: string, weight: number): string {
  const pa = Number.parseInt(a.slice(1), 16);
  const pb = Number.parseInt(b.slice(1), 16);
  const out = [16, 8, 0].map((shift) => {
    const ca = (pa >> shift) & 255;
    const cb = (pb >> shift) & 255;
    return Math.round(ca + (cb - ca) * weight);
  });
  return `#${out.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Below this the brand colour does not stand out from the header as a button. */
const DISTINCT_FROM_HEADER = 1.5;

/** The CSS variables for one website. */
export function themeVariables(theme: Theme): Record<`--site-${string}`, string> {
  // A call button in the brand colour on a header of the same colour would look like text: use
  // the accent there instead.
  const headerCta =
    contrastRatio(theme.primary, theme.headerBackground) >= DISTINCT_FROM_HEADER ? theme.primary : theme.accent;
  return {
    '--site-header-cta': headerCta,
    '--site-header-cta-foreground': readableOn(headerCta, headerCta === theme.primary ? theme.primaryForeground : undefined),
    '--site-primary': theme.primary,
    '--site-primary-foreground': readableOn(theme.primary, theme.primaryForeground),
    '--site-primary-text': brandTextOnLight(theme.primary),
    '--site-accent': theme.accent,
    '--site-accent-foreground': readableOn(theme.accent),
    '--site-radius': `${theme.radius}px`,
    '--site-header-bg': theme.headerBackground,
    '--site-header-fg': readableOn(theme.headerBackground, theme.headerForeground),
    '--site-footer-bg': theme.footerBackground,
    '--site-footer-fg': readableOn(theme.footerBackground, theme.footerForeground),
    '--site-font': FONT_STACKS[theme.fontStack],
  };
}

export function themeStyle(theme: Theme): CSSProperties {
  return themeVariables(theme) as CSSProperties;
}
