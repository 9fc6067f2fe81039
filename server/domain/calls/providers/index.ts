/** The registry of call providers, by the name stored in settings callback.provider. */
import type { CallProviderName } from '../../settings/settingsRow.js';
import { agentDialled } from './agentDialled.js';
import type { CallProvider } from './provider.js';

const providers: Record<CallProviderName, CallProvider> = {
  agent_dialled: agentDialled,
};

/** The provider of that name; an unknown (stale) name falls back to agent_dialled. */
export function providerFor(name: string | null | undefined): CallProvider {
  return Object.hasOwn(providers, name ?? '') ? providers[name as CallProviderName] : agentDialled;
}
