import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next*/**', 'node_modules/**', '.data*/**', '.test-data/**', '.test-results/**', 'drizzle/**', 'next-env.d.ts', 'docs/**', '.stryker-tmp/**', 'reports/**', '.bench-data/**'],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Dates are written in the website's locale and time zone, one way (issue 31): formatDate in
    // src/lib/format.ts. A bare toLocale…String() writes them in the visitor's browser locale.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/demo/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length=0]",
          message: "Format dates with formatDate (src/lib/format.ts) and numbers with the website's locale, not the browser's.",
        },
        {
          selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]",
          message: 'Format dates with formatDate (src/lib/format.ts): the website\'s locale and time zone.',
        },
      ],
    },
  },
];

export default config;
