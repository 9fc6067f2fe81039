/** Admin: channels — connect a chat API or add a website widget, and the list of existing ones. */
import { useState } from 'react';
import { api } from '../../api';
import { t } from '../../i18n';
import type { ChannelDto } from '../../../../../protocol/agent';
import { useList } from '../useList';
import { ChannelCard } from './ChannelCard';
import { ChannelForm } from './ChannelForm';
import { ErrorText } from './ErrorText';

export function Channels() {
  const list = useList<ChannelDto>(() => api.channels());
  const [adding, setAdding] = useState<ChannelDto['type'] | null>(null);

  return (
    <section className="page" aria-labelledby="channels-title">
      <h1 id="channels-title">{t('admin.channels.title')}</h1>
      <div className="row">
        <button type="button" aria-pressed={adding === 'chat_api'} onClick={() => setAdding(adding === 'chat_api' ? null : 'chat_api')}>
          {t('admin.channels.connect')}
        </button>
        <button type="button" aria-pressed={adding === 'widget'} onClick={() => setAdding(adding === 'widget' ? null : 'widget')}>
          {t('admin.channels.addWidget')}
        </button>
      </div>
      {adding && (
        <ChannelForm
          key={adding}
          type={adding}
          onSaved={(c) => {
            list.upsert(c);
            setAdding(null);
          }}
          onCancel={() => setAdding(null)}
        />
      )}
      <ErrorText error={list.error} />
      {list.items.length === 0 && !list.loading ? (
        <p className="muted">{t('admin.channels.empty')}</p>
      ) : (
        <ul className="cards">
          {list.items.map((c) => (
            <ChannelCard key={c.id} channel={c} onChanged={list.upsert} onRemoved={() => list.setItems((all) => all.filter((x) => x.id !== c.id))} />
          ))}
        </ul>
      )}
    </section>
  );
}
