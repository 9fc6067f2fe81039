/** Where the visitor writes: text (Enter sends), a file with its preview, typing notifications; the department to pick before the first message, when the widget asks for one. */
import { lang, t } from '../i18n';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { asksDepartment, type UiState } from '../state';
import type { Widget } from '../widget';
import { ClipIcon, SendIcon } from './icons';
import { fileSize } from './useWidget';

export function Composer({ w, s }: { w: Widget; s: UiState }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const preview = useMemo(() => (file && file.type.startsWith('image/') ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const asking = asksDepartment(s);
  const submit = (e: Event): void => {
    e.preventDefault();
    if (asking && s.departmentChoice === 'required' && s.department === null && (file || text.trim())) {
      w.set({ notice: t('pickDepartment') });
      return;
    }
    if (file) void w.sendFile(file);
    if (text.trim()) void w.sendText(text);
    setFile(null);
    setText('');
  };

  return (
    <form class="composer" onSubmit={submit}>
      {asking && (
        <label class="department">
          <span>{t('department')}</span>
          <select
            aria-label={t('department')}
            value={s.department === null ? '' : String(s.department)}
            onChange={(e) => {
              const v = e.currentTarget.value;
              w.set({ department: v === '' ? null : Number(v), notice: null });
            }}
          >
            <option value="" disabled={s.departmentChoice === 'required'}>
              {s.departmentChoice === 'required' ? t('chooseDepartment') : t('anyDepartment')}
            </option>
            {s.departments.map((d) => (
              <option key={d.id} value={String(d.id)}>
                {d.names[lang] ?? d.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {file && (
        <div class="preview">
          {preview ? <img src={preview} alt={t('previewOf', { name: file.name })} /> : <span class="file">{file.name}</span>}
          <span>{fileSize(file.size)}</span>
          <button type="button" class="link" onClick={() => setFile(null)}>
            {t('remove')}
          </button>
        </div>
      )}
      {s.notice && (
        <p class="notice" role="alert">
          {s.notice}
        </p>
      )}
      <div class="row">
        <label class="icon" title={t('attach')}>
          <input
            type="file"
            class="sr"
            aria-label={t('attach')}
            onChange={(e) => {
              const input = e.currentTarget;
              const f = input.files?.[0];
              input.value = '';
              if (f && !w.fileTooBig(f)) setFile(f);
            }}
          />
          <ClipIcon />
        </label>
        <textarea
          aria-label={t('message')}
          placeholder={t('typeHere')}
          rows={1}
          maxLength={1000}
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            w.typing();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) submit(e);
          }}
        />
        <button type="submit" class="icon send" aria-label={t('send')}>
          <SendIcon />
        </button>
      </div>
    </form>
  );
}
