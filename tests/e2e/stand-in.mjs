// What the browser tests' stand-ins for outside services (fake-till.mjs, fake-dealer-webhook.mjs)
// share: a JSON answer, and a server on 127.0.0.1 that hands each request its whole body.
import http from 'node:http';

export const json = (response, value, status = 200) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

/** Serves `handle(request, response, body, url)` on 127.0.0.1:port. */
export function serve(port, handle) {
  http
    .createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => handle(request, response, body, new URL(request.url, 'http://stand-in')));
    })
    .listen(port, '127.0.0.1');
}
