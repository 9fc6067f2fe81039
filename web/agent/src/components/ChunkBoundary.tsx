/** Catches a screen that fails to load or render (e.g. its chunk is gone after an upgrade) and says what to do instead of a blank page. */
import { Component, type ReactNode } from 'react';
import { t } from '../i18n';

interface Props {
  /** The screen's name, as the navigation shows it (read at render). */
  what: () => string;
  children: ReactNode;
}

export class ChunkBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page-note" role="alert">
        <p className="error">{t('pages.chunk.failed', { screen: this.props.what() })}</p>
        <button type="button" onClick={() => location.reload()}>
          {t('pages.chunk.reload')}
        </button>
      </div>
    );
  }
}
