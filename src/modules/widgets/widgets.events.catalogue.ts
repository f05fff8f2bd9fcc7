/**
 * SPEC §9's analytics event ids, as this platform uses them (client-safe, no dependencies: the page
 * view tracker ships this on every page).
 *
 * The catalogue is 1–61. The spec names the groups (page views 1–13; form submissions 14–24, 27,
 * 28, 40, 42, 44–48, 51, 53, 56; favourite/garage 20 and 21; click to call 25; step event 32;
 * authentication 35–38; directions 41; webchat 54, 55, 57) but not which page type has which page
 * view id: PAGE_VIEW_EVENTS is our reading, in the order of SPEC §2's route table.
 */

export const EVENT_CATEGORY_MIN = 1;
export const EVENT_CATEGORY_MAX = 61;

/** Page views (1–13) by page type. */
export const PAGE_VIEW_EVENTS = {
  home: 1,
  search: 2,
  car: 3,
  checkout: 4,
  'trade-in': 5,
  finance: 6,
  success: 7,
  service: 8,
  'test-drive': 9,
  contact: 10,
  content: 11,
  garage: 12,
  other: 13,
} as const;
export type PageType = keyof typeof PAGE_VIEW_EVENTS;

/** Events the visitor's browser sends (POST /api/events). */
export const CLIENT_EVENTS = {
  favouriteSaved: 20,
  favouriteRemoved: 21,
  clickToCall: 25,
  step: 32,
  directions: 41,
  chatOpened: 54,
  chatFirstMessage: 55,
  chatLaterMessage: 57,
} as const;

/**
 * Events only the server records, in the same statement as what they count: a lead's form
 * submission (leads.commands.ts, with the lead's id, anon_id and session_id) and sign-in (35–38,
 * identity.codes.ts). POST /api/events refuses them, so a script cannot inflate a dealer's lead or
 * sign-in figures and a form cannot be counted twice.
 */
export const SERVER_RECORDED_EVENTS: ReadonlySet<number> = new Set([14, 15, 16, 17, 18, 19, 22, 23, 24, 27, 28, 35, 36, 37, 38, 40, 42, 44, 45, 46, 47, 48, 51, 53, 56]);
