'use client';

import { numberFormat } from '@/lib/intl';
import { Button, LinkButton } from '@/components/ui/button';
import { emitAuthEvent } from './session-client';
import { localSaved, toggleSaved, type SavedCar } from './garage-store';
import { useGarage } from './use-garage';

/** The garage page's list (issue 14): the saved cars with their price and status now, each removable. */

const COMPARE_FORM = 'garage-compare';

/** signedOut: the server saw no session cookie, so the sign-in prompt is in the page from the start (a tap before the scripts run reaches it). */
type Props = { vehiclePath: string; signInPath: string; money: { locale: string; currency: string }; signedOut: boolean };

function statusOf(car: SavedCar, money: (n: number) => string): string | null {
  if (car.status === 'sold') return 'Sold';
  if (car.reserved) return 'Reserved';
  if (car.saved_price != null && car.price > 10 && car.price < car.saved_price) return `Price dropped by ${money(car.saved_price - car.price)} since you saved it`;
  return null;
}

/** SPEC §4: sign-out clears the user and refreshes the page. */
async function signOut() {
  await fetch('/api/auth/sign-out', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ scope: 'local' }) }).catch(() => {});
  emitAuthEvent('SIGNED_OUT');
  window.location.reload();
}

/** The cars saved in this browser are counted only once the page knows it is signed out (the server cannot see them). */
function SignInPrompt({ signInPath, kept }: { signInPath: string; kept: number }) {
  return (
    <div className="min-h-32 max-w-xl space-y-4">
      <p className="text-gray-800">
        Sign in with your mobile number to keep your saved cars on every device.
        {kept ? ` ${kept} car${kept === 1 ? ' is' : 's are'} saved in this browser and will join your garage.` : ''}
      </p>
      <LinkButton href={signInPath} variant="primary">
        Sign in
      </LinkButton>
    </div>
  );
}

export function GarageList({ vehiclePath, signInPath, money, signedOut }: Props) {
  const state = useGarage();
  const format = (n: number) => numberFormat(money.locale, { style: 'currency', currency: money.currency, maximumFractionDigits: 0 }).format(n);

  if (state.status !== 'ready') {
    if (signedOut) return <SignInPrompt signInPath={signInPath} kept={0} />;
    // The same height as the signed-out prompt, so what follows does not move when it replaces this (CLS).
    return <p className="min-h-32 text-gray-700">Loading your garage…</p>;
  }
  if (!state.signedIn) return <SignInPrompt signInPath={signInPath} kept={localSaved().length} />;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-gray-800">
          Signed in as <strong>{state.user?.first_name || state.user?.phone}</strong>
        </p>
        <Button variant="outline" size="sm" onClick={() => void signOut()}>
          Sign out
        </Button>
      </div>
      {state.cars.length === 0 ? (
        <p className="rounded-site border border-dashed border-gray-300 bg-gray-50 p-6 text-gray-700">No saved cars yet. Tap the heart on any car to keep it here.</p>
      ) : (
        <>
          {state.cars.length > 1 ? (
            <form id={COMPARE_FORM} action="/compare" method="get" className="flex flex-wrap items-center gap-3">
              <p className="text-gray-800">Tick up to three cars to compare them side by side.</p>
              <Button type="submit" variant="outline" size="sm">
                Compare selected
              </Button>
            </form>
          ) : null}
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Saved cars">
            {state.cars.map((car) => {
              const note = statusOf(car, format);
              return (
                <li key={car.id} className="flex flex-col gap-2 rounded-site border border-gray-200 bg-white p-4">
                  <a href={`/${vehiclePath}/${car.slug}`} className="text-lg font-semibold text-gray-900 hover:underline">
                    {car.name}
                  </a>
                  <p className="text-gray-800">{car.price > 10 ? format(car.price) : 'Enquire for price.'}</p>
                  {note ? <p className="text-sm font-medium text-amber-900">{note}</p> : null}
                  {state.cars.length > 1 ? (
                    <label className="flex items-center gap-2 text-sm text-gray-800">
                      <input type="checkbox" name="car" value={car.slug} form={COMPARE_FORM} className="size-5" />
                      Compare {car.name}
                    </label>
                  ) : null}
                  <Button variant="ghost" size="sm" className="self-start" onClick={() => void toggleSaved(car.id)}>
                    Remove {car.name}
                  </Button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
