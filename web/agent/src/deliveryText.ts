/**
 * The words of a failed chat-channel delivery under an agent's message. The
 * server's own sentences already start with "Not delivered:" (webhooks/
 * outcomes.ts), while a customer endpoint's refusal is its own message as it
 * sent it (docs/CHAT-CHANNEL.md): the line says "Not delivered" once either way.
 * The server's sentences (outcomes.ts writes English) are said in the agent's
 * language, their figures and technical details kept (in English, as the
 * server wrote them); an endpoint's own words stay as it wrote them.
 */
import { language, t } from './i18n';
import type { TextKey } from './i18n/en';

const LEAD = /^\s*not delivered\s*[:.]?\s*/i;

/** The sentences of server/webhooks/outcomes.ts (after "Not delivered:"), each with its words in the catalogues. */
const SENTENCES: ReadonlyArray<readonly [RegExp, TextKey, (m: RegExpExecArray) => Record<string, string | number>]> = [
  [/^the customer endpoint did not answer in time \(the delivery deadline passed\)\.$/, 'workspace.delivery.deadline', () => ({})],
  [/^the customer endpoint did not answer \(timeout after (\d+) attempts?\)\.$/, 'workspace.delivery.timeout', (m) => ({ count: Number(m[1]) })],
  [/^the customer endpoint answered (.+) \(after (\d+) attempts?\)\.$/, 'workspace.delivery.answered', (m) => ({ status: m[1], count: Number(m[2]) })],
  [
    /^the customer endpoint could not be reached \((.+), after (\d+) attempts?\)\.$/,
    'workspace.delivery.unreachable',
    (m) => ({ detail: m[1], count: Number(m[2]) }),
  ],
  [/^the customer endpoint's answer was not understood \((.+)\)\.$/, 'workspace.delivery.notUnderstood', (m) => ({ detail: m[1] })],
  [
    /^the customer endpoint did not answer in time \((\d+) attempts?, last: (.+)\)\.$/,
    'workspace.delivery.late',
    (m) => ({ count: Number(m[1]), detail: m[2] }),
  ],
];

export function deliveryFailureText(error: string | null | undefined): string {
  const reason = (error ?? '').replace(LEAD, '').trim();
  // In English the server's sentence as it wrote it (its plurals too); in another language the catalogue's.
  for (const [pattern, key, vars] of language() === 'en' ? [] : SENTENCES) {
    const m = pattern.exec(reason);
    if (m) return t(key, vars(m));
  }
  return reason ? t('workspace.delivery.failedBecause', { reason }) : t('workspace.delivery.failed');
}
