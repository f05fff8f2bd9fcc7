import net from 'node:net';
import tls from 'node:tls';

/**
 * A tiny SMTP server for delivery tests (127.0.0.1 only): accepts every message and records its
 * Message-ID and recipients. stop() closes the port (a sender then gets ECONNREFUSED) and start()
 * opens it again on the same port, so tests can take 'the mail server' down and bring it back.
 */
export type ReceivedMail = { messageId: string | null; to: string[]; data: string };

/**
 * What else the server can speak: TLS from the first byte (smtps), STARTTLS offered after EHLO,
 * AUTH PLAIN offered (the credentials are recorded), and another reply to an accepted message.
 * The key and certificate are the test's own (self-signed: a client that checks certificates, as
 * nodemailer and Node do, refuses them).
 */
export type SmtpServerOptions = { tls?: { key: string; cert: string }; startTls?: { key: string; cert: string }; auth?: boolean; acceptReply?: string };

export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Every command line a client sent, and the credentials of each AUTH PLAIN ('user\0pass'). */
  readonly commands: string[] = [];
  readonly credentials: string[] = [];
  /** How long the server takes to accept a message after recording it (a slow relay). */
  constructor(
    private readonly acceptDelayMs = 0,
    private readonly options: SmtpServerOptions = {},
  ) {}
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;

  async start(): Promise<void> {
    const server = this.options.tls ? tls.createServer(this.options.tls, (socket) => this.session(socket)) : net.createServer((socket) => this.session(socket));
    if (this.options.tls) {
      server.on('connection', (socket: net.Socket) => this.sockets.add(socket));
      server.on('tlsClientError', () => {});
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }

  private session(plain: net.Socket): void {
    let socket = plain;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 test-smtp ready');
    const extensions = [...(this.options.startTls ? ['STARTTLS'] : []), ...(this.options.auth ? ['AUTH PLAIN'] : [])];
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          const data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(data)?.[1] ?? null;
          this.received.push({ messageId, to, data });
          to = [];
          const accepted = this.options.acceptReply ?? '250 2.0.0 queued';
          if (this.acceptDelayMs > 0) setTimeout(() => reply(accepted), this.acceptDelayMs);
          else reply(accepted);
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const command = line.slice(0, 4).toUpperCase();
        this.commands.push(line);
        if (command === 'EHLO' || command === 'HELO') {
          for (const extension of extensions) reply(`250-${extension}`);
          reply('250 test-smtp');
        } else if (line.toUpperCase() === 'STARTTLS' && this.options.startTls) {
          reply('220 2.0.0 go ahead');
          socket.removeAllListeners('data');
          socket = new tls.TLSSocket(plain, { isServer: true, ...this.options.startTls });
          socket.on('error', () => {});
          return;
        } else if (command === 'AUTH' && this.options.auth) {
          this.credentials.push(Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8').split('\0').slice(1).join('\0'));
          reply('235 2.7.0 authenticated');
        } else if (command === 'MAIL') reply('250 2.1.0 ok');
        else if (command === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (command === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (command === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (command === 'RSET' || command === 'NOOP') reply('250 ok');
        else reply('502 5.5.2 not implemented');
      }
    });
  }
}
