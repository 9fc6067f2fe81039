/**
 * GET /api/v1/export reads the store only as fast as the client takes the file
 * (docs/DATA.md "Export"): the memory it holds is a batch of rows and a chunk or
 * two, whatever the account's size. A client that stops reading stops the
 * reads; when it reads on, the whole file arrives. An export that gathered the
 * rows first would have read every batch by the time the first bytes left.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { EXPORT_BATCH } from '../../../../domain/export/accountRows.js';

const BATCHES = 40;
const TEXT = 'x'.repeat(1000);

/** Counts the reads of the messages table that pass through it. */
class MessageReads implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"messages"')) this.count++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /api/v1/export under a slow reader', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    const channel = await createChatChannel(t, { name: 'Bulk' });
    await postInbound(t, channel, textMessage('bulk', 'first'));
    const first = await t.app.ctx.db.selectFrom('messages').selectAll().executeTakeFirstOrThrow();
    const { id: _id, ...row } = first;
    for (let b = 0; b < BATCHES; b++) {
      const rows = Array.from({ length: EXPORT_BATCH }, (_, i) => ({ ...row, text: `${b}-${i} ${TEXT}`, external_id: null }));
      for (let i = 0; i < rows.length; i += 250)
        await t.app.ctx.db
          .insertInto('messages')
          .values(rows.slice(i, i + 250))
          .execute();
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('stops reading the store while the client does not read, and sends the whole file when it does', async () => {
    const reads = new MessageReads();
    const ctx = t.app.ctx as { db: TestApp['app']['ctx']['db'] };
    const db = ctx.db;
    ctx.db = db.withPlugin(reads);
    try {
      const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        request(`${base}/api/v1/export`, { headers: bearer(t.adminToken) }, resolve)
          .on('error', reject)
          .end();
      });
      expect(res.statusCode).toBe(200);
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve) =>
        res.once('data', (c: Buffer) => {
          chunks.push(c);
          res.pause();
          resolve();
        }),
      );
      // However long the client waits, the server reads on only until the buffers between them are full.
      let whilePaused = -1;
      for (let waited = 0; reads.count !== whilePaused && waited < 20_000; waited += 500) {
        whilePaused = reads.count;
        await sleep(500);
      }
      expect(reads.count).toBe(whilePaused);
      expect(whilePaused).toBeLessThan(BATCHES / 2);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.resume();
      await new Promise((r) => res.on('end', r));
      const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
      const end = JSON.parse(lines.at(-1)!) as { type: string; lines: number };
      expect(end).toEqual({ type: 'end', lines: lines.length - 1 });
      expect(lines.filter((l) => l.startsWith('{"type":"message"'))).toHaveLength(BATCHES * EXPORT_BATCH + 1);
      expect(reads.count).toBeGreaterThan(BATCHES);
    } finally {
      ctx.db = db;
    }
  }, 120_000);
});
