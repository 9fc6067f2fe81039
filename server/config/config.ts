/**
 * Configuration: the only module that reads process.env.
 * Every variable is validated at boot; all problems are reported together, each
 * with an example of a valid value. The result is frozen.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /** PostgreSQL schema to use (tests isolate themselves with it). */
  readonly databaseSchema: string | null;
  readonly redisUrl: string | null;
  readonly adminEmail: string | null;
  readonly adminPassword: string | null;
  readonly outboundAllowPrivate: boolean;
  readonly logLevel: string;
  /** LOG_FORMAT: `json` (one JSON object per line, the default) or `pretty` (for a person at a terminal). */
  readonly logFormat: 'json' | 'pretty';
  /** Lifetime of a login token, in seconds. */
  readonly tokenTtlSeconds: number;
  /** How long an online agent stays online after its last stream socket closed, in seconds. */
  readonly presenceGraceSeconds: number;
  /** Days finished deliveries and relayed events are kept (server/retention/); 0 = forever. */
  readonly retentionDays: number;
  /** Days an anonymous widget visitor (no chat, message, call or contact details) is kept after it was last seen; 0 = forever. */
  readonly visitorIdleDays: number;
  /** AUDIT_RETENTION_DAYS: how long audit-log rows are kept; 0 keeps them forever. */
  readonly auditRetentionDays: number;
  /** Seconds between two passes of the retention worker. */
  readonly retentionIntervalSeconds: number;
  /** PostgreSQL: longest a statement may run before the server cancels it (503), in ms; 0 = no limit. */
  readonly dbStatementTimeoutMs: number;
  /** PostgreSQL: longest wait for a pool connection or a new connection, in ms; 0 = no limit. */
  readonly dbConnectTimeoutMs: number;
  /**
   * Proxies whose X-Forwarded-For is believed (addresses and CIDR ranges, as
   * given); empty: none, every client's address is its connection's.
   */
  readonly trustProxy: readonly string[];
  /** Longest a client may take to send a request's headers, in ms (Node's headersTimeout). */
  readonly headersTimeoutMs: number;
  /** Longest a client may take to send a whole request, body included, in ms (requestTimeout). */
  readonly requestTimeoutMs: number;
  /** Longest a connection may stay silent both ways while a request is under way, in ms (connectionTimeout). */
  readonly idleTimeoutMs: number;
  /** Open WebSockets (agent and visitor together) one client address may hold on this instance. */
  readonly wsMaxPerAddress: number;
  /** Open visitor sockets one visitor token may hold on this instance. */
  readonly wsMaxPerVisitor: number;
  /** Open agent streams one login token may hold on this instance. */
  readonly wsMaxPerAgentToken: number;
  /** smtp:// or smtps:// URL of the mail server (server/mail/); null = mails are composed and kept, not sent. */
  readonly smtpUrl: string | null;
  /** PEM certificates (SMTP_TLS_CA_FILE's content) trusted for the mail server's TLS besides the public CAs; null = the public CAs only. */
  readonly smtpTlsCa: string | null;
  /** The From of every mail: an address, or `Name <address>`. */
  readonly mailFrom: string;
  /** When set, `/metrics` answers only with `Authorization: Bearer <this>`; null = open (bind to a private address). */
  readonly metricsToken: string | null;
  /** METRICS_PUBLIC=1: `/metrics` open on purpose on a non-loopback HOST without METRICS_TOKEN (otherwise refused at boot). */
  readonly metricsPublic: boolean;
  /** SQLite's `synchronous` (SQLITE_SYNCHRONOUS): normal survives a process crash, full also a power loss. */
  readonly sqliteSynchronous: 'normal' | 'full';
  /** Bytes of visitors' uploads one account may keep (UPLOAD_QUOTA_MB); an upload beyond it is refused (413). */
  readonly uploadQuotaBytes: number;
  /** Bytes of uploads one visitor may keep (UPLOAD_QUOTA_VISITOR_MB): what a visitor sent counts against that visitor. */
  readonly uploadQuotaVisitorBytes: number;
  /** Bytes of uploads one channel (widget or chat channel) may keep (UPLOAD_QUOTA_CHANNEL_MB; unset: the account's). */
  readonly uploadQuotaChannelBytes: number;
  /** Where scheduled backups go (BACKUP_DIR); null = no scheduled backups (server/backup/scheduled.ts). */
  readonly backupDir: string | null;
  /** Hours between two scheduled backups (BACKUP_INTERVAL_HOURS). */
  readonly backupIntervalHours: number;
  /** Scheduled backups kept in BACKUP_DIR (BACKUP_KEEP); the oldest beyond it are removed. */
  readonly backupKeep: number;
}

