/** The delivery of an agent message to the customer's endpoint: sending, delivered, or failed with the reason. */
import { deliveryFailureText } from '../deliveryText';
import { t } from '../i18n';
import type { MessageDto } from '../../../../protocol/agent';

export function DeliveryStatus({ delivery }: { delivery: NonNullable<MessageDto['delivery']> }) {
  if (delivery.status === 'failed') {
    return (
      <p className="delivery delivery-failed" data-delivery="failed">
        <span aria-hidden="true">⚠ </span>
        {deliveryFailureText(delivery.error)}
      </p>
    );
  }
  if (delivery.status === 'delivered') {
    return (
      <p className="delivery delivery-delivered" data-delivery="delivered">
        <span aria-hidden="true">✓ </span>
        {t('workspace.delivery.delivered')}
      </p>
    );
  }
  return (
    <p className="delivery delivery-pending" data-delivery="pending">
      {t('workspace.delivery.sending')}
    </p>
  );
}
