/**
 * The one runner of the effects applyFrame (frames.ts) returns: alerts and
 * ringing (alerts.ts), navigation, the API calls, and what the provider does
 * with the rest (announcements, the agents, the lists, the live lists).
 */
import { alertOf, isMine, isRinging, ringFor, stopRinging } from './alerts';
import { api } from './api';
import type { FrameEffect, LiveItem } from './frames';
import type { InboxAction } from './inbox';
import { navigate } from './router';
import type { AgentDto } from '../../../protocol/agent';

export interface EffectPorts {
  dispatch: (action: InboxAction) => void;
  announce: (text: string) => void;
  agentChanged: (agent: AgentDto) => void;
  channelsChanged: () => void;
  publish: (live: LiveItem) => void;
}

export function runEffects(effects: readonly FrameEffect[], ports: EffectPorts): void {
  for (const effect of effects) {
    switch (effect.type) {
      case 'announce':
        ports.announce(effect.text);
        break;
      case 'ring':
        ringFor(effect.chatId, effect.title, effect.body, () => navigate(effect.to));
        break;
      case 'stopRinging':
        stopRinging(effect.chatId);
        break;
      case 'alert':
        // A message of a chat that is not this agent's, or of one ringing already (its ring says enough): no alert.
        if (effect.mineOnly !== undefined && (!isMine(effect.mineOnly) || isRinging(effect.mineOnly))) break;
        alertOf(effect.event, effect.title, effect.body, effect.tag, () => navigate(effect.to));
        break;
      case 'navigate':
        navigate(effect.to);
        break;
      case 'fetchChat':
        api.chat(effect.chatId).then(
          (chat) => ports.dispatch({ type: 'chat', chat }),
          () => {},
        );
        break;
      case 'markRead':
        api.read(effect.chatId, effect.messageId).catch(() => {});
        break;
      case 'agentChanged':
        ports.agentChanged(effect.agent);
        break;
      case 'channelsChanged':
        ports.channelsChanged();
        break;
      case 'live':
        ports.publish(effect.live);
        break;
    }
  }
}
