import { afterAll } from 'vitest';
import { closeTestDatabases } from './database';

process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.LOG_LEVEL ??= 'silent';

// Registered here, at the top level of a per-file setup, because useTestDatabase() is usually
// called inside beforeAll, where an afterAll would never run.
afterAll(closeTestDatabases);
