/**
 * Identity verification of a widget channel: off, or the secret customers
 * sign user tokens with (copyable), how to use it, rotation and turning it
 * off — all through PATCH /channels/:id (identity_verification,
 * rotate_identity_secret).
 */
import { api } from '../../api';
import type { WidgetChannel } from '../../types';
import { ConfirmButton } from './ConfirmButton';
import { CopyField } from './CopyField';

export function IdentitySecret({ channel, run }: { channel: WidgetChannel; run: (fn: () => Promise<WidgetChannel | void>) => void }) {
  const change = (fields: { identity_verification?: boolean; rotate_identity_secret?: boolean }) => () =>
    run(async () => (await api.updateChannel(channel.id, fields)) as WidgetChannel);

  if (!channel.identity_secret) {
    return (
      <section className="identity" aria-label="Identity verification">
        <h3 className="subhead">Identity verification</h3>
        <p className="muted small">Off: any page can set any user token with svc_api.setUserToken(token).</p>
        <button type="button" onClick={change({ identity_verification: true })}>
          Turn on identity verification
        </button>
      </section>
    );
  }
  return (
    <section className="identity" aria-label="Identity verification">
      <h3 className="subhead">Identity verification</h3>
      <CopyField label="Identity secret" value={channel.identity_secret} />
      <p className="muted small">
        On your server, sign the user token with HMAC-SHA256 using this secret (as text) as the key, and pass the hex signature as the second argument:{' '}
        <code>svc_api.setUserToken(token, signature)</code>. Tokens without a valid signature are ignored.
      </p>
      <div className="row">
        <ConfirmButton
          label="New identity secret"
          question="Signatures made with the current secret stop working. Go on?"
          onConfirm={change({ rotate_identity_secret: true })}
        />
        <ConfirmButton
          label="Turn off identity verification"
          question="Pages may then set any user token. Turn it off?"
          onConfirm={change({ identity_verification: false })}
        />
      </div>
    </section>
  );
}
