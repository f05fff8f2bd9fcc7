import { afterEach, describe, expect, it, vi } from 'vitest';

// A fresh module per test: the loader remembers its load for the page's lifetime.
async function loader() {
  vi.resetModules();
  return import('./interactive-map');
}

/** A page with just enough DOM for the loader: a head that collects script elements. */
function fakePage() {
  const scripts: { src: string; async: boolean; onerror: (() => void) | null; remove: () => void }[] = [];
  const page: Record<string, unknown> = {};
  vi.stubGlobal('window', page);
  vi.stubGlobal('document', {
    createElement: () => {
      const script = { src: '', async: false, onerror: null as (() => void) | null, remove: () => scripts.splice(scripts.indexOf(script), 1) };
      return script;
    },
    head: { appendChild: (script: (typeof scripts)[number]) => scripts.push(script) },
  });
  return { page, scripts };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Google Maps loader', () => {
  it('adds the script once, with the key and callback, and resolves when Google calls back', async () => {
    const { loadGoogleMaps, MAPS_CALLBACK } = await loader();
    const { page, scripts } = fakePage();
    const first = loadGoogleMaps('KEY');
    const second = loadGoogleMaps('KEY');
    expect(scripts).toHaveLength(1);
    const url = new URL(scripts[0].src);
    expect(url.origin + url.pathname).toBe('https://maps.googleapis.com/maps/api/js');
    expect(url.searchParams.get('key')).toBe('KEY');
    expect(url.searchParams.get('callback')).toBe(MAPS_CALLBACK);
    expect(scripts[0].async).toBe(true);
    const google = { maps: { Map: class {}, Marker: class {} } };
    page.google = google;
    (page[MAPS_CALLBACK] as () => void)();
    await expect(first).resolves.toBe(google);
    await expect(second).resolves.toBe(google);
    // Once loaded, later maps on the page use it without another script.
    await expect(loadGoogleMaps('KEY')).resolves.toBe(google);
    expect(scripts).toHaveLength(1);
  });

  it('rejects when the script fails, removes it, and tries again on the next call', async () => {
    const { loadGoogleMaps } = await loader();
    const { scripts } = fakePage();
    const attempt = loadGoogleMaps('KEY');
    scripts[0].onerror!();
    await expect(attempt).rejects.toThrow('Google Maps failed to load');
    expect(scripts).toHaveLength(0);
    void loadGoogleMaps('KEY').catch(() => {});
    expect(scripts).toHaveLength(1);
    scripts[0].onerror!();
  });
});
