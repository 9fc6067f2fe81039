/**
 * Hot-path queries built once. Kysely builds and compiles a query on every
 * call (5–13 µs each here, several per chat message: issue 8's profile);
 * `prepared(names, build)` runs the builder once per store with placeholders
 * for the named parameters, keeps the compiled SQL, and on each call only puts
 * the values in the placeholders' places. The statement text is then the same
 * every time, so SQLite's statement cache and PostgreSQL's named statements
 * (pgStatements.ts) reuse it too.
 *
 *   const chatById = prepared(['id'], (db, p: { id: number }) => db.selectFrom('chats').selectAll().where('id', '=', p.id));
 *   const chat = await chatById.first(tx, { id: 7 });
 *
 * The builder must pass each parameter straight to the query as a value
 * (`.where('id', '=', p.id)`, `.values({ text: p.text })`): it receives
 * placeholders, not the values, so it must not branch on them, compute with
 * them or leave a column out for an undefined one (undefined is bound as NULL). A placeholder
 * turned into a string or number throws, and a compiled query that does not
 * use every parameter is refused, so such a builder fails its first test.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Executor } from './database.js';

class Placeholder {
  constructor(readonly name: string) {}
  [Symbol.toPrimitive](): never {
    throw new Error(`prepared(): parameter ${this.name} was used as a value while building; pass it straight to the query`);
  }
}

export interface PreparedQuery<P, R> {
  /** Every row. */
  execute(db: Executor, params: P): Promise<R[]>;
  /** The first row, or undefined. */
  first(db: Executor, params: P): Promise<R | undefined>;
  /** The first row; throws when there is none. */
  only(db: Executor, params: P): Promise<R>;
  /** The statement for this store, with its placeholders (tests read its query plan). */
  compile(db: Executor): CompiledQuery<R>;
}

export function prepared<P extends Record<string, unknown>, R>(
  names: readonly (keyof P & string)[],
  build: (db: Executor, params: P) => Compilable<R>,
): PreparedQuery<P, R> {
  // One compiled query per store (the dialect adapter of a Kysely instance, shared by its transactions).
  const compiled = new WeakMap<object, CompiledQuery<R>>();

  const compile = (db: Executor): CompiledQuery<R> => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      const placeholders = Object.fromEntries(names.map((name) => [name, new Placeholder(name)])) as unknown as P;
      query = build(db, placeholders).compile();
      const used = new Set(query.parameters.filter((p): p is Placeholder => p instanceof Placeholder).map((p) => p.name));
      const unused = names.filter((name) => !used.has(name));
      if (unused.length > 0) throw new Error(`prepared(): the query does not use ${unused.join(', ')}: ${query.sql}`);
      compiled.set(adapter, query);
    }
    return query;
  };

  const execute = async (db: Executor, params: P): Promise<R[]> => {
    const query = compile(db);
    const parameters = query.parameters.map((p) => (p instanceof Placeholder ? (params[p.name] ?? null) : p));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };

  return {
    compile,
    execute,
    first: async (db, params) => (await execute(db, params))[0],
    only: async (db, params) => {
      const rows = await execute(db, params);
      if (rows.length === 0) throw new Error('prepared(): no row');
      return rows[0];
    },
  };
}