/** Defaults of the database timeouts, also for callers of openStore() without a Config (benchmarks). */
export const DB_TIMEOUT_DEFAULTS = { dbStatementTimeoutMs: 10_000, dbConnectTimeoutMs: 5_000 } as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Ten years: a longer token lifetime is surely a typo. */
const MAX_TOKEN_TTL = 10 * 365 * 24 * 3600;
/** An hour for one statement, ten minutes for a connection: longer is surely a typo. */
const MAX_STATEMENT_TIMEOUT_MS = 3600 * 1000;
const MAX_CONNECT_TIMEOUT_MS = 600 * 1000;

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, key: string): string | null {
  const v = env[key];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

/** Builds a frozen Config from an environment object (process.env by default). */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const portRaw = nonEmpty(env, 'PORT') ?? '8080';
  const port = Number(portRaw);
  if (!/^\d+$/.test(portRaw) || port > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${portRaw}"), e.g. PORT=8080`);
  }

  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const hostValid = /^[\w.:%-]+$/.test(host);
  if (!hostValid) {
    problems.push(`HOST must be an IP address or a host name (got "${host}"), e.g. HOST=0.0.0.0`);
  }

  // The default follows PORT; only a PUBLIC_URL that was given is checked (a bad PORT is reported once).
  const givenPublicUrl = nonEmpty(env, 'PUBLIC_URL');
  if (givenPublicUrl !== null && !isBaseUrl(givenPublicUrl)) {
    problems.push(`PUBLIC_URL must be an http(s) URL without query or fragment (got "${givenPublicUrl}"), e.g. PUBLIC_URL=https://chat.example.com`);
  }
  const publicUrl = (givenPublicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const dataDir = path.resolve(nonEmpty(env, 'DATA_DIR') ?? './data');

  const databaseUrl = nonEmpty(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must start with postgres:// (got "${redact(databaseUrl)}"), e.g. DATABASE_URL=postgres://parley@127.0.0.1:5432/parley`);
  }
  const databaseSchema = nonEmpty(env, 'DATABASE_SCHEMA');
  if (databaseSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push(`DATABASE_SCHEMA must be a lower-case SQL identifier (got "${databaseSchema}"), e.g. DATABASE_SCHEMA=parley`);
  }

  const redisUrl = nonEmpty(env, 'REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push(`REDIS_URL must start with redis:// or rediss:// (got "${redact(redisUrl)}"), e.g. REDIS_URL=redis://127.0.0.1:6379`);
  }

  const adminEmail = nonEmpty(env, 'ADMIN_EMAIL');
  if (adminEmail && !isEmail(adminEmail)) {
    problems.push(`ADMIN_EMAIL must be an e-mail address (got "${adminEmail}"), e.g. ADMIN_EMAIL=admin@example.com`);
  }
  // Not trimmed: spaces are part of a password.
  const adminPassword = nonEmpty(env, 'ADMIN_PASSWORD') === null ? null : (env.ADMIN_PASSWORD as string);
  if (adminPassword && adminPassword.length < 8) {
    problems.push('ADMIN_PASSWORD must have at least 8 characters, e.g. ADMIN_PASSWORD=correct-horse-battery');
  }

  const allowRaw = nonEmpty(env, 'OUTBOUND_ALLOW_PRIVATE') ?? '0';
  if (!['0', '1', 'true', 'false'].includes(allowRaw)) {
    problems.push(`OUTBOUND_ALLOW_PRIVATE must be 1 or 0 (got "${allowRaw}"), e.g. OUTBOUND_ALLOW_PRIVATE=1`);
  }

  const logLevel = nonEmpty(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}"), e.g. LOG_LEVEL=info`);
  }

  const logFormat = nonEmpty(env, 'LOG_FORMAT') ?? 'json';
  if (logFormat !== 'json' && logFormat !== 'pretty') {
    problems.push(`LOG_FORMAT must be json or pretty (got "${logFormat}"), e.g. LOG_FORMAT=pretty`);
  }

  const ttlRaw = nonEmpty(env, 'TOKEN_TTL_SECONDS') ?? String(30 * 24 * 3600);
  const tokenTtlSeconds = Number(ttlRaw);
  if (!/^\d+$/.test(ttlRaw) || tokenTtlSeconds < 60 || tokenTtlSeconds > MAX_TOKEN_TTL) {
    problems.push(`TOKEN_TTL_SECONDS must be an integer from 60 to ${MAX_TOKEN_TTL} (got "${ttlRaw}"), e.g. TOKEN_TTL_SECONDS=2592000`);
  }

  const graceRaw = nonEmpty(env, 'PRESENCE_GRACE_SECONDS') ?? '60';
  const presenceGraceSeconds = Number(graceRaw);
  if (!/^\d+$/.test(graceRaw) || presenceGraceSeconds < 1 || presenceGraceSeconds > 86400) {
    problems.push(`PRESENCE_GRACE_SECONDS must be an integer from 1 to 86400 (got "${graceRaw}"), e.g. PRESENCE_GRACE_SECONDS=60`);
  }

  const statementRaw = nonEmpty(env, 'DB_STATEMENT_TIMEOUT_MS') ?? String(DB_TIMEOUT_DEFAULTS.dbStatementTimeoutMs);
  const dbStatementTimeoutMs = Number(statementRaw);
  if (!/^\d+$/.test(statementRaw) || dbStatementTimeoutMs > MAX_STATEMENT_TIMEOUT_MS) {
    problems.push(
      `DB_STATEMENT_TIMEOUT_MS must be an integer from 0 (no limit) to ${MAX_STATEMENT_TIMEOUT_MS} (got "${statementRaw}"), e.g. DB_STATEMENT_TIMEOUT_MS=10000`,
    );
  }

  const connectRaw = nonEmpty(env, 'DB_CONNECT_TIMEOUT_MS') ?? String(DB_TIMEOUT_DEFAULTS.dbConnectTimeoutMs);
  const dbConnectTimeoutMs = Number(connectRaw);
  if (!/^\d+$/.test(connectRaw) || dbConnectTimeoutMs > MAX_CONNECT_TIMEOUT_MS) {
    problems.push(
      `DB_CONNECT_TIMEOUT_MS must be an integer from 0 (no limit) to ${MAX_CONNECT_TIMEOUT_MS} (got "${connectRaw}"), e.g. DB_CONNECT_TIMEOUT_MS=5000`,
    );
  }

  const retentionRaw = nonEmpty(env, 'RETENTION_DAYS') ?? '30';
  const retentionDays = Number(retentionRaw);
  if (!/^\d+$/.test(retentionRaw) || retentionDays > 36500) {
    problems.push(`RETENTION_DAYS must be an integer from 0 (keep forever) to 36500 (got "${retentionRaw}"), e.g. RETENTION_DAYS=30`);
  }

  const visitorIdleDays = intSetting(env, problems, 'VISITOR_IDLE_DAYS', { fallback: 30, min: 0, max: 36500, example: 30 });
  const auditRetentionDays = intSetting(env, problems, 'AUDIT_RETENTION_DAYS', { fallback: 365, min: 0, max: 36500, example: 730 });

  const retentionEveryRaw = nonEmpty(env, 'RETENTION_INTERVAL_SECONDS') ?? '300';
  const retentionIntervalSeconds = Number(retentionEveryRaw);
  if (!/^\d+$/.test(retentionEveryRaw) || retentionIntervalSeconds < 1 || retentionIntervalSeconds > 86400) {
    problems.push(`RETENTION_INTERVAL_SECONDS must be an integer from 1 to 86400 (got "${retentionEveryRaw}"), e.g. RETENTION_INTERVAL_SECONDS=300`);
  }

  const trustRaw = nonEmpty(env, 'TRUST_PROXY') ?? '0';
  const trustOff = ['0', 'false', 'off', 'none'].includes(trustRaw.toLowerCase());
  const trustProxy = trustOff ? [] : trustRaw.split(',').map((part) => part.trim());
  const badProxies = trustProxy.filter((part) => !isAddressOrCidr(part));
  if (badProxies.length > 0) {
    problems.push(
      `TRUST_PROXY must be 0 (off) or a comma-separated list of IP addresses and CIDR ranges (got "${trustRaw}", not understood: ${badProxies.map((b) => `"${b}"`).join(', ')}), e.g. TRUST_PROXY=127.0.0.1,10.0.0.0/8`,
    );
  }

  const headersTimeoutMs = intSetting(env, problems, 'HEADERS_TIMEOUT_MS', { fallback: 10_000, min: 1000, max: 600_000, example: 10000 });
  const requestTimeoutMs = intSetting(env, problems, 'REQUEST_TIMEOUT_MS', { fallback: 120_000, min: 1000, max: 3_600_000, example: 120000 });
  const idleTimeoutMs = intSetting(env, problems, 'IDLE_TIMEOUT_MS', { fallback: 60_000, min: 1000, max: 3_600_000, example: 60000 });
  const wsMaxPerAddress = intSetting(env, problems, 'WS_MAX_PER_ADDRESS', { fallback: 200, min: 1, max: 1_000_000, example: 200 });
  const wsMaxPerVisitor = intSetting(env, problems, 'WS_MAX_PER_VISITOR', { fallback: 10, min: 1, max: 10_000, example: 10 });
  const wsMaxPerAgentToken = intSetting(env, problems, 'WS_MAX_PER_AGENT_TOKEN', { fallback: 10, min: 1, max: 10_000, example: 10 });
  if (headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request, e.g. HEADERS_TIMEOUT_MS=10000`,
    );
  }

  const smtpUrl = nonEmpty(env, 'SMTP_URL');
  if (smtpUrl !== null && !isSmtpUrl(smtpUrl)) {
    problems.push(
      `SMTP_URL must be an smtp:// or smtps:// URL with a host (got "${redact(smtpUrl)}"), e.g. SMTP_URL=smtps://user:password@smtp.example.com:465`,
    );
  }
  if (smtpUrl !== null && isSmtpUrl(smtpUrl)) {
    // The only query SMTP_URL takes: cleartext_auth=allow (server/mail/send.ts), so a misspelt opt-out is not silently ignored.
    const query = [...new URL(smtpUrl).searchParams.entries()];
    if (query.some(([k, v]) => k !== 'cleartext_auth' || v !== 'allow')) {
      problems.push(`SMTP_URL takes no query but ?cleartext_auth=allow (got "${redact(smtpUrl)}")`);
    }
  }
  const smtpTlsCa = readCaFile(env, problems, 'SMTP_TLS_CA_FILE');
  const publicHost = safeHost(publicUrl);
  const mailFrom = nonEmpty(env, 'MAIL_FROM') ?? `Parley <parley@${publicHost.includes('.') ? publicHost : `${publicHost}.localdomain`}>`;
  if (!isMailbox(mailFrom)) {
    problems.push(`MAIL_FROM must be an e-mail address or "Name <address>" (got "${mailFrom}"), e.g. MAIL_FROM="Acme support <support@acme.example>"`);
  }

  const metricsToken = nonEmpty(env, 'METRICS_TOKEN');
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be 16 to 256 printable characters without spaces (not repeated here), e.g. METRICS_TOKEN=$(openssl rand -hex 32)');
  }

  const metricsPublicRaw = nonEmpty(env, 'METRICS_PUBLIC') ?? '0';
  if (!['0', '1', 'true', 'false'].includes(metricsPublicRaw)) {
    problems.push(`METRICS_PUBLIC must be 1 or 0 (got "${metricsPublicRaw}"), e.g. METRICS_PUBLIC=1`);
  }
  const metricsPublic = metricsPublicRaw === '1' || metricsPublicRaw === 'true';
  // Bound beyond loopback, an open /metrics tells anyone who reaches the port the traffic, the
  // agents online and the error rates: a token, or the operator saying so on purpose. (A bad HOST
  // is reported once, above.)
  if (metricsToken === null && !metricsPublic && hostValid && !isLoopback(host)) {
    problems.push(
      `METRICS_TOKEN must be set when HOST is not a loopback address (HOST is "${host}"), so /metrics is not open to whoever reaches the port, e.g. METRICS_TOKEN=$(openssl rand -hex 32); or set METRICS_PUBLIC=1 to serve /metrics without a token on purpose`,
    );
  }

  const synchronousRaw = (nonEmpty(env, 'SQLITE_SYNCHRONOUS') ?? 'normal').toLowerCase();
  if (synchronousRaw !== 'normal' && synchronousRaw !== 'full') {
    problems.push(`SQLITE_SYNCHRONOUS must be normal or full (got "${env.SQLITE_SYNCHRONOUS ?? ''}"), e.g. SQLITE_SYNCHRONOUS=full`);
  }
  const sqliteSynchronous = synchronousRaw === 'full' ? 'full' : 'normal';

  const uploadQuotaMb = intSetting(env, problems, 'UPLOAD_QUOTA_MB', { fallback: 1024, min: 1, max: 10_485_760, example: 1024 });
  const uploadQuotaVisitorMb = intSetting(env, problems, 'UPLOAD_QUOTA_VISITOR_MB', { fallback: 50, min: 1, max: 10_485_760, example: 50 });
  const uploadQuotaChannelMb = intSetting(env, problems, 'UPLOAD_QUOTA_CHANNEL_MB', { fallback: uploadQuotaMb, min: 1, max: 10_485_760, example: 256 });

  const backupDirRaw = nonEmpty(env, 'BACKUP_DIR');
  const backupDir = backupDirRaw === null ? null : path.resolve(backupDirRaw);
  const backupIntervalHours = intSetting(env, problems, 'BACKUP_INTERVAL_HOURS', { fallback: 24, min: 1, max: 8760, example: 24 });
  const backupKeep = intSetting(env, problems, 'BACKUP_KEEP', { fallback: 7, min: 1, max: 10_000, example: 7 });

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    publicUrl,
    dataDir,
    databaseUrl,
    databaseSchema,
    redisUrl,
    adminEmail,
    adminPassword,
    outboundAllowPrivate: allowRaw === '1' || allowRaw === 'true',
    logLevel,
    logFormat: logFormat as 'json' | 'pretty',
    tokenTtlSeconds,
    presenceGraceSeconds,
    retentionDays,
    visitorIdleDays,
    auditRetentionDays,
    retentionIntervalSeconds,
    dbStatementTimeoutMs,
    dbConnectTimeoutMs,
    trustProxy: Object.freeze(trustProxy),
    headersTimeoutMs,
    requestTimeoutMs,
    idleTimeoutMs,
    wsMaxPerAddress,
    wsMaxPerVisitor,
    wsMaxPerAgentToken,
    smtpUrl,
    smtpTlsCa,
    mailFrom,
    metricsToken,
    metricsPublic,
    sqliteSynchronous,
    uploadQuotaBytes: uploadQuotaMb * 1024 * 1024,
    uploadQuotaVisitorBytes: uploadQuotaVisitorMb * 1024 * 1024,
    uploadQuotaChannelBytes: uploadQuotaChannelMb * 1024 * 1024,
    backupDir,
    backupIntervalHours,
    backupKeep,
  });
}

