import type { WidgetPlan } from '../widgets.plan';
import type { WidgetRuntime } from '../widgets.runtime';

let runtime: Promise<WidgetRuntime> | null = null;

/** The widget runtime, imported and started once per page load. */
export function widgetRuntime(plan: WidgetPlan): Promise<WidgetRuntime> {
  runtime ??= import('../widgets.runtime').then((m) => m.startWidgets(plan));
  return runtime;
}

/** The runtime if this page load has started it, else null (nothing to tell it yet). */
export function startedWidgetRuntime(): Promise<WidgetRuntime> | null {
  return runtime;
}
