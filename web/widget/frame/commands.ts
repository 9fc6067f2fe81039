/**
 * Runs the loader's commands (svc_api calls) one after the other, in the order
 * the page made them; all but `init` wait for the visitor session. Answers
 * (getVisitorNumber, isCallbackEnabled) go back as `reply` envelopes.
 */
import type { ContactInfo, CustomDataField } from '../../../protocol/widget';
import type { LoaderCommand, LoaderCommands } from '../shared/messages';
import { offlineError, phoneError } from '../shared/validate';
import type { Widget } from './widget';

const FIELD_KEYS = ['title', 'content', 'link', 'key'] as const;

/** setCustomData's fields: objects with string title/content/link/key (other values dropped). */
function customFields(list: unknown[]): CustomDataField[] {
  return list.flatMap((f) => {
    if (!f || typeof f !== 'object') return [];
    const out: CustomDataField = {};
    for (const k of FIELD_KEYS) {
      const v = (f as Record<string, unknown>)[k];
      if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
    }
    return [out];
  });
}

function attributes(a: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(a)) if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
  return out;
}

function contactOf(p: LoaderCommands['contact'] | null): Partial<ContactInfo> {
  return { client_name: p?.name, email: p?.email, phone: p?.phone, description: p?.description };
}

export function commandRunner(w: Widget): (c: LoaderCommand) => void {
  let chain: Promise<void> = Promise.resolve();
  const log = (e: unknown): void => console.warn('Parley widget:', e instanceof Error ? e.message : e);

  async function run(c: LoaderCommand): Promise<void> {
    await w.whenReady();
    switch (c.event) {
      case 'init':
        return;
      case 'page':
        w.setPage(c.payload);
        return void (await w.api.call('POST', 'page', c.payload));
      case 'layout':
        return w.set({ full: c.payload.full === true });
      case 'open':
        if (c.payload?.focus === true) w.focusRequested = true;
        return w.openWindow(c.payload?.start === 'call' ? 'call' : 'chat');
      case 'close':
        return w.closeWindow();
      case 'contact':
        return w.saveContact(contactOf(c.payload), false, typeof c.payload?.email_signature === 'string' ? c.payload.email_signature : undefined);
      case 'customData':
        return void (await w.api.call('POST', 'custom-data', { fields: customFields(c.payload) }));
      case 'rules':
        return w.setRules(c.payload);
      case 'userToken':
        return void (await w.api.call('POST', 'user-token', c.payload));
      case 'invite':
        return w.showInvitation(c.payload);
      case 'call':
        return phoneError(c.payload.phone) ? undefined : w.startCall(c.payload.phone);
      case 'offline':
        return; // kept at once (below)
      case 'attributes':
        return void (await w.api.call('POST', 'attributes', { attributes: attributes(c.payload) }));
      case 'color':
        return w.setColor(c.payload);
      case 'clearHistory':
        return w.restart(true);
      case 'number':
        return w.bridge.post('reply', [null, w.state.number], c.id);
      case 'callbackEnabled':
        return w.bridge.post('reply', [await w.callbackAvailability()], c.id);
    }
  }

  return (c) => {
    if (c.event === 'init') return w.init(c.payload);
    // Mirrored at once, so getContactInfo() never goes back to an older value meanwhile.
    if (c.event === 'contact') w.noteContact(contactOf(c.payload));
    // Kept in the outbox at once, before the session exists: the page may be left meanwhile.
    if (c.event === 'offline') {
      const error = offlineError(c.payload);
      if (error) return log(error);
      w.queueOffline(c.payload);
    }
    chain = chain.then(() => run(c)).catch(log);
  };
}
