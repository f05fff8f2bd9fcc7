/**
 * Child process of tests/integration/checkout-crash.test.ts: a server process that reserves a car
 * with the sandbox provider and is killed with SIGKILL just after the provider said yes and before
 * the platform committed what that means. It runs the real reservation code (startReservation,
 * payWithSandboxCard, applyPaymentState) on the database the parent names; the only thing it
 * changes is inside this process: one method of the sandbox adapter is wrapped so that, once the
 * real call has returned (the provider's ledger already moved), it prints `at-kill-point` and never
 * returns, and the parent kills it there.
 *
 *   CHECKOUT_CRASH_AFTER=confirmCard  authorised at the provider, the hold not committed
 *   CHECKOUT_CRASH_AFTER=capture      captured at the provider, the completion not committed
 *
 * The sandbox's notifications are what the provider would keep retrying until the (dead) server
 * takes them: printed as `notification {json}` lines for the parent to deliver after the restart.
 * Prints `reservation {id}` once the reservation exists.
 */
import { payWithSandboxCard, startReservation } from '@/modules/checkout/checkout.commands';
import { sandboxProvider, setSandboxNotifier } from '@/modules/checkout/adapters/sandbox';
import { startBody, SUCCESS_CARD } from '@/modules/checkout/checkout.test-support';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { openCrashDatabaseInChild } from './crash-process';

const crashAfter = process.env.CHECKOUT_CRASH_AFTER;
if (crashAfter !== 'confirmCard' && crashAfter !== 'capture') throw new Error('CHECKOUT_CRASH_AFTER must be confirmCard or capture');

await openCrashDatabaseInChild();
setSandboxNotifier(async (notification) => {
  process.stdout.write(`notification ${JSON.stringify(notification)}\n`);
}, 1);

const provider = sandboxProvider as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
const real = provider[crashAfter].bind(sandboxProvider);
provider[crashAfter] = async (...args) => {
  await real(...args);
  // Let the provider's notification of this step be printed first (it is sent 1 ms later).
  setTimeout(() => process.stdout.write('at-kill-point\n'), 50);
  return new Promise(() => {}); // never returns: the commit after it never happens
};

const tenant = await findTenantByHost(process.env.CHECKOUT_CRASH_HOST!);
if (!tenant) throw new Error('no tenant');
const started = await startReservation(tenant, startBody(Number(process.env.CHECKOUT_CRASH_CAR)), { ip: '192.0.2.7', idempotencyKey: null, origin: `http://${process.env.CHECKOUT_CRASH_HOST}` });
process.stdout.write(`reservation ${started.reservation.id}\n`);
await payWithSandboxCard(tenant, started.reservation.id, started.token, { card: SUCCESS_CARD }, '192.0.2.7');
process.stdout.write('paid without being killed\n');
