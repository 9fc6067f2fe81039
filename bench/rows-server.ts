/**
 * The rows baseline of the chat-channel benchmark (issue 23): the
 * straightforward correct endpoint, a bare Fastify route that stores the rows
 * a chat message needs (visitor, chat, message, outbox event) in one
 * transaction per request, on SQLite (bench/lib/rowsSqlite.ts) or PostgreSQL
 * (bench/lib/rowsPostgres.ts). Parley's chat channel is measured against it.
 * It answers like Parley's endpoint: 200 {"result":"ok"} once committed, 400
 * for a body without sender.id or text (nothing stored).
 * ROWS_SEARCH=1 adds Parley's search indexes (the "rows + search index"
 * baseline: what the search of issue 20 costs a straightforward endpoint).
 * Usage: node --import tsx bench/rows-server.ts <port> <dir> [<postgres url> <schema>]
 * Prints "ready" on stdout once it listens; POST /rows/<channel id>.
 *
 * Sockets: GET /ws (WebSocket) gets {"type":"ready"}, then, after each
 * request's commit, its outbox event as one frame, serialized once for all
 * sockets: the straightforward way to tell agents (no relay, no replay, no
 * per-socket filter), the floor of the POST → agent frame and fan-out figures
 * (issue 23, goals 3 and 4). With no socket open it costs nothing.
 */
import Fastify from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { readInput } from './lib/rowsInput.js';
import { rowsPostgres } from './lib/rowsPostgres.js';
import { rowsSqlite } from './lib/rowsSqlite.js';

const [portArg, dir, pgUrl, schema] = process.argv.slice(2);
const search = process.env.ROWS_SEARCH === '1';
const rows = pgUrl && schema ? await rowsPostgres(pgUrl, schema, { search }) : rowsSqlite(dir, { search });

const app = Fastify({ logger: false });
// Like Parley's chat channel: the body is JSON whatever its Content-Type.
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
app.post<{ Params: { channel: string } }>('/rows/:channel', async (request, reply) => {
  const input = readInput(String(request.body), Number(request.params.channel), Date.now());
  if (!input || !Number.isSafeInteger(input.channelId))
    return reply.code(400).send({ error: { code: 400, message: 'sender.id and a text message are required' } });
  const payload = await rows.store(input);
  if (sockets.size > 0) {
    const frame = Buffer.from(payload);
    for (const ws of sockets) ws.send(frame);
  }
  return { result: 'ok' };
});
const sockets = new Set<WebSocket>();
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
app.server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/ws') return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.send('{"type":"ready"}');
  });
});
await app.listen({ port: Number(portArg), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => wss.close())
      .then(() => rows.close())
      .then(() => process.exit(0)),
);
