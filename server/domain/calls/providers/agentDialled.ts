/**
 * The built-in provider: nothing external happens. The call.updated event of
 * the new call rings the agents in the agent app; an agent dials the visitor
 * with their own phone and reports agent_connected, client_connected, end or
 * error through POST /api/v1/calls/:id/status.
 */
import type { CallProvider } from './provider.js';

export const agentDialled: CallProvider = {
  name: 'agent_dialled',
  async startCall(): Promise<void> {
    // The agent app is the dialler: the committed call.updated event already reached it.
  },
};
