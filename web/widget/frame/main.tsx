/**
 * The chat frame's entry (served at /widget/frame/<widget_id>#<page origin>):
 * wires the bridge, the controller and the views, then says hello to the
 * loader, which answers with the page's details. Opened alone (no loader),
 * it starts by itself and fills the window.
 */
import { render } from 'preact';
import type { LoaderCommand } from '../shared/messages';
import { createBridge } from './bridge';
import { commandRunner } from './commands';
import { App } from './ui/App';
import { Widget } from './widget';
import { startLanguage } from './i18n';
import './style.css';

// The widget's fixed language (the server writes it on <html>), else the browser's.
startLanguage(document.documentElement.dataset.language, navigator.languages ?? []);
const widgetId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
let run: (c: LoaderCommand) => void = () => undefined;
const bridge = createBridge((c) => run(c));
const widget = new Widget(widgetId, bridge);
run = commandRunner(widget);
// The page's details came with the frame's address: the visitor session starts now, before the first render and the
// hello/init round trip with the loader (which then changes nothing).
if (bridge.init) widget.init(bridge.init);
// Offline messages an earlier page handed over and the server does not have yet.
widget.flushOffline();

const root = document.getElementById('app');
if (root) render(<App w={widget} />, root);

if (bridge.embedded) bridge.post('hello', null);
else {
  widget.init({ page: { url: document.referrer || location.href, title: document.title }, utm: {}, started: Date.now() });
  void widget.whenReady().then(() => widget.openWindow());
}
