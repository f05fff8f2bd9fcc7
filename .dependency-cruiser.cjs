/**
 * The layers of the code (issue 34, decision 063), checked by `npm run lint` (scripts/check-layers.mjs
 * runs these rules and the loop check below them). From the bottom:
 *   1. the platform: src/lib (with the HTTP layer in src/lib/http), src/db, src/components;
 *   2. tenancy, the website and its configuration, which every domain stands on;
 *   3. the domains side by side, each reaching another only through its public face;
 *   4. src/screens, pages that show several domains; src/demo, the demo dealers; src/app, the routes.
 * Each layer imports only downward.
 */
const PLATFORM = '^src/(lib|db|components)/';
const HTTP_LAYER = '^src/lib/http/';
const DOMAIN = '^src/modules/';
const ABOVE_DOMAINS = '^src/(screens|demo|app)/|^src/instrumentation';
const SCHEMA_FILE = '^src/modules/[^/]+/[^/]+\\.schema\\.ts$';

/**
 * Every import allowed against the rules, with its reason (at most 10). Each is an exact
 * importer → imported pair; the check fails when one no longer occurs, so the list stays true.
 */
const EXCEPTIONS = [
  {
    from: 'src/modules/identity/identity.codes.ts',
    to: 'src/modules/leads/leads.schema.ts',
    reason:
      'A phone code is an SMS, and SMS go through the shared outbox, whose table (lead_deliveries) lives in leads.schema.ts. It closes the loop identity → leads → identity (leads asks identity whether a phone was verified) until the outbox moves to the platform layer.',
  },
  {
    from: 'src/modules/leads/leads.commands.ts',
    to: 'src/modules/leads/leads.delivery.ts',
    reason:
      "A loop of three files inside leads: the commands wake the outbox's delivery worker after a lead is stored; the worker's sweep delivers leads left incomplete with the rows the commands build (leads.partial.ts). The wake-up goes with the outbox when it moves to the platform layer.",
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-below-domains',
      comment: 'src/lib, src/db and src/components are the platform: they import no domain, screen, demo data or route.',
      severity: 'error',
      from: { path: PLATFORM, pathNot: [HTTP_LAYER, '^src/db/schema\\.ts$'] },
      to: { path: `${DOMAIN}|${ABOVE_DOMAINS}` },
    },
    {
      name: 'schema-index-names-tables-only',
      comment: "src/db/schema.ts is the index of every table (Drizzle's and drizzle-kit's input): it re-exports the domains' schema files and nothing else of theirs.",
      severity: 'error',
      from: { path: '^src/db/schema\\.ts$' },
      to: { path: `${DOMAIN}|${ABOVE_DOMAINS}`, pathNot: SCHEMA_FILE },
    },
    {
      name: 'http-layer-on-tenancy-only',
      comment: 'The route wrappers find the website from the Host through tenancy; they import no other domain.',
      severity: 'error',
      from: { path: HTTP_LAYER },
      to: { path: `^src/modules/(?!tenancy/)|${ABOVE_DOMAINS}` },
    },
    {
      name: 'tenancy-below-domains',
      comment: 'Tenancy (the website, its configuration and generations) is what every domain stands on: it imports only the platform below the HTTP layer.',
      severity: 'error',
      from: { path: '^src/modules/tenancy/' },
      to: { path: `^src/modules/(?!tenancy/)|${HTTP_LAYER}|${ABOVE_DOMAINS}` },
    },
    {
      name: 'domains-below-screens',
      comment: 'A domain does not import the screens, the demo data or the routes above it.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: ABOVE_DOMAINS },
    },
    {
      name: 'other-domains-through-their-face',
      comment:
        "A domain reaches another only through its public face: index.ts (browser-safe) or server.ts (server code); tenancy and the tables (schema files, the database layer's) are open to all. Another domain's HTTP code is never part of a face.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: DOMAIN, pathNot: ['^src/modules/$1/', '^src/modules/tenancy/', SCHEMA_FILE, '^src/modules/[^/]+/(index|server)\\.ts$'] },
    },
    {
      name: 'no-other-domains-http',
      comment: "Routes are written with the platform's wrappers (src/lib/http); no domain imports another domain's route or HTTP file.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.*\\.(http|route)\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'no-file-loops',
      comment: 'No file imports itself around a loop (type-only imports aside: they leave no trace at run time).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next[^/]*)/|\\.test\\.tsx?$|test-support\\.ts$' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};

// Not a dependency-cruiser option (its schema takes none): read by scripts/check-layers.mjs.
Object.defineProperty(module.exports, 'EXCEPTIONS', { value: EXCEPTIONS, enumerable: false });
