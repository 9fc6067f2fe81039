/**
 * Erasing one visitor (DELETE /api/v1/visitors/:id, docs/DATA.md "Erasure")
 * who wrote BENCH_ERASE_MESSAGES (10,000) messages through the chat channel,
 * beside 1,000 messages of other senders, on SQLite: the time from the 202 to
 * the erasure's `done` (GET /api/v1/erasures/:id polled every 50 ms), and the
 * longest answer of GET /healthz meanwhile (the service keeps answering).
 * Baseline, in the same run, on a copy of the same store taken before the
 * erasure: the visitor's rows deleted plainly by this process in one
 * transaction (messages, chats, visitor), with the same secure_delete pragmas.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { writeSection } from './lib/report.js';
import { chatApiSetup, cleanup, json, startParley } from './lib/server.js';

const MESSAGES = Number(process.env.BENCH_ERASE_MESSAGES ?? 10_000);
const OTHERS = 1_000;

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`inbound answered ${res.status}`);
}

/** `count` messages, `parallel` at a time. */
async function send(endpoint: string, sender: (i: number) => string, count: number, parallel = 20): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        await post(endpoint, { sender: { id: sender(i), name: `Sender ${sender(i)}` }, message: { type: 'text', text: `message ${i} about my order` } });
      }
    }),
  );
}

function plainErase(file: string, externalId: string): number {
  const db = new Database(file);
  db.pragma('secure_delete = ON');
  const started = performance.now();
  db.transaction(() => {
    const visitor = db.prepare('SELECT id FROM visitors WHERE external_id = ?').get(externalId) as { id: number };
    db.prepare('DELETE FROM messages WHERE chat_id IN (SELECT id FROM chats WHERE visitor_id = ?)').run(visitor.id);
    db.prepare('DELETE FROM chats WHERE visitor_id = ?').run(visitor.id);
    db.prepare('DELETE FROM visitors WHERE id = ?').run(visitor.id);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const ms = performance.now() - started;
  db.close();
  return ms;
}

export async function runErasureBench(): Promise<void> {
  const load = new LoadWatch();
  const server = await startParley({ db: 'sqlite' });
  let seconds: number;
  let worstHealthMs = 0;
  let baselineMs: number;
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'Erasure bench' });
    await send(endpointUrl, () => 'erase-me', MESSAGES, 1);
    await send(endpointUrl, (i) => `other-${i % 100}`, OTHERS);
    // The baseline's copy of the store as it is now (SQLite's online backup: consistent while serving).
    const copy = path.join(server.dataDir, 'baseline.db');
    const live = new Database(path.join(server.dataDir, 'parley.db'), { readonly: true });
    const visitor = live.prepare("SELECT id FROM visitors WHERE external_id = 'erase-me'").get() as { id: number };
    await live.backup(copy);
    live.close();
    load.sample();
    let health = true;
    const watch = (async () => {
      while (health) {
        const t0 = performance.now();
        await fetch(`${server.base}/healthz`);
        worstHealthMs = Math.max(worstHealthMs, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const started = performance.now();
    const asked = await fetch(`${server.base}/api/v1/visitors/${visitor.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    if (asked.status !== 202) throw new Error(`erasure answered ${asked.status}`);
    const { erasure } = (await asked.json()) as { erasure: { id: number } };
    for (;;) {
      const now = await json<{ erasure: { status: string } }>(`${server.base}/api/v1/erasures/${erasure.id}`, { token });
      if (now.erasure.status === 'done') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    seconds = (performance.now() - started) / 1000;
    health = false;
    await watch;
    baselineMs = plainErase(copy, 'erase-me');
    fs.rmSync(copy, { force: true });
  } finally {
    await server.stop();
    await cleanup(server);
  }
  writeSection(
    'erasure',
    `## Erasing one visitor (issue 33)

${today()} — ${machineLine()}; ${load.line()}. SQLite. A chat-channel sender with ${MESSAGES.toLocaleString('en')} messages in one chat, beside ${OTHERS.toLocaleString('en')} messages of 100 other senders; \`DELETE /api/v1/visitors/:id\` answered 202, then \`GET /api/v1/erasures/:id\` polled every 50 ms until \`done\`.

| | time | longest \`/healthz\` answer meanwhile |
|---|---|---|
| Parley: background erasure in batches (messages, files, search index entries, events, deliveries, the visitor), WAL checkpointed at the end | ${seconds.toFixed(2)} s | ${worstHealthMs.toFixed(0)} ms |
| baseline: the visitor's messages, chats and row deleted plainly in one transaction on a copy of the same store, \`secure_delete\` on, WAL checkpointed | ${(baselineMs / 1000).toFixed(2)} s | (one transaction: the store is held throughout) |

Reproduce: \`npm run bench -- --only=erasure\` (\`BENCH_ERASE_MESSAGES\` changes the size). The baseline does less (no events, deliveries or files) and holds the database for its whole run; Parley's batches of 100 messages on SQLite (the FTS5 index's secure-delete makes each delete dear) keep every other request answering.`,
  );
}
