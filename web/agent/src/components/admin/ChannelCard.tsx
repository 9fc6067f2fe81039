/** One channel as admins see it: its URLs or install snippet with copy buttons, its agents, the widget's identity secret, and change/rotate/remove. */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { useAgents } from '../../context';
import { t } from '../../i18n';
import type { ChannelDto } from '../../../../../protocol/agent';
import { ChannelForm } from './ChannelForm';
import { ConfirmButton } from './ConfirmButton';
import { CopyField } from './CopyField';
import { ErrorText } from './ErrorText';
import { IdentitySecret } from './IdentitySecret';

export function ChannelCard({ channel, onChanged, onRemoved }: { channel: ChannelDto; onChanged: (c: ChannelDto) => void; onRemoved: () => void }) {
  const { agents } = useAgents();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const who =
    channel.agent_ids.length === 0 ? t('admin.channel.everyAgent') : channel.agent_ids.map((id) => agents[id]?.name ?? `#${id}`).join(t('admin.listSeparator'));

  const run = async (fn: () => Promise<ChannelDto | void>) => {
    setError(null);
    try {
      const changed = await fn();
      if (changed) onChanged(changed);
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (editing) {
    return (
      <li className="channel">
        <ChannelForm
          type={channel.type}
          initial={channel}
          onSaved={(c) => {
            onChanged(c);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }

  return (
    <li className="card channel" data-channel-id={channel.id}>
      <h2 className="card-title">
        {channel.name} <span className="pill">{channel.type === 'chat_api' ? t('admin.channel.chatApi') : t('admin.channel.widget')}</span>
      </h2>
      {channel.type === 'chat_api' ? (
        <>
          <CopyField label={t('admin.channel.endpointUrl')} value={channel.endpoint_url} />
          <CopyField label={t('admin.channel.statusUrl')} value={channel.status_url} />
          <dl className="fields">
            <dt>{t('admin.channel.channelId')}</dt>
            <dd>{channel.public_id}</dd>
            <dt>{t('admin.channel.webhookUrl')}</dt>
            <dd className="break">{channel.webhook_url ?? t('admin.channel.noWebhook')}</dd>
            <dt>{t('admin.channel.chunked')}</dt>
            <dd>{channel.chunked ? t('admin.channel.on') : t('admin.channel.off')}</dd>
            <dt>{t('admin.channel.agents')}</dt>
            <dd>{who}</dd>
          </dl>
        </>
      ) : (
        <>
          <CopyField label={t('admin.channel.installSnippet')} value={channel.install_snippet} multiline />
          <dl className="fields">
            <dt>{t('admin.channel.widgetId')}</dt>
            <dd>{channel.widget_id}</dd>
            <dt>{t('admin.channel.colour')}</dt>
            <dd>
              {channel.color ? (
                <>
                  <span className="swatch" data-color={channel.color} ref={(el) => el?.style.setProperty('background', channel.color)} aria-hidden="true" />{' '}
                  {channel.color}
                </>
              ) : (
                t('admin.channel.defaultColour')
              )}
            </dd>
            <dt>{t('admin.channel.allowedDomains')}</dt>
            <dd>{channel.allowed_domains.length > 0 ? channel.allowed_domains.join(t('admin.listSeparator')) : t('admin.channel.anyDomain')}</dd>
            <dt>{t('admin.channel.launcher')}</dt>
            <dd>{channel.hide_launcher ? t('admin.channel.launcherHidden') : t('admin.channel.launcherShown')}</dd>
            <dt>{t('admin.channel.appearance')}</dt>
            <dd>
              {[
                channel.appearance.title ?? t('admin.channel.defaultTitle'),
                channel.appearance.launcher === 'button' ? t('admin.channel.roundButton') : t('admin.channel.buttonWithText'),
                channel.appearance.position === 'left' ? t('admin.channel.bottomLeft') : t('admin.channel.bottomRight'),
                channel.appearance.language === 'auto'
                  ? t('admin.channel.browserLanguage')
                  : t('admin.channel.language', { language: channel.appearance.language }),
              ].join(t('admin.listSeparator'))}
            </dd>
            <dt>{t('admin.channel.status')}</dt>
            <dd>{channel.enabled ? t('admin.channel.on') : t('admin.channel.disabled')}</dd>
            <dt>{t('admin.channel.agents')}</dt>
            <dd>{who}</dd>
          </dl>
          <IdentitySecret channel={channel} run={(fn) => void run(fn)} />
        </>
      )}
      <div className="row">
        <button type="button" onClick={() => setEditing(true)}>
          {t('admin.channel.change')}
        </button>
        {channel.type === 'chat_api' && (
          <ConfirmButton
            label={t('admin.channel.newSecret')}
            question={t('admin.channel.newSecretQuestion')}
            onConfirm={() => run(async () => onChanged(await api.updateChannel(channel.id, { rotate_secret: true })))}
          />
        )}
        <ConfirmButton
          label={t('common.remove')}
          question={t('admin.channel.removeQuestion', { name: channel.name })}
          onConfirm={() =>
            run(async () => {
              await api.deleteChannel(channel.id);
              onRemoved();
            })
          }
        />
      </div>
      <ErrorText error={error} />
    </li>
  );
}
