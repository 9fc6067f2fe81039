/**
 * The published svc-api.d.ts (served at /widget/svc-api.d.ts) compiles with
 * tsc against a page-style usage of every function and every callback, in
 * strict mode without skipLibCheck; and it is strict enough to refuse
 * wrong calls (a usage with mistakes does not compile).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const DTS = path.resolve(import.meta.dirname, 'svc-api.d.ts');

/** How a customer's page written in TypeScript uses the widget. */
const PAGE = `/// <reference path="./svc-api.d.ts" />
window.svc_onLoadCallback = () => {
  svc_api.showProactiveInvitation('Need help choosing a plan?', 3);
};
window.svc_onOpen = () => console.log('open');
window.svc_onClose = () => console.log('close');
window.svc_onMessageSent = (text: string) => console.log(text.length);
window.svc_onAccept = (agent) => console.log(agent?.name, agent?.photo);
window.svc_onIntroduction = (c) => console.log(c.client_name, c.email, c.phone, c.description);
window.svc_onResizeCallback = ({ width, height }) => console.log(width * height);
window.svc_onCallStart = () => undefined;
window.svc_onCallEnd = (r) => console.log(r.result === 'fail' ? r.reason : 'ok');
window.svc_onChangeState = (state) => {
  const known: SvcApi.WidgetState[] = ['label', 'chat/min', 'chat', 'call', 'chat/call'];
  console.log(known.includes(state));
};
window.svc_onMessageReceived = (m) => console.log(m.id, m.chat_id, m.text);
window.svc_onClientStartChat = () => undefined;
window.svc_onWidgetDestroy = () => undefined;

svc_api.open();
svc_api.open({ start: 'call' });
svc_api.close();
const mode: 'online' | 'offline' = svc_api.chatMode();
const contact: SvcApi.ContactInfo = svc_api.getContactInfo();
svc_api.getVisitorNumber((err, n) => console.log(err ?? n));
const set: SvcApi.Result = svc_api.setContactInfo({ name: 'Ann', email: 'ann@example.com', phone: '+15550100100', description: 'VIP' });
const custom = svc_api.setCustomData([{ title: 'Order', key: 'No', content: '42', link: 'https://shop.example.com/o/42' }]);
svc_api.setRules({ rules: [{ id: 'pricing', conditions: { seconds_on_page: 20, url_contains: '/pricing', min_visits: 2 }, action: { type: 'invitation', text: 'Hi' } }] });
const token = svc_api.setUserToken('user-42', 'ab12');
if (token.result === 'ok') console.log(token.token.toUpperCase());
svc_api.setUserToken(42);
const call = svc_api.startCall('+1 555 010 0199');
if (call.result === 'fail') console.log(call.reason);
svc_api.isCallbackEnabled((r) => console.log(r.result));
const offline = svc_api.sendOfflineMessage({ name: 'Ann', email: 'ann@example.com', phone: '', description: '', message: 'Hello' });
if (offline.result === 'fail') console.log(offline.error);
const utm: SvcApi.Utm = svc_api.getUtm();
const unread: number = svc_api.getUnreadMessagesCount();
svc_api.clearHistory();
svc_api.setWidgetColor('#ff5500');
svc_api.sendPageTitle('Checkout');
svc_api.setClientAttributes({ plan: 'gold', seats: 3, trial: false });
const id: string | undefined = svc_config?.widget_id;
const live: 'online' | 'offline' | undefined = svc_config?.chat_mode;
svc_destroy();
svc_init();
console.log(mode, contact, set, custom, utm, unread, id, live);
`;

/** Mistakes the declarations must catch. */
const WRONG = `/// <reference path="./svc-api.d.ts" />
svc_api.startCall(5551234);
svc_api.open({ start: 'video' });
svc_api.sendOfflineMessage({ name: 'Ann' });
svc_api.getVisitorNumber();
window.svc_onCallEnd = (r: string) => console.log(r);
svc_api.noSuchFunction();
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-svc-api-'));
fs.copyFileSync(DTS, path.join(dir, 'svc-api.d.ts'));

function compile(source: string): string[] {
  const file = path.join(dir, `page-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2020,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('svc-api.d.ts', () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compiles a page using every function and callback, strict and without skipLibCheck', () => {
    expect(compile(PAGE)).toEqual([]);
  }, 60_000);

  it('refuses wrong calls: a number for a phone, an unknown open option, a missing message, a callback of the wrong shape', () => {
    const errors = compile(WRONG);
    expect(errors.length).toBeGreaterThanOrEqual(6);
    expect(errors.some((e) => e.includes('svc-api.d.ts'))).toBe(false);
  }, 60_000);
});
