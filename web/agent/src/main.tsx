/** Entry point of the agent and admin app: mounts <App/> into #root. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import './styles.css';
import { startServiceWorker } from './push';
import { trackViewport } from './viewport';
import { startLanguage } from './i18n';

trackViewport();
// /sw.js: the app shell offline and Web Push notifications (push.ts).
startServiceWorker();

const root = document.getElementById('root');
// The first screen is drawn in the agent's language (remembered here) or the browser's: its chunk first.
if (root) {
  await startLanguage();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
