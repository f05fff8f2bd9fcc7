/** Runs once when a server process starts (Next.js instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { installServiceUnavailableStatus } = await import('./lib/service-unavailable');
  installServiceUnavailableStatus();
}
