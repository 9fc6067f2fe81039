/**
 * The baseline of the chat-channel benchmark: a bare Fastify endpoint doing one
 * SQLite insert per request (better-sqlite3, WAL, synchronous=NORMAL), the
 * floor under which no chat service on this machine can go.
 * Usage: node --import tsx bench/bare-server.ts <port> <dir>
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const db = new Database(path.join(process.argv[3], 'bare.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('create table if not exists messages (id integer primary key autoincrement, sender text, body text, created_at integer)');
const insert = db.prepare('insert into messages (sender, body, created_at) values (?, ?, ?)');

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
app.post('/bare', async (request) => {
  const body = JSON.parse(String(request.body)) as { sender: { id: string } };
  insert.run(String(body.sender.id), String(request.body), Date.now());
  return { result: 'ok' };
});
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
