/** The first-run guide as GET /me/guide shows it (protocol/agent.ts GuideDto): its steps in order, each ticked or not. */
import type { GuideDto } from '../../protocol/agent.js';

export function presentGuide(g: {
  steps: { channel: boolean; snippet: boolean; online: boolean };
  done: boolean;
  dismissed: boolean;
  show: boolean;
}): GuideDto {
  return {
    steps: [
      { id: 'channel', done: g.steps.channel },
      { id: 'snippet', done: g.steps.snippet },
      { id: 'online', done: g.steps.online },
    ],
    done: g.done,
    dismissed: g.dismissed,
    show: g.show,
  };
}
