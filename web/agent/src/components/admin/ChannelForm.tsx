/**
 * Add or change a channel. Chat API (spec: Connect chat API): name, webhook
 * server URL, chunked encoding, agents. Widget: name, colour, allowed domains,
 * the default launcher shown or hidden (the page's own button), on or off,
 * agents, and the appearance and language with a live preview (WidgetAppearance.tsx).
 */
import { useState, type FormEvent } from 'react';
import { api, type ChannelFields } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { t } from '../../i18n';
import type { ChannelDto } from '../../../../../protocol/agent';
import { AgentPicker } from './AgentPicker';
import { SaveResult } from './SaveResult';
import { DEFAULT_APPEARANCE } from '../../../../../protocol/widget';
import { WidgetAppearanceFields } from './WidgetAppearance';
import { ContrastWarning } from './ContrastWarning';
import { fillIn } from './fillIn';

/** Examples and code shown as they are, the same in every language. */
const DOMAINS_EXAMPLE = 'example.com\n*.example.com';
const OPEN_CALL = 'svc_api.open()';
const WIDGET_SELECTOR = '#svc_chat_widget';

interface Props {
  type: ChannelDto['type'];
  initial?: ChannelDto;
  onSaved: (channel: ChannelDto) => void;
  onCancel?: () => void;
}

export function ChannelForm({ type, initial, onSaved, onCancel }: Props) {
  const [name, setName] = useState(initial?.name ?? '');
  const [webhookUrl, setWebhookUrl] = useState(initial?.type === 'chat_api' ? (initial.webhook_url ?? '') : '');
  const [chunked, setChunked] = useState(initial?.type === 'chat_api' ? initial.chunked : false);
  const [color, setColor] = useState(initial?.type === 'widget' ? (initial.color ?? '#2f6fed') : '#2f6fed');
  const [domains, setDomains] = useState(initial?.type === 'widget' ? initial.allowed_domains.join('\n') : '');
  const [hideLauncher, setHideLauncher] = useState(initial?.type === 'widget' ? initial.hide_launcher : false);
  const [enabled, setEnabled] = useState(initial?.type === 'widget' ? initial.enabled : true);
  const [appearance, setAppearance] = useState(initial?.type === 'widget' ? initial.appearance : DEFAULT_APPEARANCE);
  const [agentIds, setAgentIds] = useState<number[]>(initial?.agent_ids ?? []);
  const saver = useSaver();
  const prefix = `${type}-${initial?.id ?? 'new'}`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields: ChannelFields =
      type === 'chat_api'
        ? { name, webhook_url: webhookUrl.trim() || null, chunked, agent_ids: agentIds }
        : { name, color, allowed_domains: domains.split(/[\s,]+/).filter(Boolean), hide_launcher: hideLauncher, enabled, agent_ids: agentIds, appearance };
    void saver.run(async () => {
      onSaved(initial ? await api.updateChannel(initial.id, fields) : await api.createChannel({ ...fields, type, name }));
      if (!initial) {
        setName('');
        setWebhookUrl('');
        setDomains('');
        setHideLauncher(false);
        setEnabled(true);
        setAgentIds([]);
      }
    });
  };

  return (
    <form
      className="card form-grid"
      onSubmit={submit}
      aria-label={
        initial
          ? t('admin.channelForm.changeLabel', { name: initial.name })
          : type === 'chat_api'
            ? t('admin.channels.connect')
            : t('admin.channelForm.addLabel')
      }
    >
      <label htmlFor={`${prefix}-name`}>{t('admin.channelForm.name')}</label>
      <input id={`${prefix}-name`} name="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      {type === 'chat_api' ? (
        <>
          <label htmlFor={`${prefix}-webhook`}>{t('admin.channel.webhookUrl')}</label>
          <input
            id={`${prefix}-webhook`}
            name="webhook_url"
            type="url"
            placeholder="https://your-system.example.com/parley"
            value={webhookUrl}
            onChange={(e) => setWebhookUrl(e.target.value)}
          />
          <p className="muted small">{t('admin.channelForm.webhookHint')}</p>
          <label className="check">
            <input type="checkbox" name="chunked" checked={chunked} onChange={(e) => setChunked(e.target.checked)} />
            {t('admin.channelForm.chunked')}
          </label>
        </>
      ) : (
        <>
          <label htmlFor={`${prefix}-color`}>{t('admin.channel.colour')}</label>
          <input
            id={`${prefix}-color`}
            name="color"
            type="color"
            value={color}
            aria-describedby={`${prefix}-color-contrast`}
            onChange={(e) => setColor(e.target.value)}
          />
          <ContrastWarning id={`${prefix}-color-contrast`} color={color} />
          <label htmlFor={`${prefix}-domains`}>{t('admin.channelForm.domains')}</label>
          <textarea
            id={`${prefix}-domains`}
            name="allowed_domains"
            rows={3}
            placeholder={DOMAINS_EXAMPLE}
            value={domains}
            onChange={(e) => setDomains(e.target.value)}
          />
          <label className="check">
            <input type="checkbox" name="hide_launcher" checked={hideLauncher} onChange={(e) => setHideLauncher(e.target.checked)} />
            {t('admin.channelForm.hideLauncher')}
          </label>
          <p className="muted small">
            {fillIn(t('admin.channelForm.hideLauncherHint'), { open: <code dir="ltr">{OPEN_CALL}</code>, selector: <code dir="ltr">{WIDGET_SELECTOR}</code> })}
          </p>
          <label className="check">
            <input type="checkbox" name="enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            {t('admin.channelForm.enabled')}
          </label>
          <p className="muted small">{t('admin.channelForm.enabledHint')}</p>
          <WidgetAppearanceFields prefix={prefix} value={appearance} color={color} onChange={setAppearance} />
        </>
      )}
      <AgentPicker value={agentIds} onChange={setAgentIds} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {initial ? t('common.save') : type === 'chat_api' ? t('admin.channels.connect') : t('admin.channelForm.addWidget')}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )}
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
