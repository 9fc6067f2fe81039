/** One channel as admins see it: its URLs or install snippet with copy buttons, its agents, the widget's identity secret, and change/rotate/remove. */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { useApp } from '../../context';
import type { Channel } from '../../types';
import { ChannelForm } from './ChannelForm';
import { ConfirmButton } from './ConfirmButton';
import { CopyField } from './CopyField';
import { ErrorText } from './ErrorText';
import { IdentitySecret } from './IdentitySecret';

export function ChannelCard({ channel, onChanged, onRemoved }: { channel: Channel; onChanged: (c: Channel) => void; onRemoved: () => void }) {
  const { agents } = useApp();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const who = channel.agent_ids.length === 0 ? 'Every agent' : channel.agent_ids.map((id) => agents[id]?.name ?? `#${id}`).join(', ');

  const run = async (fn: () => Promise<Channel | void>) => {
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
        {channel.name} <span className="pill">{channel.type === 'chat_api' ? 'Chat API' : 'Widget'}</span>
      </h2>
      {channel.type === 'chat_api' ? (
        <>
          <CopyField label="Endpoint URL" value={channel.endpoint_url} />
          <CopyField label="Status URL" value={channel.status_url} />
          <dl className="fields">
            <dt>Channel id</dt>
            <dd>{channel.public_id}</dd>
            <dt>Webhook server URL</dt>
            <dd className="break">{channel.webhook_url ?? '— (replies are not delivered)'}</dd>
            <dt>Chunked</dt>
            <dd>{channel.chunked ? 'on' : 'off'}</dd>
            <dt>Agents</dt>
            <dd>{who}</dd>
          </dl>
        </>
      ) : (
        <>
          <CopyField label="Install snippet" value={channel.install_snippet} multiline />
          <dl className="fields">
            <dt>Widget id</dt>
            <dd>{channel.widget_id}</dd>
            <dt>Colour</dt>
            <dd>
              {channel.color ? (
                <>
                  <span className="swatch" data-color={channel.color} ref={(el) => el?.style.setProperty('background', channel.color)} aria-hidden="true" />{' '}
                  {channel.color}
                </>
              ) : (
                'default'
              )}
            </dd>
            <dt>Allowed domains</dt>
            <dd>{channel.allowed_domains.length > 0 ? channel.allowed_domains.join(', ') : 'any'}</dd>
            <dt>Launcher</dt>
            <dd>{channel.hide_launcher ? "hidden (the site's own button opens the chat)" : 'shown'}</dd>
            <dt>Appearance</dt>
            <dd>
              {[
                channel.appearance.title ?? 'default title',
                channel.appearance.launcher === 'button' ? 'round button' : 'button with text',
                `bottom ${channel.appearance.position}`,
                channel.appearance.language === 'auto' ? "the browser's language" : `language ${channel.appearance.language}`,
              ].join(', ')}
            </dd>
            <dt>Status</dt>
            <dd>{channel.enabled ? 'on' : 'off: pages including it show nothing'}</dd>
            <dt>Agents</dt>
            <dd>{who}</dd>
          </dl>
          <IdentitySecret channel={channel} run={(fn) => void run(fn)} />
        </>
      )}
      <div className="row">
        <button type="button" onClick={() => setEditing(true)}>
          Change
        </button>
        {channel.type === 'chat_api' && (
          <ConfirmButton
            label="New endpoint secret"
            question="The current endpoint URL stops working. Go on?"
            onConfirm={() => run(async () => onChanged(await api.updateChannel(channel.id, { rotate_secret: true })))}
          />
        )}
        <ConfirmButton
          label="Remove"
          question={`Remove ${channel.name}?`}
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
