'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useState, type ComponentType } from 'react';
import type { WidgetPlan } from '../widgets.plan';
import { isHiddenPath, pageTypeOf } from '../widgets.paths';
import { TIMED_GROUPS, afterFirstInteraction } from '../widgets.trigger';
import { startedWidgetRuntime, widgetRuntime } from './widget-runtime';
import { PageViewTracker } from './page-view-tracker';

/**
 * Mounted once by the site layout (decision 037). Always on the page, so it stays small: it sends
 * each page's view (PageViewTracker, page type from the path), and at the visitor's first
 * interaction or 3 s imports the widget runtime, which loads the website's analytics tags; chat,
 * chatbot and tools follow at the first real interaction (decision 043). The chat
 * button, popup and consent banner are a chunk of their own, loaded at the same moment and only on
 * websites that have them (the banner can wait: until the visitor answers, Google tags run with
 * Consent Mode 'denied' and the Meta pixel does not load). At the first real interaction it also
 * starts the web vitals reporter (decision 058).
 */


type WidgetUiProps = { plan: WidgetPlan; pathname: string };

export function WidgetHost({ plan }: { plan: WidgetPlan }) {
  const pathname = usePathname() ?? '/';
  const hasWidgets = plan.widgets.length > 0;

  // Nothing of the widgets, not even our own button's chunk, before the first interaction or 3 s.
  // A plain import(), not next/dynamic: its loadable machinery would ship on every page.
  const [WidgetUi, setWidgetUi] = useState<ComponentType<WidgetUiProps> | null>(null);
  const chat = plan.widgets.find((w) => w.group === 'chat');
  useEffect(() => {
    if (!hasWidgets && !plan.consent.required) return;
    const cancelTimed = afterFirstInteraction(() => {
      if (hasWidgets) void widgetRuntime(plan);
      if (chat || plan.consent.required) void import('./widget-ui').then((m) => setWidgetUi(() => m.WidgetUi));
    });
    // Chat, chatbot and tools: at the first real interaction only (or when the visitor opens one).
    const cancelInteraction = plan.widgets.some((w) => !TIMED_GROUPS.includes(w.group))
      ? afterFirstInteraction(() => void widgetRuntime(plan).then((r) => r.interacted()), null)
      : () => {};
    return () => {
      cancelTimed();
      cancelInteraction();
    };
    // The plan is the website's and does not change within a page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    void startedWidgetRuntime()?.then((r) => r.showPath(pathname));
  }, [pathname]);

  // Real-visitor web vitals (decision 058) for the sampled share of page views: web-vitals (~3 KB)
  // is imported at the first real interaction, never before it (decision 035); it reads what the
  // browser buffered until then. The page type is the loaded page's.
  useEffect(() => {
    if (!(Math.random() < plan.vitalsSampleRate)) return;
    const pageType = pageTypeOf(pathname, plan.routes);
    return afterFirstInteraction(() => {
      const pageTypeNow = () => pageTypeOf(location.pathname, plan.routes);
      void import('./web-vitals-reporter').then((m) => m.reportWebVitals({ pageType, pageTypeNow, consentRequired: plan.consent.required }));
    }, null);
    // Once per page load, for the page that was loaded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The car page's 'Chat with us' and 'Open chatbot' (data-widget-open) open the widget; without one they stay links.
  useEffect(() => {
    const groups = new Set(plan.widgets.map((w) => w.group));
    if (!groups.has('chat') && !groups.has('chatbot')) return;
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('[data-widget-open]');
      const group = link?.getAttribute('data-widget-open');
      if ((group !== 'chat' && group !== 'chatbot') || !groups.has(group) || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      link!.setAttribute('aria-busy', 'true');
      void widgetRuntime(plan)
        .then((r) => r.open(group))
        .then((opened) => {
          link!.removeAttribute('aria-busy');
          // The widget could not open (its script failed): the link's own page, the contact form.
          if (!opened && link instanceof HTMLAnchorElement) location.assign(link.href);
        });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const showUi = WidgetUi != null && (plan.consent.required || (chat != null && !isHiddenPath(pathname, chat.hiddenPaths)));
  return (
    <>
      <PageViewTracker key={pathname} pageType={pageTypeOf(pathname, plan.routes)} />
      {showUi ? <WidgetUi plan={plan} pathname={pathname} /> : null}
    </>
  );
}
