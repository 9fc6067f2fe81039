/** Entry point of the agent and admin app: mounts <App/> into #root. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import './styles.css';
import { startServiceWorker } from './push';
import { trackViewport } from './viewport';

trackViewport();
// /sw.js: the app shell offline and Web Push notifications (push.ts).
startServiceWorker();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
