/**
 * LOG_FORMAT=pretty: pino's JSON lines made readable for a person at a
 * terminal, one line each: time, level, then the request line
 * (`GET /api/v1/me 200 3.1 ms`) or the message, then the other fields as
 * key=value, an error's stack below it. The same fields as the JSON, no
 * colour codes (a pipe or a file stays clean). JSON stays the default, for
 * log collectors.
 */
import type { Writable } from 'node:stream';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'responseTime', 'err']);

function clock(ms: unknown): string {
  const d = typeof ms === 'number' ? new Date(ms) : new Date();
  return d.toISOString().slice(11, 23);
}

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** One JSON log line → one readable line (and an error's stack); a line that is not JSON passes as it is. */
export function prettyLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = (LEVELS[o.level as number] ?? String(o.level)).padEnd(5);
  const req = o.req as { method?: string; url?: string } | undefined;
  const res = o.res as { statusCode?: number } | undefined;
  const head =
    req && res && typeof o.responseTime === 'number'
      ? `${req.method ?? ''} ${req.url ?? ''} ${res.statusCode ?? ''} ${o.responseTime.toFixed(1)} ms`
      : typeof o.msg === 'string'
        ? o.msg
        : '';
  const rest = Object.entries(o)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  if (req && !res) rest.unshift(`req=${value(req)}`);
  const err = o.err as { message?: string; stack?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
  return `${clock(o.time)} ${level} ${head}${rest.length > 0 ? `  ${rest.join(' ')}` : ''}${stack}\n`;
}

/** A pino destination that writes each line made readable to `out` (standard output by default). */
export function prettyStream(out: Pick<Writable, 'write'> = process.stdout): { write(line: string): void } {
  return { write: (line: string) => void out.write(prettyLine(line.trimEnd())) };
}
