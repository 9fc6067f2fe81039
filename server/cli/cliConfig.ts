/** The configuration of a command run beside the service (npm run backup, restore, reset-admin): the same environment, or exit 2 with every problem listed. */
import { ConfigError, loadConfig, type Config } from '../config/config.js';

export function cliConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}
