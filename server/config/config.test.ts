/**
 * Configuration: defaults, the validation of every variable (each problem
 * names an example value), all problems reported together, a frozen result,
 * and config.ts as the only reader of process.env.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('has the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      databaseSchema: null,
      redisUrl: null,
      adminEmail: null,
      adminPassword: null,
      outboundAllowPrivate: false,
      logLevel: 'info',
      logFormat: 'json',
      tokenTtlSeconds: 30 * 24 * 3600,
      presenceGraceSeconds: 60,
      retentionDays: 30,
      retentionIntervalSeconds: 300,
      dbStatementTimeoutMs: 10_000,
      dbConnectTimeoutMs: 5000,
      trustProxy: [],
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      idleTimeoutMs: 60_000,
      wsMaxPerAddress: 200,
      wsMaxPerVisitor: 10,
      wsMaxPerAgentToken: 10,
      smtpUrl: null,
      smtpTlsCa: null,
      mailFrom: 'Parley <parley@localhost.localdomain>',
      metricsToken: null,
      metricsPublic: false,
      sqliteSynchronous: 'normal',
      visitorIdleDays: 30,
      auditRetentionDays: 365,
      uploadQuotaBytes: 1024 * 1024 * 1024,
      uploadQuotaVisitorBytes: 50 * 1024 * 1024,
      uploadQuotaChannelBytes: 1024 * 1024 * 1024,
      backupDir: null,
      backupIntervalHours: 24,
      backupKeep: 7,
    });
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', ADMIN_PASSWORD: ' ', LOG_LEVEL: '' })).toEqual(loadConfig({}));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://chat.example.com/parley/',
      DATA_DIR: '/var/lib/parley',
      DATABASE_URL: 'postgres://parley:secret@db:5432/parley',
      DATABASE_SCHEMA: 'parley_1',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: ' spaced password ',
      OUTBOUND_ALLOW_PRIVATE: '1',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'pretty',
      TOKEN_TTL_SECONDS: '3600',
      PRESENCE_GRACE_SECONDS: '15',
      RETENTION_DAYS: '7',
      RETENTION_INTERVAL_SECONDS: '60',
      DB_STATEMENT_TIMEOUT_MS: '2500',
      DB_CONNECT_TIMEOUT_MS: '1500',
      TRUST_PROXY: '10.0.0.7, 192.168.0.0/16,fd00::/8',
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '30000',
      IDLE_TIMEOUT_MS: '20000',
      WS_MAX_PER_ADDRESS: '50',
      WS_MAX_PER_VISITOR: '3',
      WS_MAX_PER_AGENT_TOKEN: '4',
      SMTP_URL: 'smtps://mailer:p%40ss@smtp.example.com:465',
      MAIL_FROM: 'Acme support <support@acme.example>',
      METRICS_TOKEN: 'scrape-0123456789abcdef',
      SQLITE_SYNCHRONOUS: 'FULL',
      VISITOR_IDLE_DAYS: '90',
      AUDIT_RETENTION_DAYS: '730',
      UPLOAD_QUOTA_MB: '5',
      UPLOAD_QUOTA_VISITOR_MB: '2',
      UPLOAD_QUOTA_CHANNEL_MB: '4',
      BACKUP_DIR: '/var/backups/parley',
      BACKUP_INTERVAL_HOURS: '6',
      BACKUP_KEEP: '14',
    });
    expect(config).toEqual({
      port: 9090,
      host: '0.0.0.0',
      publicUrl: 'https://chat.example.com/parley',
      dataDir: '/var/lib/parley',
      databaseUrl: 'postgres://parley:secret@db:5432/parley',
      databaseSchema: 'parley_1',
      redisUrl: 'redis://cache:6379',
      adminEmail: 'boss@example.com',
      adminPassword: ' spaced password ',
      outboundAllowPrivate: true,
      logLevel: 'debug',
      logFormat: 'pretty',
      tokenTtlSeconds: 3600,
      presenceGraceSeconds: 15,
      retentionDays: 7,
      retentionIntervalSeconds: 60,
      dbStatementTimeoutMs: 2500,
      dbConnectTimeoutMs: 1500,
      trustProxy: ['10.0.0.7', '192.168.0.0/16', 'fd00::/8'],
      headersTimeoutMs: 5000,
      requestTimeoutMs: 30000,
      idleTimeoutMs: 20000,
      wsMaxPerAddress: 50,
      wsMaxPerVisitor: 3,
      wsMaxPerAgentToken: 4,
      smtpUrl: 'smtps://mailer:p%40ss@smtp.example.com:465',
      smtpTlsCa: null,
      mailFrom: 'Acme support <support@acme.example>',
      metricsToken: 'scrape-0123456789abcdef',
      metricsPublic: false,
      sqliteSynchronous: 'full',
      visitorIdleDays: 90,
      auditRetentionDays: 730,
      uploadQuotaBytes: 5 * 1024 * 1024,
      uploadQuotaVisitorBytes: 2 * 1024 * 1024,
      uploadQuotaChannelBytes: 4 * 1024 * 1024,
      backupDir: '/var/backups/parley',
      backupIntervalHours: 6,
      backupKeep: 14,
    });
  });

  it('derives the default PUBLIC_URL from PORT and strips trailing slashes', () => {
    expect(loadConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080//' }).publicUrl).toBe('http://10.0.0.5:8080');
  });

  it.each([
    ['OUTBOUND_ALLOW_PRIVATE', '1', true],
    ['OUTBOUND_ALLOW_PRIVATE', 'true', true],
    ['OUTBOUND_ALLOW_PRIVATE', '0', false],
    ['OUTBOUND_ALLOW_PRIVATE', 'false', false],
  ])('%s=%s → %s', (key, value, expected) => {
    expect(loadConfig({ [key]: value }).outboundAllowPrivate).toBe(expected);
  });

  it('accepts postgresql:// and rediss:// and port 0 (any free port)', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://x@h/db' }).databaseUrl).toBe('postgresql://x@h/db');
    expect(loadConfig({ REDIS_URL: 'rediss://h:6380' }).redisUrl).toBe('rediss://h:6380');
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it.each(['0', 'false', 'off', 'none', 'OFF'])('TRUST_PROXY=%s trusts no proxy', (value) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual([]);
  });

  it('accepts single addresses and CIDR ranges of both families in TRUST_PROXY', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '::1,0.0.0.0/0,::/0,172.16.0.0/12' }).trustProxy).toEqual(['::1', '0.0.0.0/0', '::/0', '172.16.0.0/12']);
  });

  it('names every TRUST_PROXY entry it does not understand', () => {
    const problems = problemsOf({ TRUST_PROXY: '10.0.0.1,loopback,10.0.0.0/33' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"loopback", "10.0.0.0/33"');
  });

  it('refuses a headers timeout longer than the request timeout', () => {
    const problems = problemsOf({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' });
    expect(problems).toEqual([expect.stringMatching(/^HEADERS_TIMEOUT_MS \(20000\) must not be longer than REQUEST_TIMEOUT_MS \(15000\)/)]);
  });

  it('reads the certificates of SMTP_TLS_CA_FILE', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-ca-'));
    try {
      const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
      fs.writeFileSync(path.join(dir, 'ca.pem'), pem);
      expect(loadConfig({ SMTP_TLS_CA_FILE: path.join(dir, 'ca.pem') }).smtpTlsCa).toBe(pem);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to serve /metrics openly beyond loopback: METRICS_TOKEN, or METRICS_PUBLIC=1 on purpose', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'fd00::1', 'chat.internal']) {
      const problems = problemsOf({ HOST: host });
      expect(problems, host).toHaveLength(1);
      expect(problems[0]).toMatch(/^METRICS_TOKEN must be set when HOST is not a loopback address/);
      expect(problems[0]).toContain('e.g. METRICS_TOKEN=');
      expect(problems[0]).toContain('METRICS_PUBLIC=1');
      expect(loadConfig({ HOST: host, METRICS_TOKEN: 'scrape-0123456789abcdef' }).metricsToken).toBe('scrape-0123456789abcdef');
      expect(loadConfig({ HOST: host, METRICS_PUBLIC: '1' })).toMatchObject({ metricsToken: null, metricsPublic: true });
    }
    // Loopback (the default HOST) starts as before, without either.
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) {
      expect(problemsOf({ HOST: host }), host).toEqual([]);
    }
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', metricsToken: null, metricsPublic: false });
  });

  it('accepts RETENTION_DAYS=0 (keep forever)', () => {
    expect(loadConfig({ RETENTION_DAYS: '0' }).retentionDays).toBe(0);
  });

  it('accepts 0 (no limit) for the database timeouts', () => {
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '0', DB_CONNECT_TIMEOUT_MS: '0' })).toMatchObject({ dbStatementTimeoutMs: 0, dbConnectTimeoutMs: 0 });
  });

  // Every variable that is validated, with a value it refuses.
  const invalid: Array<[string, string]> = [
    ['PORT', 'eighty'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['HOST', 'not a host'],
    ['PUBLIC_URL', 'chat.example.com'],
    ['PUBLIC_URL', 'ftp://chat.example.com'],
    ['PUBLIC_URL', 'https://chat.example.com/?x=1'],
    ['DATABASE_URL', 'mysql://root@localhost/parley'],
    ['DATABASE_SCHEMA', 'Bad-Schema'],
    ['REDIS_URL', 'localhost:6379'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['ADMIN_PASSWORD', 'short'],
    ['SMTP_URL', 'http://smtp.example.com'],
    ['SMTP_URL', 'smtp.example.com:25'],
    ['MAIL_FROM', 'support'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has a space in it 0123456789'],
    ['METRICS_PUBLIC', 'yes'],
    ['SQLITE_SYNCHRONOUS', 'off'],
    ['VISITOR_IDLE_DAYS', '36501'],
    ['VISITOR_IDLE_DAYS', '30d'],
    ['AUDIT_RETENTION_DAYS', '-1'],
    ['BACKUP_INTERVAL_HOURS', '0'],
    ['BACKUP_INTERVAL_HOURS', '1d'],
    ['BACKUP_INTERVAL_HOURS', '8761'],
    ['BACKUP_KEEP', '0'],
    ['BACKUP_KEEP', 'all'],
    ['MAIL_FROM', 'Support <support@acme.example'],
    ['OUTBOUND_ALLOW_PRIVATE', 'yes'],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_FORMAT', 'text'],
    ['TOKEN_TTL_SECONDS', '59'],
    ['TOKEN_TTL_SECONDS', '1h'],
    ['TOKEN_TTL_SECONDS', '99999999999'],
    ['PRESENCE_GRACE_SECONDS', '0'],
    ['PRESENCE_GRACE_SECONDS', '86401'],
    ['PRESENCE_GRACE_SECONDS', 'soon'],
    ['RETENTION_DAYS', '30d'],
    ['RETENTION_DAYS', '36501'],
    ['RETENTION_INTERVAL_SECONDS', '0'],
    ['RETENTION_INTERVAL_SECONDS', '86401'],
    ['DB_STATEMENT_TIMEOUT_MS', '10s'],
    ['DB_STATEMENT_TIMEOUT_MS', '-1'],
    ['DB_STATEMENT_TIMEOUT_MS', '3600001'],
    ['DB_CONNECT_TIMEOUT_MS', '5s'],
    ['DB_CONNECT_TIMEOUT_MS', '600001'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '10.0.0.0/8,,10.1.0.0/16'],
    ['TRUST_PROXY', '10.0.0.300'],
    ['TRUST_PROXY', 'fd00::/129'],
    ['TRUST_PROXY', 'proxy.example.com'],
    ['HEADERS_TIMEOUT_MS', '999'],
    ['HEADERS_TIMEOUT_MS', '10s'],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['REQUEST_TIMEOUT_MS', '3600001'],
    ['IDLE_TIMEOUT_MS', '0'],
    ['IDLE_TIMEOUT_MS', 'never'],
    ['WS_MAX_PER_ADDRESS', '0'],
    ['WS_MAX_PER_ADDRESS', 'many'],
    ['WS_MAX_PER_VISITOR', '0'],
    ['WS_MAX_PER_VISITOR', '10001'],
    ['WS_MAX_PER_AGENT_TOKEN', '0'],
    ['WS_MAX_PER_AGENT_TOKEN', '-3'],
    ['SMTP_TLS_CA_FILE', '/nonexistent/parley-mail-ca.pem'],
    ['SMTP_TLS_CA_FILE', '/dev/null'],
  ];

  it.each(invalid)('refuses %s=%s with one problem naming the variable and an example', (key, value) => {
    const problems = problemsOf({ [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${key} must `));
    expect(problems[0]).toContain(`e.g. ${key}=`);
  });

  it('lists every problem at once, in one readable message', () => {
    const env = Object.fromEntries(invalid.map(([k, v]) => [k, v]));
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    const keys = new Set(invalid.map(([k]) => k));
    expect(problems).toHaveLength(keys.size);
    for (const key of keys) {
      expect(problems.some((p) => p.startsWith(`${key} must `))).toBe(true);
      expect(message).toContain(`  - ${key} must `);
    }
    expect(message.startsWith('Invalid configuration:\n')).toBe(true);
  });

  it('never echoes secrets in its problems', () => {
    const [dbProblem] = problemsOf({ DATABASE_URL: 'mysql://root:hunter22@localhost/parley' });
    expect(dbProblem).not.toContain('hunter22');
    expect(dbProblem).toContain('root:***@');
    const [redisProblem] = problemsOf({ REDIS_URL: 'http://user:topsecret@cache:6379' });
    expect(redisProblem).not.toContain('topsecret');
    const [passwordProblem] = problemsOf({ ADMIN_PASSWORD: 'hunter2' });
    expect(passwordProblem).not.toContain('hunter2');
  });

  it('returns a frozen object', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reads process.env by default', () => {
    expect(loadConfig().port).toBe(loadConfig({ ...process.env }).port);
  });
});

describe('config is the only reader of process.env', () => {
  const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

  function sources(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(full);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
    });
  }

  it('no other server module touches process.env', () => {
    const offenders = sources(serverDir)
      .filter((file) => path.basename(file) !== 'config.ts')
      .filter((file) => /process\.env\b/.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(serverDir, file));
    expect(offenders, 'read the variable in server/config/config.ts and pass it through Config').toEqual([]);
  });
});
