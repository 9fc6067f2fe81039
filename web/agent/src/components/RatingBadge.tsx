/** The visitor's rating of a chat (positive or negative), or nothing when it has none; it follows the chat live (chat.updated, change rated). */
import { t } from '../i18n';
import type { ChatDto } from '../../../../protocol/agent';

const LABEL = { positive: 'workspace.rating.good', negative: 'workspace.rating.bad' } as const;

export function RatingBadge({ rate }: { rate: ChatDto['rate'] }) {
  if (rate !== 'positive' && rate !== 'negative') return null;
  return (
    <span className={`pill rating rating-${rate}`} data-rating={rate}>
      {t(LABEL[rate])}
    </span>
  );
}
