/**
 * Process entry: config → app → listen → first account → GeoIP read in the background → drain on SIGTERM/SIGINT.
 * The first account (and its administrator's generated password, printed
 * once) is created only once the port is bound: a start that fails, on a busy
 * port say, leaves nothing behind, and the next start creates it.
 * Draining: stop accepting, let in-flight requests finish (their connections
 * are closed as soon as they turn idle), stop the workers, close the store,
 * exit 0. A second signal while draining is ignored; a hard limit makes the
 * process exit within 10 s whatever happens.
 */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { StoreStartError } from './db/startErrors.js';
import { warmGeoip } from './lib/geoip.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }

  const app = await buildApp({ config, bootstrap: 'later' });
  await app.listen({ port: config.port, host: config.host });
  const first = await app.createFirstAccount();
  if (first.generatedPassword) {
    // Printed once, at the first start only.
    process.stdout.write(
      `\nParley: first start. Administrator account created:\n  e-mail:   ${first.adminEmail}\n  password: ${first.generatedPassword}\nSign in at ${config.publicUrl}: the first sign-in asks for your own e-mail, your company's name and a new password.\n\n`,
    );
  }
  if (config.smtpUrl === null) {
    app.log.info('mail is not being sent: SMTP_URL is not set, so mails are kept and shown on the admin Mail page (/admin/mail)');
  }

  warmGeoip((err) => app.log.warn({ err }, 'GeoIP database unavailable'));

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const hardLimit = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 9000);
    hardLimit.unref();
    // A keep-alive connection whose request finishes during the drain would
    // otherwise hold the server open until its keep-alive timeout (5 s).
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  // A problem of the host (a read-only or full DATA_DIR) says what to do in one line; anything else is a bug: its stack.
  const told = err instanceof StoreStartError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`Parley failed to start: ${told}\n`);
  process.exit(1);
});
