/**
 * The words of a failed chat-channel delivery under an agent's message. The
 * server's own sentences already start with "Not delivered:" (webhooks/
 * outcomes.ts), while a customer endpoint's refusal is its own message as it
 * sent it (docs/CHAT-CHANNEL.md): the line says "Not delivered" once either way.
 */
import { t } from './i18n';

const LEAD = /^\s*not delivered\s*[:.]?\s*/i;

export function deliveryFailureText(error: string | null | undefined): string {
  const reason = (error ?? '').replace(LEAD, '').trim();
  return reason ? t('workspace.delivery.failedBecause', { reason }) : t('workspace.delivery.failed');
}
