import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from './tenancy.config';
import { brandTextOnLight, contrastRatio, FONT_STACKS, readableOn, themeVariables } from './components/site-theme';

describe('site theme', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps the configured foreground on the brand colour when it reads at AA', () => {
    expect(readableOn('#0b3d91', '#ffffff')).toBe('#ffffff');
    expect(readableOn('#ffd400', '#111111')).toBe('#111111');
  });

  it('replaces a configured foreground that fails AA with one that passes', () => {
    const yellow = '#ffd400';
    const text = readableOn(yellow, '#ffffff');
    expect(text).not.toBe('#ffffff');
    expect(contrastRatio(yellow, text)).toBeGreaterThanOrEqual(4.5);
    const mid = '#2f9e44';
    expect(contrastRatio(mid, readableOn(mid, '#ffffff'))).toBeGreaterThanOrEqual(4.5);
  });

  it('finds AA text on mid-luminance colours where neither near-black nor white reaches 4.5:1', () => {
    // #c34bb4: 4.21:1 with white, 4.07:1 with #111827.
    expect(contrastRatio('#c34bb4', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#c34bb4', readableOn('#c34bb4'))).toBeGreaterThanOrEqual(4.5);
  });

  it('gives every colour a text colour and a brand text colour that read at AA', () => {
    const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    const steps = [0, 34, 68, 102, 119, 136, 153, 170, 187, 204, 221, 238, 255];
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const colour = hex(r, g, b);
          expect(contrastRatio(colour, readableOn(colour, '#ffffff')), colour).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(brandTextOnLight(colour), '#f3f4f6'), colour).toBeGreaterThanOrEqual(4.5);
        }
  });

  it('darkens a light brand colour until it reads as text on white', () => {
    expect(brandTextOnLight('#0b3d91')).toBe('#0b3d91');
    const text = brandTextOnLight('#4ba82e');
    expect(contrastRatio(text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(text, '#f3f4f6')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(brandTextOnLight('#facc15'), '#f9fafb')).toBeGreaterThanOrEqual(4.5);
  });

  it('exposes the whole theme as --site-* variables, with a system font stack', () => {
    const config = parseWebsiteConfig({
      theme: { primary: '#4ba82e', primaryForeground: '#ffffff', radius: 2, fontStack: 'condensed', headerBackground: '#0e3a2f', headerForeground: '#0f172a' },
    });
    const vars = themeVariables(config.theme);
    expect(vars['--site-primary']).toBe('#4ba82e');
    expect(contrastRatio('#4ba82e', vars['--site-primary-foreground'])).toBeGreaterThanOrEqual(4.5);
    expect(vars['--site-radius']).toBe('2px');
    expect(vars['--site-font']).toBe(FONT_STACKS.condensed);
    // A dark header with dark text configured gets light text instead.
    expect(contrastRatio('#0e3a2f', vars['--site-header-fg'])).toBeGreaterThanOrEqual(4.5);
    for (const stack of Object.values(FONT_STACKS)) expect(stack).toMatch(/(sans-serif|serif)$/);
  });
});

describe('header call button', () => {
  it('uses the brand colour, or the accent when the header is already brand-coloured', () => {
    const distinct = themeVariables(parseWebsiteConfig({ theme: { primary: '#0b3d91', headerBackground: '#ffffff' } }).theme);
    expect(distinct['--site-header-cta']).toBe('#0b3d91');
    const same = themeVariables(
      parseWebsiteConfig({ theme: { primary: '#0e3a2f', headerBackground: '#0e3a2f', accent: '#78faae' } }).theme,
    );
    expect(same['--site-header-cta']).toBe('#78faae');
    expect(contrastRatio('#78faae', same['--site-header-cta-foreground'])).toBeGreaterThanOrEqual(4.5);
  });
});
