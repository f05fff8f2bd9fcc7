/**
 * The whole document while the database cannot be reached (sent as HTTP 503 with Retry-After):
 * no dealer details are known, so it says what happened and offers to try again.
 */
export function ServiceUnavailablePage() {
  return (
    <html lang="en">
      <body className="flex min-h-screen items-center justify-center bg-white px-4 text-gray-900">
        <main id="main" className="max-w-xl py-16 text-center">
          <h1 className="text-3xl font-extrabold tracking-tight">We will be right back</h1>
          <p className="mt-4 text-lg text-gray-700">
            Our website cannot load its stock and details just now. Please try again in a minute.
          </p>
          <p className="mt-8">
            <a href="" className="inline-flex min-h-11 items-center rounded-lg bg-gray-900 px-6 font-semibold text-white">
              Try again
            </a>
          </p>
        </main>
      </body>
    </html>
  );
}
