/**
 * Chromium's own accessibility tree (the DevTools protocol's
 * Accessibility.getFullAXTree), as a screen reader gets it: the role, the
 * computed accessible name and the live-region properties of each node, for
 * the page or one of its frames.
 */
import type { Page } from 'playwright-core';

export interface AxNode {
  role: string;
  name: string;
  ignored: boolean;
  /** aria-live of the node or of the live region it is in ("polite", "assertive"), if any. */
  live?: string;
}

interface RawNode {
  nodeId: string;
  ignored: boolean;
  role?: { value?: string };
  name?: { value?: string };
  properties?: Array<{ name: string; value: { value?: unknown } }>;
  parentId?: string;
}

interface FrameTree {
  frame: { id: string; url: string };
  childFrames?: FrameTree[];
}

const flatten = (t: FrameTree): FrameTree['frame'][] => [t.frame, ...(t.childFrames ?? []).flatMap(flatten)];

/** The accessibility tree of the page's main frame, or of the frame whose URL contains `frameUrl`. */
export async function axTree(page: Page, frameUrl?: string): Promise<AxNode[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Accessibility.enable');
    let frameId: string | undefined;
    if (frameUrl) {
      const { frameTree } = (await cdp.send('Page.getFrameTree')) as unknown as { frameTree: FrameTree };
      frameId = flatten(frameTree).find((f) => f.url.includes(frameUrl))?.id;
      if (!frameId) throw new Error(`no frame at ${frameUrl}`);
    }
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree', frameId ? { frameId } : {})) as unknown as { nodes: RawNode[] };
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const ownLive = (n: RawNode) => n.properties?.find((p) => p.name === 'live')?.value.value as string | undefined;
    // A node is announced when it or an ancestor is a live region (Chromium marks the region's root only).
    const liveOf = (n: RawNode | undefined): string | undefined => {
      for (let at = n; at; at = at.parentId ? byId.get(at.parentId) : undefined) {
        const live = ownLive(at);
        if (live) return live === 'off' ? undefined : live;
      }
      return undefined;
    };
    return nodes.map((n) => {
      const live = liveOf(n);
      return { role: n.role?.value ?? '', name: (n.name?.value ?? '').trim(), ignored: n.ignored, ...(live ? { live } : {}) };
    });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Roles a person operates: each needs a name. */
export const CONTROL_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'combobox',
  'checkbox',
  'radio',
  'listbox',
  'menuitem',
  'tab',
  'switch',
  'searchbox',
  'spinbutton',
  'slider',
]);

/** The controls of a tree without an accessible name (each as its role). */
export function unnamedControls(nodes: AxNode[]): string[] {
  return nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role) && n.name === '').map((n) => n.role);
}
