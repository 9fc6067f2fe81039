/**
 * The published svc-api.d.ts (served at /widget/svc-api.d.ts) compiles with
 * tsc against a page-style usage of every function and every callback, in
 * strict mode without skipLibCheck; and it is strict enough to refuse
 * wrong calls (a usage with mistakes does not compile). It also compiles
 * beside a Nuxt module's own declarations of the same window properties, the
 * way a Nuxt plugin uses the API (nulls for unknown contact details, rules read
 * from a CMS, handlers typed more narrowly), with a Nuxt project's options and
 * strictFunctionTypes (issue 32, item 11).
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

const opened: SvcApi.Result = svc_api.open();
if (opened.result === 'fail') console.log(opened.reason);
svc_api.open({ start: 'call' });
const shut: 'ok' | 'fail' = svc_api.close().result;
const mode: 'online' | 'offline' = svc_api.chatMode();
const contact: SvcApi.ContactInfo = svc_api.getContactInfo();
svc_api.getVisitorNumber((err, n) => console.log(err ?? n));
const set: SvcApi.Result = svc_api.setContactInfo({ name: 'Ann', email: 'ann@example.com', phone: '+15550100100', description: 'VIP' });
const custom = svc_api.setCustomData([{ title: 'Order', key: 'No', content: '42', link: 'https://shop.example.com/o/42' }]);
if (custom.result === 'ok' && custom.dropped) console.log(custom.dropped + 1);
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
const color: string | undefined = window.svc_config?.widget_color;
svc_destroy();
svc_init();
console.log(mode, contact, set, custom, utm, unread, id, live, color, shut);
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

/**
 * A Nuxt module's published declarations (node_modules/<module>/dist/types.d.ts), as such modules write them: its
 * options, and its own `declare global` of the window properties it touches, some as properties, some as methods.
 */
const NUXT_MODULE = `export interface ModuleOptions {
  widgetId: string;
  hideLauncher?: boolean;
}
export interface NuxtModule<T> {
  (options: T): void;
  meta?: { name: string; configKey: string };
}
declare const module: NuxtModule<ModuleOptions>;
export default module;
declare global {
  interface Window {
    svc_api?: {
      open: (params?: { start?: 'chat' | 'call' }) => { result: 'ok' | 'fail'; reason?: string };
      close: () => { result: 'ok' | 'fail'; reason?: string };
      chatMode: () => 'online' | 'offline';
      setContactInfo: (info: { name?: string | null; email?: string | null; phone?: string | null; description?: string | null }) => { result: string };
      setRules?: (rules: Record<string, unknown>) => unknown;
    };
    svc_config?: { widget_id: string; widget_color?: string; [key: string]: unknown };
    svc_onLoadCallback?: () => void;
    svc_onOpen?: () => void;
    svc_onClose?: () => void;
    svc_onChangeState?(state: string): void;
    svc_onIntroduction?(contact: { client_name: string | null; email: string | null }): void;
  }
}
`;

/** A Nuxt plugin of a real shop using the API the way such pages do. */
const NUXT_PLUGIN = `/// <reference path="./svc-api.d.ts" />
import type { ModuleOptions } from 'nuxt-svc-chat';

interface CmsRules { rules: Array<{ id: string; action: { type: string; text: string } }> }
interface User { name: string | null; email: string | null; phone?: string | null }
type AgentMessage = SvcApi.ReceivedMessage & { author: 'agent'; text: string };

export function setup(options: ModuleOptions, user: User, cms: CmsRules): void {
  window.svc_onLoadCallback = () => {
    const r = window.svc_api?.open();
    if (r?.result === 'fail') console.warn(r.reason);
    svc_api.setContactInfo({ name: user.name, email: user.email, phone: user.phone ?? null, description: null });
    svc_api.setRules(cms);
    svc_api.setRules({ rules: [{ id: 'a', action: { type: 'invitation', text: 'Hi' } }] });
    const answer = svc_api.setCustomData([{ title: 'Plan', content: options.widgetId }]);
    if (answer.result === 'ok' && answer.dropped) console.warn(answer.dropped);
  };
  const onAccept = (agent: SvcApi.Agent) => console.log(agent.name);
  window.svc_onAccept = onAccept;
  window.svc_onMessageReceived = (m: AgentMessage) => console.log(m.text.length);
  window.svc_onChangeState = (state: string) => console.log(state);
  window.svc_onIntroduction = (c: SvcApi.ContactInfo) => console.log(c.phone);
  svc_api.getVisitorNumber((err: string | null, n: number) => console.log(err ?? n.toFixed()));
  svc_api.isCallbackEnabled((r: { result: string }) => console.log(r.result));
  const color: string | undefined = window.svc_config?.widget_color;
  const closed = svc_api.close();
  console.log(color, closed.result === 'ok');
}
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-svc-api-'));
fs.copyFileSync(DTS, path.join(dir, 'svc-api.d.ts'));
const moduleDir = path.join(dir, 'node_modules', 'nuxt-svc-chat');
fs.mkdirSync(path.join(moduleDir, 'dist'), { recursive: true });
fs.writeFileSync(path.join(moduleDir, 'dist', 'types.d.ts'), NUXT_MODULE);
fs.writeFileSync(
  path.join(moduleDir, 'package.json'),
  JSON.stringify({ name: 'nuxt-svc-chat', version: '1.0.0', type: 'module', exports: { '.': { types: './dist/types.d.ts' } } }),
);

/** The options of a Nuxt project's generated tsconfig, with strictFunctionTypes and the declarations checked too. */
const NUXT_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  strictFunctionTypes: true,
};

function compile(source: string, options: ts.CompilerOptions = {}): string[] {
  const file = path.join(dir, `page-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2020,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    types: [],
    ...options,
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

  it("compiles a Nuxt plugin beside a Nuxt module's own window declarations, with strictFunctionTypes", () => {
    expect(compile(NUXT_PLUGIN, NUXT_OPTIONS)).toEqual([]);
  }, 60_000);

  it('refuses wrong calls: a number for a phone, an unknown open option, a missing message, a callback of the wrong shape', () => {
    const errors = compile(WRONG);
    expect(errors.length).toBeGreaterThanOrEqual(6);
    expect(errors.some((e) => e.includes('svc-api.d.ts'))).toBe(false);
  }, 60_000);
});
