/** Runs once when a server process starts (Next.js instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ installRequestHooks }, { env }] = await Promise.all([import('./lib/request-hooks'), import('./lib/env')]);
  installRequestHooks(env().pageCache);
}