/** The PEM certificates of a file named by the variable (null when unset); a problem when it cannot be read or holds none. */
function readCaFile(env: Env, problems: string[], key: string): string | null {
  const file = nonEmpty(env, key);
  if (file === null) return null;
  const example = `e.g. ${key}=/etc/parley/mail-ca.pem`;
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    problems.push(`${key} must name a readable PEM file of certificates (${file}: ${reason}), ${example}`);
    return null;
  }
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem)) {
    problems.push(`${key} must name a PEM file with at least one "-----BEGIN CERTIFICATE-----" block (${file} has none), ${example}`);
    return null;
  }
  return pem;
}

/** An integer variable from min to max (fallback when unset); a problem naming the range and an example otherwise. */
function intSetting(env: Env, problems: string[], key: string, o: { fallback: number; min: number; max: number; example: number }): number {
  const raw = nonEmpty(env, key) ?? String(o.fallback);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < o.min || value > o.max) {
    problems.push(`${key} must be an integer from ${o.min} to ${o.max} (got "${raw}"), e.g. ${key}=${o.example}`);
    return o.fallback;
  }
  return value;
}

/** A bind address only this machine reaches: 127.0.0.0/8, ::1 (also IPv4-mapped) or `localhost`. */
function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === 'localhost.') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  if (!net.isIPv6(h)) return false;
  const block = new net.BlockList();
  block.addAddress('::1', 'ipv6');
  return block.check(h, 'ipv6');
}

/** An IPv4 or IPv6 address, or one with a /prefix no longer than the address (10.0.0.0/8, fd00::/8). */
function isAddressOrCidr(value: string): boolean {
  const m = /^([^/\s]+)(?:\/(\d{1,3}))?$/.exec(value);
  if (!m) return false;
  const version = net.isIP(m[1]);
  if (version === 0) return false;
  return m[2] === undefined || Number(m[2]) <= (version === 4 ? 32 : 128);
}

function isBaseUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.search === '' && u.hash === '' && !value.includes('?') && !value.includes('#');
  } catch {
    return false;
  }
}

function isSmtpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** `address` or `Display Name <address>`, no line breaks (a header value). */
function isMailbox(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  const m = /^(?:[^<>]*<([^<>]+)>|([^<>]+))$/.exec(value.trim());
  return m !== null && isEmail((m[1] ?? m[2]).trim());
}

function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
