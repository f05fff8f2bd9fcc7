/**
 * The widget providers, served locally for `npm run bench:pages` (issue 17): one HTTPS server on
 * 127.0.0.1 answering every provider host with its stand-in script (tests/support/widget-stand-ins.ts),
 * gzipped as the providers' CDNs serve them. Chromium reaches it through --host-resolver-rules
 * (each host mapped to this port) and accepts its certificate, made at each run with the Debian
 * openssl command in .bench-data/stand-ins/ (self-signed, two days), through --ignore-certificate-errors.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WIDGET_SOURCES, type WidgetId } from '../../src/modules/widgets/widgets.plan';
import { ANALYTICS_HIT_HOST, PIXEL_HIT_HOST, standInHosts, standInScript, widgetOfUrl } from '../../tests/support/widget-stand-ins';

export type StandInServer = {
  port: number;
  hosts: string[];
  /** Script requests answered, per widget. */
  requests: Partial<Record<WidgetId, number>>;
  /** Chromium flags that send the providers' hosts here. */
  chromeFlags: string[];
  /** The app server's environment for the same: its Partytown proxy (decision 043) reaches the providers here too. */
  serverEnv: Record<string, string>;
  close: () => Promise<void>;
};

function certificate(dir: string, hosts: string[]): { key: Buffer; cert: Buffer; certPath: string } {
  fs.mkdirSync(dir, { recursive: true });
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=widget stand-ins', '-addext', `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert), certPath: cert };
}

export async function startStandInServer(dataDir: string): Promise<StandInServer> {
  const hosts = standInHosts();
  const requests: StandInServer['requests'] = {};
  const tls = certificate(path.join(dataDir, 'stand-ins'), hosts);
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const url = `https://${req.headers.host ?? ''}${req.url ?? '/'}`;
    const widget = widgetOfUrl(url);
    if (widget) {
      requests[widget] = (requests[widget] ?? 0) + 1;
      const script = standInScript(widget);
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(200, {
        'content-type': 'application/javascript; charset=utf-8',
        // A script the website's Partytown proxy fetches (Meta's) is kept by that proxy for its
        // max-age, and a kept script never reaches this server again: `requests` would then miss it
        // while the trace holds it. No max-age for those, so every page load is counted here.
        'cache-control': WIDGET_SOURCES[widget].worker?.proxy ? 'no-cache' : 'public, max-age=900',
        'access-control-allow-origin': '*',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(gzip ? script.gzip : script.body);
    } else if (req.headers.host === ANALYTICS_HIT_HOST || req.headers.host === PIXEL_HIT_HOST) {
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hosts,
    requests,
    chromeFlags: [`--host-resolver-rules=${hosts.map((host) => `MAP ${host} 127.0.0.1:${port}`).join(', ')}`, '--ignore-certificate-errors'],
    serverEnv: { WIDGET_PROXY_RESOLVE: hosts.map((host) => `${host}:${port}:127.0.0.1`).join(','), NODE_EXTRA_CA_CERTS: tls.certPath },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Builds every stand-in before the first measurement, so building one never delays a page. */
export function prebuildStandIns(ids: WidgetId[]): void {
  for (const id of ids) standInScript(id);
}
