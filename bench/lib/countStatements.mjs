/**
 * Loaded into the server by `bench/profile.ts --statements` (node --import):
 * counts the SQL statements the server runs (each a round trip on
 * PostgreSQL, a native call on SQLite), by kind ("insert messages", "select
 * chats", "begin", …). SIGUSR2 starts the count afresh (the profiler sends it
 * when the measured load begins, so start-up and set-up are left out); at exit
 * the counts are written as JSON to $BENCH_STATEMENTS_OUT.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';

let counts = new Map();

/** "insert messages", "update visitors", "select chats", "with events", "begin" … */
function kind(sql) {
  const s = String(sql).replace(/\s+/g, ' ').trim().toLowerCase();
  const word = /^\w+/.exec(s)?.[0] ?? '?';
  const table =
    word === 'insert'
      ? /^insert into "?(\w+)/.exec(s)?.[1]
      : word === 'update'
        ? /^update "?(\w+)/.exec(s)?.[1]
        : word === 'select' || word === 'delete' || word === 'with'
          ? /\bfrom "?(\w+)/.exec(s)?.[1]
          : undefined;
  return table ? `${word} ${table}` : word;
}

const count = (sql) => {
  const k = kind(sql);
  counts.set(k, (counts.get(k) ?? 0) + 1);
};

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  count(typeof config === 'string' ? config : config?.text);
  return query.call(this, config, ...rest);
};

const probe = new Database(':memory:');
const Statement = Object.getPrototypeOf(probe.prepare('select 1'));
probe.close();
for (const method of ['run', 'get', 'all', 'iterate']) {
  const original = Statement[method];
  Statement[method] = function (...args) {
    count(this.source);
    return original.apply(this, args);
  };
}

process.on('SIGUSR2', () => (counts = new Map()));
process.on('exit', () => {
  if (process.env.BENCH_STATEMENTS_OUT) fs.writeFileSync(process.env.BENCH_STATEMENTS_OUT, JSON.stringify(Object.fromEntries(counts)));
});
