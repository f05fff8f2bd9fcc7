'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useSignedIn } from '@/modules/identity';

/**
 * The garage's alerts (decision 066): whether they are on, how they come, and the form that turns
 * them on with the visitor's consent (the exact wording recorded) or off. Shown once the visitor's
 * settings have loaded (nothing for a signed-out visitor). The forms are plain posts to
 * /api/alerts/form, which comes back here with ?alerts=on|off|refused.
 */

type Settings = { on: boolean; channel: 'email' | 'sms' | null; address: string | null; instant_price_drops: boolean; consented_at: string | null };

const OUTCOMES: Record<string, { text: string; tone: 'ok' | 'error' }> = {
  on: { text: 'Alerts are on.', tone: 'ok' },
  off: { text: 'Alerts are off. You will get no more messages.', tone: 'ok' },
  consent: { text: 'Tick the box to agree to receive alerts.', tone: 'error' },
  email: { text: 'Enter a valid email address.', tone: 'error' },
};

export function AlertSettings({ consent, locale }: { consent: string; locale: string }) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  const signedIn = useSignedIn();

  // A signed-out visitor has no settings: asking would only answer 401.
  useEffect(() => {
    if (!signedIn) return;
    fetch('/api/alerts')
      .then(async (response) => (response.ok ? ((await response.json()) as { alerts: Settings }).alerts : null))
      .catch(() => null)
      .then((loaded) => {
        // What the form's post came back with (/api/alerts/form's 303): ?alerts=on|off, or refused with the field.
        const query = new URLSearchParams(window.location.search);
        setOutcome(query.get('alerts') === 'refused' ? query.get('field') : query.get('alerts'));
        setSettings(loaded);
      });
  }, [signedIn]);

  if (!settings) return null;
  const said = outcome ? OUTCOMES[outcome] : undefined;
  const channel = settings.channel ?? 'email';
  return (
    <section id="alerts" aria-labelledby="alerts-heading" className="mt-10 rounded-site border border-gray-200 bg-white p-5">
      <h2 id="alerts-heading" className="text-xl font-bold text-gray-900">
        Alerts
      </h2>
      <p className="mt-1 text-gray-700">New cars for your saved searches, price drops on your saved cars, and cars sold, reserved or back in stock.</p>
      {said ? (
        <p role={said.tone === 'error' ? 'alert' : 'status'} className={`mt-3 rounded-site border px-4 py-2 font-medium ${said.tone === 'error' ? 'border-red-700 bg-red-50 text-red-900' : 'border-green-700 bg-green-50 text-green-900'}`}>
          {said.text}
        </p>
      ) : null}
      {settings.on ? (
        <p className="mt-3 text-gray-900" data-testid="alerts-on">
          On, by {settings.channel === 'sms' ? 'SMS' : 'email'} to {settings.address}
          {settings.instant_price_drops ? ', price drops as they happen' : ', at most one message a day'}
          {settings.consented_at ? ` (since ${new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(settings.consented_at))})` : ''}.
        </p>
      ) : null}
      <form method="post" action="/api/alerts/form" className="mt-4 space-y-4">
        <input type="hidden" name="action" value="on" />
        <fieldset>
          <legend className="font-semibold text-gray-900">Send them by</legend>
          <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            <label className="inline-flex min-h-11 items-center gap-2">
              <input type="radio" name="channel" value="email" defaultChecked={channel === 'email'} className="h-5 w-5" /> Email
            </label>
            <label className="inline-flex min-h-11 items-center gap-2">
              <input type="radio" name="channel" value="sms" defaultChecked={channel === 'sms'} className="h-5 w-5" /> SMS to the phone you signed in with
            </label>
          </div>
        </fieldset>
        <label className="block">
          <span className="font-semibold text-gray-900">Email address</span> <span className="text-gray-700">(for email alerts)</span>
          <input type="email" name="email" autoComplete="email" defaultValue={settings.channel === 'email' ? (settings.address ?? '') : ''} className="mt-1 block min-h-11 w-full max-w-md rounded-site border border-gray-400 px-3" />
        </label>
        <label className="flex min-h-11 items-center gap-2">
          <input type="checkbox" name="instant_price_drops" defaultChecked={settings.instant_price_drops} className="h-5 w-5" /> Price drops as they happen, not in the daily message
        </label>
        <label className="flex items-start gap-2">
          <input type="checkbox" name="consent" required className="mt-1 h-5 w-5 shrink-0" />
          <span className="text-gray-800">{consent}</span>
        </label>
        <Button type="submit">{settings.on ? 'Save alert settings' : 'Turn on alerts'}</Button>
      </form>
      {settings.on ? (
        <form method="post" action="/api/alerts/form" className="mt-3">
          <input type="hidden" name="action" value="off" />
          <Button type="submit" variant="outline">
            Turn alerts off
          </Button>
        </form>
      ) : null}
    </section>
  );
}
