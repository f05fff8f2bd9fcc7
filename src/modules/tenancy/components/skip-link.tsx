/** The first focusable element of every page: jumps past the header to <main id="main">. */
export function SkipLink({ label = 'Skip to content', target = 'main' }: { label?: string; target?: string }) {
  return (
    <a
      href={`#${target}`}
      className="sr-only z-50 rounded-site bg-white px-4 py-3 font-semibold text-gray-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      {label}
    </a>
  );
}
