/**
 * Soak (issue 9): mixed traffic for a long time with the server's memory
 * sampled. Visitors POST to the chat channel at SOAK_RATE msg/s (default
 * 1,000), one agent stream is connected, and an agent answers one message in
 * ten, each answer delivered to a customer endpoint on 127.0.0.1. Reports
 * errors, deliveries and RSS every 30 s; memory is "flat" when the last
 * third's median RSS is within 15 % of the first third's.
 * Not part of a plain `npm run bench` (10 minutes): `npm run bench -- --only=soak`
 * (SOAK_SECONDS, SOAK_RATE to change the load).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { MIX, realBodies } from './lib/bodies.js';
import { openLoop } from './lib/load.js';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { chatApiSetup, cleanup, json, rssOf, startParley, type Db } from './lib/server.js';
import { wsText } from '../server/lib/wsText.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 1000);
const SAMPLE_MS = 30_000;

async function customerEndpoint(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, count: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

async function soak(db: Db): Promise<string> {
  const endpoint = await customerEndpoint();
  const server = await startParley({ db, env: { OUTBOUND_ALLOW_PRIVATE: '1' } });
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'soak', webhookUrl: `${endpoint.url}/hook` });
    const ws = new WebSocket(`${server.ws}/api/v1/stream?token=${token}`);
    let replyErrors = 0;
    let replies = 0;
    ws.on('message', (raw) => {
      const frame = JSON.parse(wsText(raw)) as { type: string; data?: { message?: { chat_id: number; author: string; id: number } } };
      const m = frame.type === 'message.created' ? frame.data?.message : undefined;
      if (!m || m.author !== 'visitor' || m.id % 10 !== 0) return;
      replies++;
      json(`${server.base}/api/v1/chats/${m.chat_id}/messages`, { method: 'POST', token, body: { type: 'text', text: `re ${m.id}` } }).catch(
        () => replyErrors++,
      );
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));

    const samples: Array<{ t: number; rss: number }> = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, rss: rssOf(server.pid) }), SAMPLE_MS);
    const body = realBodies({ tag: 'soak-', senders: { pool: 500 } });
    const load = await openLoop(endpointUrl, body, { rate: RATE, seconds: SECONDS });
    clearInterval(sampler);
    samples.push({ t: (Date.now() - started) / 1000, rss: rssOf(server.pid) });
    await new Promise((r) => setTimeout(r, 10_000));
    ws.close();

    const third = Math.max(1, Math.floor(samples.length / 3));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const first = median(samples.slice(0, third).map((s) => s.rss));
    const last = median(samples.slice(-third).map((s) => s.rss));
    const flat = last <= first * 1.15;
    const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
    recordGoal({
      key: `soak-${db}`,
      benchmark: `Soak, ${SECONDS / 60} min at ${RATE} msg/s, mixed traffic (${db})`,
      goal: 'flat memory, 0 errors',
      measured: `${load.ok}/${load.sent} answered 200, ${load.errors + replyErrors} errors, RSS ${mib(first)} → ${mib(last)}`,
      met: flat && load.errors === 0 && replyErrors === 0 && load.ok === load.sent,
    });
    return `| ${db} | ${RATE} msg/s × ${SECONDS} s | ${load.ok} / ${load.sent} | ${load.errors} | ${replies} (${replyErrors} errors), ${endpoint.count()} delivered | ${samples.map((s) => mib(s.rss)).join(' → ')} | ${flat ? '**flat**' : '**grew**'} (${mib(first)} → ${mib(last)}) |`;
  } finally {
    await server.stop();
    await cleanup(server);
    await endpoint.close();
  }
}

export async function runSoakBench(dbs: Db[]): Promise<void> {
  const rows: string[] = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    process.stderr.write(`soak on ${db} (${SECONDS} s at ${RATE} msg/s)…\n`);
    rows.push(await soak(db));
  }
  writeSection(
    'soak',
    `## Soak (issue 9)

${today()} — ${machineLine()}; ${load.line()}. Chat-channel visitors at a fixed rate from 500 senders, one agent stream, an agent reply to every tenth message delivered to a local customer endpoint; server RSS sampled every ${SAMPLE_MS / 1000} s. ${MIX}.

| store | load | POSTs answered 200 | POST errors | agent replies | RSS samples | memory |
|---|---|---|---|---|---|---|
${rows.join('\n')}`,
  );
}
