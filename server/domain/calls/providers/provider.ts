/**
 * Who places a callback call. requestCallback stores the call (status start)
 * and, once committed, hands it to the account's provider; statuses come back
 * through updateCallStatus (POST /api/v1/calls/:id/status). A provider that
 * fails to start the call makes it end with status error.
 */
import type { Call } from '../../../db/schema.js';
import type { CallProviderName } from '../../settings/settingsRow.js';

export interface CallProvider {
  readonly name: CallProviderName;
  /** Begins placing the call; throwing ends the call with status error. */
  startCall(call: Call): Promise<void>;
  /** The call was ended from the service's side (an agent posted end or error) before the provider finished. */
  cancel?(call: Call): Promise<void>;
}
