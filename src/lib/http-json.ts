import 'server-only';

/** A JSON POST to a provider with a timeout; throws on a network failure, a timeout or a non-2xx answer. */
export async function postJson(url: string, key: string, body: unknown, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`provider answered ${response.status}`);
  return response.json();
}
