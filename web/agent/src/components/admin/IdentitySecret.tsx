/**
 * Identity verification of a widget channel: off, or the secret customers
 * sign user tokens with (copyable), how to use it, rotation and turning it
 * off — all through PATCH /channels/:id (identity_verification,
 * rotate_identity_secret).
 */
import { api } from '../../api';
import { t } from '../../i18n';
import type { WidgetChannelDto } from '../../../../../protocol/agent';
import { ConfirmButton } from './ConfirmButton';
import { CopyField } from './CopyField';
import { fillIn } from './fillIn';

/** The call a page makes with a signed token: code, the same in every language. */
const SIGNED_CALL = 'svc_api.setUserToken(token, signature)';

export function IdentitySecret({ channel, run }: { channel: WidgetChannelDto; run: (fn: () => Promise<WidgetChannelDto | void>) => void }) {
  const change = (fields: { identity_verification?: boolean; rotate_identity_secret?: boolean }) => () =>
    run(async () => (await api.updateChannel(channel.id, fields)) as WidgetChannelDto);

  if (!channel.identity_secret) {
    return (
      <section className="identity" aria-label={t('admin.identity.title')}>
        <h3 className="subhead">{t('admin.identity.title')}</h3>
        <p className="muted small">{t('admin.identity.off')}</p>
        <button type="button" onClick={change({ identity_verification: true })}>
          {t('admin.identity.turnOn')}
        </button>
      </section>
    );
  }
  return (
    <section className="identity" aria-label={t('admin.identity.title')}>
      <h3 className="subhead">{t('admin.identity.title')}</h3>
      <CopyField label={t('admin.identity.secret')} value={channel.identity_secret} />
      <p className="muted small">{fillIn(t('admin.identity.how'), { call: <code dir="ltr">{SIGNED_CALL}</code> })}</p>
      <div className="row">
        <ConfirmButton
          label={t('admin.identity.newSecret')}
          question={t('admin.identity.newSecretQuestion')}
          onConfirm={change({ rotate_identity_secret: true })}
        />
        <ConfirmButton
          label={t('admin.identity.turnOff')}
          question={t('admin.identity.turnOffQuestion')}
          onConfirm={change({ identity_verification: false })}
        />
      </div>
    </section>
  );
}
