/**
 * A Web Push service for the tests (RFC 8030), on loopback: it hands out
 * subscriptions as a browser would (a P-256 key pair and a 16-byte auth
 * secret made here, an endpoint on this server), receives Parley's pushes,
 * checks each the way a real push service and browser would, and records
 * what arrived:
 *   - the VAPID JWT (RFC 8292) in `Authorization: vapid t=…, k=…`: signed
 *     ES256 with the key `k`, which must be the VAPID public key Parley
 *     serves; `aud` the endpoint's origin; `exp` in the future and within
 *     24 hours; `sub` a mailto: or https: URL;
 *   - `Content-Encoding: aes128gcm`, the body decrypted with the
 *     subscription's private key and auth secret (RFC 8291, with the
 *     `http_ece` package: an implementation independent of the sender's
 *     code path) and parsed as JSON;
 *   - the TTL, Urgency and Topic headers.
 * Answers are 201 unless the test queues others for an endpoint (`answer`):
 * 410 Gone, 429 with Retry-After, 500.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { bearer, type TestApp } from './testApp.js';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: crypto.ECDH; authSecret: Buffer }): Buffer;
};

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: crypto.ECDH;
  auth: Buffer;
}

export interface ReceivedPush {
  subscription: string;
  /** The decrypted payload, parsed. */
  payload: Record<string, unknown>;
  /** The decrypted payload's size in bytes. */
  plaintextBytes: number;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  claims: { aud: string; exp: number; sub: string };
  /** The status this push service answered. */
  status: number;
}

export interface QueuedAnswer {
  status: number;
  headers?: Record<string, string>;
}

export interface TestPushService {
  origin: string;
  received: ReceivedPush[];
  /** Every push that failed the checks, with why (none expected). */
  invalid: string[];
  subscribe(): TestSubscription;
  /** Answers the next pushes to `subscription` with these, in order (then 201 again). */
  answer(subscription: TestSubscription, ...answers: QueuedAnswer[]): void;
  /** Pushes received for one subscription. */
  pushesFor(subscription: TestSubscription): ReceivedPush[];
  close(): Promise<void>;
}

function jwkOf(publicKey: Buffer): crypto.JsonWebKey {
  return { kty: 'EC', crv: 'P-256', x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33, 65).toString('base64url') };
}

/** The claims of a VAPID JWT signed by `k`, or why it is refused. */
export function verifyVapid(authorization: string | undefined, audience: string, expectedKey: string, now = Date.now()): ReceivedPush['claims'] | string {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) return `Authorization is not "vapid t=…, k=…": ${authorization}`;
  const [, token, k] = m;
  if (k !== expectedKey) return 'k is not the VAPID public key Parley serves';
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return 'the JWT has not three parts';
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; typ?: string };
  if (header.alg !== 'ES256') return `alg is ${header.alg}, not ES256`;
  const key = crypto.createPublicKey({ key: jwkOf(Buffer.from(k, 'base64url')), format: 'jwk' });
  const ok = crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) return 'the JWT signature does not verify against k';
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== audience) return `aud is ${claims.aud}, not ${audience}`;
  const seconds = now / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= seconds || claims.exp > seconds + 24 * 3600 + 60)
    return `exp ${claims.exp} is not within the next 24 hours`;
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return `sub ${claims.sub} is not a mailto: or https: URL`;
  return claims;
}

export async function startPushService(vapidPublicKey: () => string | Promise<string>): Promise<TestPushService> {
  const subscriptions = new Map<string, TestSubscription>();
  const queued = new Map<string, QueuedAnswer[]>();
  const received: ReceivedPush[] = [];
  const invalid: string[] = [];
  let origin = '';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const id = /^\/push\/([a-z0-9]+)$/.exec(req.url ?? '')?.[1];
        const sub = id ? subscriptions.get(id) : undefined;
        if (req.method !== 'POST' || !sub) {
          res.writeHead(404).end();
          return;
        }
        const refuse = (why: string) => {
          invalid.push(why);
          res.writeHead(400).end(why);
        };
        const claims = verifyVapid(req.headers.authorization, origin, await vapidPublicKey());
        if (typeof claims === 'string') return refuse(claims);
        if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(`Content-Encoding is ${req.headers['content-encoding']}`);
        if (req.headers.ttl === undefined) return refuse('no TTL header');
        let plaintext: Buffer;
        try {
          plaintext = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth });
        } catch (err) {
          return refuse(`the body does not decrypt: ${(err as Error).message}`);
        }
        const answer = queued.get(sub.id)?.shift() ?? { status: 201 };
        received.push({
          subscription: sub.id,
          payload: JSON.parse(plaintext.toString('utf8')) as Record<string, unknown>,
          plaintextBytes: plaintext.length,
          ttl: req.headers.ttl as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          topic: req.headers.topic as string | undefined,
          claims,
          status: answer.status,
        });
        res.writeHead(answer.status, { ...(answer.status === 201 ? { location: `${origin}/message/${received.length}` } : {}), ...answer.headers }).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    invalid,
    subscribe() {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const id = crypto.randomBytes(8).toString('hex');
      const sub: TestSubscription = {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        ecdh,
        auth,
      };
      subscriptions.set(id, sub);
      return sub;
    },
    answer(subscription, ...answers) {
      queued.set(subscription.id, [...(queued.get(subscription.id) ?? []), ...answers]);
    },
    pushesFor: (subscription) => received.filter((r) => r.subscription === subscription.id),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A new subscription of `push`, registered for the agent of `token` (POST /api/v1/me/push-subscriptions, 201). */
export async function registerDevice(t: TestApp, push: TestPushService, token: string): Promise<TestSubscription> {
  const sub = push.subscribe();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/me/push-subscriptions',
    headers: bearer(token),
    payload: { endpoint: sub.endpoint, keys: sub.keys },
  });
  expect(res.statusCode, res.body).toBe(201);
  return sub;
}
