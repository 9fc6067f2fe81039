/**
 * A real SMTP server for tests (the smtp-server package, over TCP on
 * 127.0.0.1): every mail it accepts is parsed with mailparser and kept in
 * order, with its envelope. `reject` makes it refuse recipients with a code
 * (550: final, 451: try later); `listen(port)` lets a test start it on a port
 * chosen earlier (the SMTP server "down, then up"). `tls: true` makes it an
 * smtps:// server (TLS from the first byte) with a self-signed certificate for
 * 127.0.0.1 made at test time with openssl (testCertificate(): its PEM file
 * is what SMTP_TLS_CA_FILE must name for the mailer to trust it). With a
 * `user`, the plain server offers AUTH and no STARTTLS; `auths` records every
 * AUTH it received (user name, and whether the session was encrypted).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  raw: string;
  /** Whether the session that delivered it was over TLS. */
  secure: boolean;
}

export interface TestCertificate {
  key: string;
  cert: string;
  /** A file holding `cert` (self-signed: it is its own CA), for SMTP_TLS_CA_FILE. */
  caFile: string;
}

let certificate: TestCertificate | null = null;

/** A self-signed certificate for 127.0.0.1 and localhost (P-256, valid 2 days), made once per test process with openssl. */
export function testCertificate(): TestCertificate {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-smtp-tls-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const keyFile = path.join(dir, 'key.pem');
  const caFile = path.join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.error?.message ?? made.stderr}`);
  certificate = { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(caFile, 'utf8'), caFile };
  return certificate;
}

export interface TestSmtp {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** Every AUTH attempt received: the user name and whether the session was encrypted. */
  auths: Array<{ username: string; secure: boolean }>;
  /** Refuse RCPT TO with this code until set back to null. */
  reject: { code: number; message: string } | null;
  close(): Promise<void>;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startSmtp(opts: { port?: number; user?: string; password?: string; tls?: boolean } = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const state: TestSmtp = { port: 0, url: '', mails, auths: [], reject: null, close: async () => undefined };
  const tlsOptions = opts.tls ? { secure: true, key: testCertificate().key, cert: testCertificate().cert } : { secure: false };
  const server = new SMTPServer({
    ...tlsOptions,
    disabledCommands: opts.user ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, cb) {
      state.auths.push({ username: auth.username ?? '', secure: session.secure });
      if (auth.username === opts.user && auth.password === opts.password) cb(null, { user: auth.username });
      else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      if (state.reject) cb(Object.assign(new Error(state.reject.message), { responseCode: state.reject.code }));
      else cb();
      void address;
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            mails.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              parsed,
              raw,
              secure: session.secure,
            });
            cb();
          },
          (err: Error) => cb(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as net.AddressInfo;
  state.port = port;
  const auth = opts.user ? `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.password ?? '')}@` : '';
  state.url = `${opts.tls ? 'smtps' : 'smtp'}://${auth}127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** The href of every link in a mail's HTML part. */
export function htmlLinks(mail: ReceivedMail): string[] {
  const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
  return [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}
