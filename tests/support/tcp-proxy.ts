import net from 'node:net';

/**
 * A TCP proxy a test puts between the application and its database, to make the database fail the
 * ways a network or a server does (decision 055):
 * - 'forward': bytes pass both ways.
 * - 'stall': connections stay open and new ones are accepted, but nothing passes either way (a
 *   network partition, a server that stopped answering); what was held passes once forwarding
 *   resumes, as TCP would retransmit it.
 * - 'refuse': the port is closed (connection refused) and open connections are cut.
 */
export type ProxyMode = 'forward' | 'stall' | 'refuse';

export type TcpProxy = {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  setMode: (mode: ProxyMode) => Promise<void>;
  close: () => Promise<void>;
};

type Pair = { client: net.Socket; upstream: net.Socket | null; held: { toUpstream: Buffer[]; toClient: Buffer[] } };

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  let accepted = 0;
  const pairs = new Set<Pair>();

  const flush = (pair: Pair) => {
    if (!pair.upstream) return;
    for (const chunk of pair.held.toUpstream.splice(0)) pair.upstream.write(chunk);
    for (const chunk of pair.held.toClient.splice(0)) pair.client.write(chunk);
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => (mode === 'forward' ? pair.client.write(chunk) : pair.held.toClient.push(chunk)));
    upstream.on('close', () => pair.client.destroy());
    upstream.on('error', () => pair.client.destroy());
    upstream.on('connect', () => mode === 'forward' && flush(pair));
  };

  const server = net.createServer((client) => {
    accepted++;
    const pair: Pair = { client, upstream: null, held: { toUpstream: [], toClient: [] } };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (mode === 'forward' && pair.upstream?.readyState === 'open') pair.upstream.write(chunk);
      else pair.held.toUpstream.push(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      pair.upstream?.destroy();
    };
    client.on('close', end);
    client.on('error', end);
    // A connection accepted during a stall reaches the server only when forwarding resumes.
    if (mode === 'forward') connectUpstream(pair);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    get accepted() {
      return accepted;
    },
    setMode: async (next) => {
      const previous = mode;
      mode = next;
      if (next === 'refuse') {
        for (const pair of pairs) pair.client.destroy();
        pairs.clear();
        if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      } else if (previous === 'refuse') {
        await listen(port);
      }
      if (next === 'forward') {
        for (const pair of pairs) {
          if (pair.upstream) flush(pair);
          else connectUpstream(pair);
        }
      }
    },
    close: async () => {
      mode = 'refuse';
      for (const pair of pairs) pair.client.destroy();
      pairs.clear();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
