'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { WidgetPlan } from '../widgets.plan';
import { isHiddenPath } from '../widgets.paths';
import { storeConsent, storedConsent } from '../widgets.consent';
import { CHAT_POPUP_MS, popupClosedBefore, rememberPopupClosed } from '../widgets.timing';
import { widgetRuntime } from './widget-runtime';

/**
 * The platform's own widget controls (decision 037): the chat ('text') button, the chat popup and
 * the consent banner. All are fixed-position overlays, so nothing on the page moves when they
 * appear (CLS 0); this chunk loads after hydration and only on websites that have one of them.
 */
export function WidgetUi({ plan, pathname }: { plan: WidgetPlan; pathname: string }) {
  const chat = plan.widgets.find((w) => w.group === 'chat');
  const chatShown = chat != null && !isHiddenPath(pathname, chat.hiddenPaths);
  // Rendered in the browser only (ssr: false), so the stored choice is read at once.
  const [consentOpen, setConsentOpen] = useState(() => plan.consent.required && storedConsent() == null);

  return (
    <>
      {chatShown ? <ChatButton plan={plan} /> : null}
      {consentOpen ? <ConsentBanner plan={plan} onDone={() => setConsentOpen(false)} /> : null}
    </>
  );
}

function ChatButton({ plan }: { plan: WidgetPlan }) {
  const router = useRouter();
  const [loading, setLoading] = useState(false);
  const [popup, setPopup] = useState(false);

  // SPEC §4: the popup 3 s after load unless the visitor closed it before. Our own UI: it does not
  // wait for the provider's script, which loads at the first interaction or when the visitor opens chat.
  useEffect(() => {
    const after = plan.chat?.popupAfterMs;
    if (after == null || popupClosedBefore()) return;
    // 3 s after the page loaded, however late this chunk arrived.
    const timer = setTimeout(() => setPopup(true), Math.max(0, (after || CHAT_POPUP_MS) - performance.now()));
    return () => clearTimeout(timer);
  }, [plan]);

  const open = () => {
    setPopup(false);
    void widgetRuntime(plan)
      .then((r) => r.open('chat', () => setLoading(true)))
      .then((opened) => {
        setLoading(false);
        if (!opened) router.push('/contact#chat');
      });
  };
  const close = () => {
    rememberPopupClosed();
    setPopup(false);
  };

  return (
    // The popup hangs above the button, out of the flow: the box that holds the button keeps its
    // place when the popup appears (a growing fixed box moves its top edge, a layout shift).
    <div className="fixed right-4 bottom-4 z-40 print:hidden" data-widget-ui="chat">
      {popup ? (
        <div role="status" className="absolute right-0 bottom-full mb-2 w-64 rounded-site border border-slate-200 bg-white p-4 pr-10 text-sm text-slate-900 shadow-lg" data-widget-popup="chat">
          <button type="button" onClick={open} className="text-left font-semibold underline-offset-2 hover:underline">
            Questions about a car? Text us and we&apos;ll reply here.
          </button>
          <button
            type="button"
            onClick={close}
            aria-label="Close chat message"
            className="absolute top-1 right-1 inline-flex h-9 w-9 items-center justify-center rounded-full text-lg text-slate-600 hover:bg-slate-100"
          >
            ×
          </button>
        </div>
      ) : null}
      <button
        type="button"
        onClick={open}
        aria-busy={loading}
        className="inline-flex min-h-12 items-center gap-2 rounded-full bg-brand px-5 text-base font-semibold text-brand-foreground shadow-lg hover:brightness-110"
        data-widget-button="chat"
      >
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M21 12a8 8 0 0 1-11.6 7.1L4 21l1.9-5.4A8 8 0 1 1 21 12z" />
        </svg>
        {loading ? 'Loading chat…' : 'Text us'}
      </button>
    </div>
  );
}

function ConsentBanner({ plan, onDone }: { plan: WidgetPlan; onDone: () => void }) {
  const choose = (granted: boolean) => {
    storeConsent(granted ? 'granted' : 'denied');
    // Consent Mode's update and, on yes, the marketing pixel (a click is the first interaction anyway).
    if (plan.widgets.length) void widgetRuntime(plan).then((r) => r.consent(granted));
    onDone();
    document.getElementById('main')?.focus({ preventScroll: true });
  };
  return (
    <section
      aria-labelledby="consent-title"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-300 bg-white p-4 text-slate-900 shadow-[0_-4px_16px_rgba(0,0,0,0.12)] print:hidden"
      data-widget-ui="consent"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="text-sm">
          <h2 id="consent-title" className="text-base font-semibold">
            Cookies on this site
          </h2>
          <p>
            We use cookies to measure visits and, with your permission, to show you relevant ads elsewhere.{' '}
            <a href={plan.consent.privacyPath} className="font-semibold underline">
              Privacy policy
            </a>
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <button type="button" onClick={() => choose(false)} className="min-h-11 rounded-site border-2 border-slate-900 px-4 font-semibold">
            Decline
          </button>
          <button type="button" onClick={() => choose(true)} className="min-h-11 rounded-site bg-brand px-4 font-semibold text-brand-foreground">
            Accept
          </button>
        </div>
      </div>
    </section>
  );
}
