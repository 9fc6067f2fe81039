/**
 * The frame's side of the postMessage bridge with the loader. The loader puts
 * the page's origin (and the page's details, so the session starts without a
 * round trip) in the frame URL's #fragment; the frame accepts envelopes only
 * from its parent window with that origin, and posts only to it.
 */
import { MESSAGE_NAMESPACE, type Envelope } from '../../../protocol/widget';
import type { FrameEvents, InitPayload, LoaderCommand } from '../shared/messages';

export interface Bridge {
  /** Whether a loader embeds this frame (else it runs alone: the page is the frame). */
  readonly embedded: boolean;
  /** The page's details, when they came with the frame's address (else `init` brings them). */
  readonly init: InitPayload | null;
  post: <K extends keyof FrameEvents>(event: K, payload: FrameEvents[K], id?: number) => void;
}

/**
 * The page's origin, from the #fragment. A site that embeds the frame claiming
 * another origin gets nothing: postMessage delivers only to that origin, and
 * envelopes from any other origin are ignored.
 */
function parentOrigin(): string | null {
  const origin = fragment()[0];
  return /^https?:\/\/[^/?#]+$/.test(origin) ? origin : null;
}

/** The #fragment, decoded: the page's origin, and after the first `&` the page's details (JSON), when the loader put them there. */
function fragment(): [string, string] {
  try {
    const raw = decodeURIComponent(location.hash.slice(1));
    const at = raw.indexOf('&');
    return at < 0 ? [raw, ''] : [raw.slice(0, at), raw.slice(at + 1)];
  } catch {
    return ['', ''];
  }
}

/**
 * The loader's init, when it came with the frame's address (`#<origin>&<init as JSON>`, encoded) and the browser
 * confirms the parent has that origin (location.ancestorOrigins): the session starts at once, without waiting for
 * hello/init.
 */
function earlyInit(origin: string | null): InitPayload | null {
  try {
    const data = fragment()[1];
    if (!data || !origin || location.ancestorOrigins?.[0] !== origin) return null;
    const init = JSON.parse(data) as InitPayload | null;
    return init && typeof init === 'object' ? init : null;
  } catch {
    return null;
  }
}

export function createBridge(onCommand: (c: LoaderCommand) => void): Bridge {
  const origin = parentOrigin();
  const embedded = window.parent !== window && origin !== null;
  addEventListener('message', (e: MessageEvent) => {
    if (!embedded || e.source !== window.parent || e.origin !== origin) return;
    const d = e.data as Envelope | null;
    if (!d || d.ns !== MESSAGE_NAMESPACE || typeof d.event !== 'string') return;
    onCommand({ event: d.event, payload: d.payload, id: typeof d.id === 'number' ? d.id : undefined } as LoaderCommand);
  });
  return {
    embedded,
    init: embedded ? earlyInit(origin) : null,
    post(event, payload, id) {
      if (!embedded || origin === null) return;
      const env: Envelope = { ns: MESSAGE_NAMESPACE, event, payload };
      if (id !== undefined) env.id = id;
      window.parent.postMessage(env, origin);
    },
  };
}
