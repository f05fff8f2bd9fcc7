import http from 'node:http';

/**
 * The hard cap of a request (decision 057): once it has arrived (headers, and the body when it
 * has one), its answer must begin within ANSWER_DEADLINE_MS. Past that, whatever the handler is
 * waiting for, the client gets a 503 with Retry-After and the connection is closed; anything the
 * handler writes later goes nowhere. Receiving the request is bounded by the server's
 * headersTimeout and requestTimeout (request-hooks.ts). The slowest legitimate waits are a payment
 * provider's call (15 s) and the database's timeouts, all shorter.
 */
export const ANSWER_DEADLINE_MS = 30_000;

const NOOP_METHODS = ['writeHead', 'setHeader', 'appendHeader', 'removeHeader', 'flushHeaders', 'write', 'end', 'writeContinue'] as const;

function hasBody(request: http.IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function expire(response: http.ServerResponse): void {
  if (response.headersSent || response.writableEnded || response.destroyed) return;
  // The prototype's methods: the instance's may be wrapped (page cache, document rewrite).
  const writeHead = http.ServerResponse.prototype.writeHead as (this: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders) => http.ServerResponse;
  writeHead.call(response, 503, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'Retry-After': '30',
    Connection: 'close',
  });
  const end = http.ServerResponse.prototype.end as (this: http.ServerResponse, body: string) => http.ServerResponse;
  end.call(response, 'The server took too long to answer. Please try again in a moment.');
  const target = response as unknown as Record<string, unknown>;
  for (const method of NOOP_METHODS) target[method] = () => (method === 'write' ? true : response);
}

/** Arms the cap for one request; `bodyTimeoutMs` is the server's requestTimeout (a body still arriving). */
export function answerWithin(request: http.IncomingMessage, response: http.ServerResponse, bodyTimeoutMs: number, deadlineMs = ANSWER_DEADLINE_MS): void {
  let timer = setTimeout(() => expire(response), hasBody(request) ? bodyTimeoutMs + deadlineMs : deadlineMs);
  if (hasBody(request)) {
    request.once('end', () => {
      clearTimeout(timer);
      timer = setTimeout(() => expire(response), deadlineMs);
    });
  }
  response.once('close', () => clearTimeout(timer));
}
