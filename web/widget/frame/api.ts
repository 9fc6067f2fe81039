/**
 * HTTP calls of the chat frame to /widget/api/<widget_id>/… (protocol/widget.ts),
 * with the visitor's token. URLs are relative to the frame's own address, so
 * the frame works behind any path prefix PUBLIC_URL has.
 */
import type { UploadResponse } from '../../../protocol/widget';
import { parseData } from '../shared/json';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds the server asked to wait (Retry-After of a 429), or 0. */
    readonly retryAfter = 0,
  ) {
    super(message);
  }
}

export interface Api {
  token: string | null;
  call: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;
  upload: (file: File) => Promise<UploadResponse>;
}

export function createApi(widgetId: string): Api {
  const base = new URL(`../api/${encodeURIComponent(widgetId)}/`, location.href);

  async function request<T>(method: string, path: string, body: BodyInit | undefined, headers: Record<string, string>): Promise<T> {
    if (api.token) headers.authorization = `Bearer ${api.token}`;
    const res = await fetch(new URL(path, base), { method, body, headers, credentials: 'omit' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? parseData(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      throw new ApiError(
        res.status,
        typeof error?.code === 'string' || typeof error?.code === 'number' ? String(error.code) : String(res.status),
        typeof error?.message === 'string' ? error.message : `The request failed (${res.status}).`,
        Number(res.headers.get('retry-after')) || 0,
      );
    }
    return parsed as T;
  }

  const api: Api = {
    token: null,
    call: (method, path, body) =>
      request(method, path, body === undefined ? undefined : JSON.stringify(body), body === undefined ? {} : { 'content-type': 'application/json' }),
    upload: (file) =>
      request('POST', 'uploads', file, { 'content-type': file.type || 'application/octet-stream', 'x-file-name': encodeURIComponent(file.name) }),
  };
  return api;
}
