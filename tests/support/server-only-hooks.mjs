// Module hooks for a child process that runs application modules outside Next and outside vitest
// (tests/support/app-server-child.ts): 'server-only' resolves to its empty module, as vitest's alias
// does, so modules that also import Next's client-side helpers (next/navigation) load with the
// ordinary React build instead of the react-server condition.
import { register } from 'node:module';

export async function resolve(specifier, context, next) {
  if (specifier === 'server-only') return next(new URL('../../node_modules/server-only/empty.js', import.meta.url).href, context);
  return next(specifier, context);
}

if (!process.env.SERVER_ONLY_HOOKS_REGISTERED) {
  process.env.SERVER_ONLY_HOOKS_REGISTERED = '1';
  register(import.meta.url);
}
