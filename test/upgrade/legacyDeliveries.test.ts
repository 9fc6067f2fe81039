/**
 * Erasing a visitor whose notification mails and webhooks were written before
 * migration 054 (#33; migration 063): a database of 0.0.1's level (043) and of
 * the level just before 054 holds, about visitor V, an offline message with its
 * notification mail and event webhook, and a callback request with its mail;
 * about another visitor W the same kind of mail. The current Parley starts on
 * it (migrating), an administrator erases V: none of V's deliveries is left,
 * W's is still there. Without 063 the mails stay (they name neither a chat,
 * an event nor, before 054, a visitor). Both stores.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.js';
import { loadConfig } from '../../server/config/config.js';
import { waitFor } from '../helpers/chatChannel.js';
import { bearer, freshStore, testDialect, type TestStore } from '../helpers/testApp.js';
import { AGENT, columnsOf, databaseAt, insertAtLevel, writeRows } from './levelRows.js';

const PUBLIC_URL = 'http://parley.test';
const V = { name: 'Vesna Legacy', email: 'vesna.l3gacy@example.test', message: 'L3GACY offline text line one\nand L3GACY line two' };
const W = { name: 'Walt Other', email: 'walt.0ther@example.test', message: '0THER visitor wrote this' };

const stores: TestStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.cleanup();
});

function mailBody(to: string, replyTo: string | null, text: string): string {
  return JSON.stringify({ to, reply_to: replyTo, subject: 'Offline message', text, html: `<p>${text}</p>` });
}

describe(`erasure of deliveries written before migration 054 (${testDialect()})`, () => {
  it.each(['043_search_chat_order', '052_offers_and_missed'])('from %s', { timeout: 120_000 }, async (level) => {
    const store = freshStore();
    stores.push(store);
    const at = await databaseAt(store.env, level);
    const ids: Record<string, number> = {};
    try {
      const seeded = await writeRows(at.db, testDialect(), store.env.DATABASE_SCHEMA ?? null, PUBLIC_URL);
      const tables = await columnsOf(at.db, testDialect(), store.env.DATABASE_SCHEMA ?? null);
      const account = seeded.find((r) => r.key === 'account')!.where.id;
      const channel = seeded.find((r) => r.key === 'channel')!.where.id;
      const visitor = (who: typeof V, number: number) =>
        insertAtLevel(at.db, tables, 'visitors', {
          account_id: account,
          channel_id: channel,
          external_id: `legacy-${number}`,
          number,
          name: who.name,
          email: who.email,
          session_json: '{}',
        });
      ids.v = await visitor(V, 10);
      ids.w = await visitor(W, 11);
      const offline = (who: typeof V, visitorId: number, at0: number) =>
        insertAtLevel(at.db, tables, 'offline_messages', {
          account_id: account,
          channel_id: channel,
          visitor_id: visitorId,
          name: who.name,
          email: who.email,
          message: who.message,
          created_at: at0,
        });
      const t0 = Date.now() - 60_000;
      ids.vOffline = await offline(V, ids.v, t0);
      ids.wOffline = await offline(W, ids.w, t0 + 1000);
      ids.call = await insertAtLevel(at.db, tables, 'calls', {
        account_id: account,
        channel_id: channel,
        visitor_id: ids.v,
        type: 'callback',
        phone: '+49 30 L3GACY',
        status: 'start',
        created_at: t0,
        updated_at: t0,
      });
      const event = await insertAtLevel(at.db, tables, 'events', {
        account_id: account,
        type: 'offline_message.created',
        data_json: JSON.stringify({ offline_message: { id: ids.vOffline, visitor_id: ids.v } }),
        created_at: t0,
      });
      const delivery = (d: { kind: string; event_type: string; event_id?: number; body: string; created_at: number }) =>
        insertAtLevel(at.db, tables, 'deliveries', {
          account_id: account,
          url: d.kind === 'mail' ? 'mailto:team@example.test' : 'http://127.0.0.1:9/hook',
          status: d.kind === 'mail' ? 'kept' : 'delivered',
          chat_id: null,
          event_id: d.event_id ?? null,
          next_attempt_at: d.created_at,
          webhook_id: `msg_legacy_${d.event_type}_${d.created_at}_${Math.random().toString(36).slice(2)}`,
          updated_at: d.created_at,
          ...d,
        });
      // Each mail as 0.0.1's notification templates wrote it: the message quoted line by line; the call's link.
      ids.vOfflineMail = await delivery({
        kind: 'mail',
        event_type: 'mail.offline_message',
        body: mailBody(
          'team@example.test',
          V.email,
          `From ${V.name}\n${V.message
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n')}\nOpen: ${PUBLIC_URL}/offline`,
        ),
        created_at: t0 + 2000,
      });
      ids.vCallMail = await delivery({
        kind: 'mail',
        event_type: 'mail.callback_request',
        body: mailBody('team@example.test', null, `Call +49 30 L3GACY\nOpen the call: ${PUBLIC_URL}/calls?call=${ids.call}`),
        created_at: t0 + 2000,
      });
      ids.vWebhook = await delivery({
        kind: 'event_webhook',
        event_type: 'offline_message',
        event_id: event,
        body: JSON.stringify({ event_name: 'offline_message', message: V.message }),
        created_at: t0 + 2000,
      });
      ids.wOfflineMail = await delivery({
        kind: 'mail',
        event_type: 'mail.offline_message',
        body: mailBody('team@example.test', W.email, `From ${W.name}\n> ${W.message}\nOpen: ${PUBLIC_URL}/offline`),
        created_at: t0 + 3000,
      });
    } finally {
      await at.close();
    }

    let app: App | null = null;
    try {
      app = await buildApp({
        config: loadConfig({ PUBLIC_URL, LOG_LEVEL: process.env.TEST_LOG ?? 'silent', OUTBOUND_ALLOW_PRIVATE: '1', ...store.env }),
        logger: process.env.TEST_LOG ? undefined : false,
      });
      const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: AGENT.email, password: AGENT.password } });
      expect(login.statusCode, login.body).toBe(200);
      const auth = bearer(login.json<{ token: string }>().token);
      const erase = await app.inject({ method: 'DELETE', url: `/api/v1/visitors/${ids.v}`, headers: auth });
      expect(erase.statusCode, erase.body).toBe(202);
      const job = erase.json<{ erasure: { id: number } }>().erasure;
      const a = app;
      await waitFor(async () => {
        const res = await a.inject({ method: 'GET', url: `/api/v1/erasures/${job.id}`, headers: auth });
        return res.json<{ erasure: { status: string } }>().erasure.status === 'done';
      });
      const left = await app.ctx.db
        .selectFrom('deliveries')
        .select('id')
        .where('id', 'in', [ids.vOfflineMail, ids.vCallMail, ids.vWebhook, ids.wOfflineMail])
        .execute();
      expect(left.map((r) => r.id)).toEqual([ids.wOfflineMail]);
      const bodies = (await app.ctx.db.selectFrom('deliveries').select('body').execute()).map((r) => r.body).join('\n');
      expect(bodies).not.toContain('L3GACY');
      expect(bodies).not.toContain(V.email);
      expect(bodies).toContain('0THER');
    } finally {
      await app?.close();
    }
  });
});
