/**
 * Callback calls from the widget in real Chromium: isCallbackEnabled and
 * startCall follow the admin's callback settings, the callback form (state
 * `call`, or `chat/call` beside a chat) asks for a call, svc_onCallStart fires
 * when it is placed and svc_onCallEnd when the agent reports its end or error.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { WidgetEnv, type Call } from './harness.js';

type Api = Record<string, (...args: unknown[]) => unknown>;
const named = (calls: Call[], name: string): Call[] => calls.filter((c) => c.name === name);

const isCallbackEnabled = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => (window as unknown as { svc_api: Api }).svc_api.isCallbackEnabled(resolve)));

describe('widget callback calls (browser)', () => {
  let env: WidgetEnv;

  const callOf = (phone: string) =>
    waitFor(async () => {
      const res = await env.api<Array<{ id: number; phone: string; status: string }>>('GET', '/api/v1/calls');
      return res.body.find((c) => c.phone === phone) ?? null;
    });

  beforeAll(async () => {
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });

  afterAll(async () => {
    await env?.close();
  });

  it('answers "Callback disabled" while an admin has not enabled callbacks', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      expect(await isCallbackEnabled(page)).toEqual({ result: 'fail', reason: 'Callback disabled' });
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.startCall('+1 555 010 0199'))).toEqual({
        result: 'fail',
        reason: 'Callback disabled',
      });
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open());
      await expect.poll(() => env.frame(page).getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);
      expect(await env.frame(page).getByRole('button', { name: 'Call me back' }).count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('places a call with startCall: svc_onCallStart, then svc_onCallEnd({result: "ok"}) when the agent ends it', async () => {
    expect((await env.api('PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 3600, hours: null } })).status).toBe(200);
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      expect(await isCallbackEnabled(page)).toEqual({ result: 'ok' });
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.startCall('+1 (555) 010-0199'))).toEqual({ result: 'ok' });
      await env.until(page, (c) => named(c, 'svc_onCallStart').length === 1);
      const call = await callOf('+15550100199');
      // One call at a time.
      expect(await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.startCall('+1 555 010 0199'))).toEqual({
        result: 'fail',
        reason: 'Callback unavaiable',
      });

      expect((await env.api('POST', `/api/v1/calls/${call.id}/status`, { status: 'agent_connected' })).status).toBe(200);
      expect((await env.api('POST', `/api/v1/calls/${call.id}/status`, { status: 'end' })).status).toBe(200);
      const calls = await env.until(page, (c) => named(c, 'svc_onCallEnd').length === 1);
      expect(named(calls, 'svc_onCallEnd')[0].args[0]).toEqual({ result: 'ok' });
    } finally {
      await ctx.close();
    }
  });

  it('asks for a call from the callback form (state "call"); a failed call ends with svc_onCallEnd({result: "fail", reason})', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open({ start: 'call' }));
      let calls = await env.until(page, (c) => named(c, 'svc_onChangeState').length === 1);
      expect(named(calls, 'svc_onChangeState')[0].args[0]).toBe('call');
      const form = env.frame(page).getByRole('form', { name: 'Call me back' });
      await form.getByLabel('Phone').fill('555 0100');
      await form.getByRole('button', { name: 'Call me back' }).click();
      await expect.poll(() => form.getByRole('alert').isVisible()).toBe(true);
      await form.getByLabel('Phone').fill('+44 (0)20 7946 0958');
      await form.getByRole('button', { name: 'Call me back' }).click();
      await env.until(page, (c) => named(c, 'svc_onCallStart').length === 1);
      // The truth: an agent will dial the number; nobody is calling yet.
      await expect.poll(() => form.getByText('Thank you! An agent will call you at +44 (0)20 7946 0958 shortly.').isVisible()).toBe(true);
      expect(await form.getByText(/calling you now/).count()).toBe(0);
      const call = await callOf('+442079460958');
      expect((await env.api('POST', `/api/v1/calls/${call.id}/status`, { status: 'agent_connected' })).status).toBe(200);
      await expect.poll(() => form.getByText('An agent is calling you now.').isVisible()).toBe(true);
      expect((await env.api('POST', `/api/v1/calls/${call.id}/status`, { status: 'error', reason: 'No answer' })).status).toBe(200);
      calls = await env.until(page, (c) => named(c, 'svc_onCallEnd').length === 1);
      expect(named(calls, 'svc_onCallEnd')[0].args[0]).toEqual({ result: 'fail', reason: 'No answer' });
      await expect.poll(() => form.getByText('The call failed: No answer').isVisible()).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('reports state "chat/call" for the callback form beside an open chat', async () => {
    const ctx = await env.context();
    try {
      const page = await env.open(ctx);
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.open());
      await env.frame(page).getByLabel('Message').fill('Can someone call me?');
      await env.frame(page).getByRole('button', { name: 'Send' }).click();
      await env.until(page, (c) => named(c, 'svc_onMessageSent').length === 1);
      await env.frame(page).getByRole('button', { name: 'Call me back' }).click();
      const calls = await env.until(page, (c) => named(c, 'svc_onChangeState').some((s) => s.args[0] === 'chat/call'));
      expect(named(calls, 'svc_onChangeState').map((s) => s.args[0])).toEqual(['chat', 'chat/call']);
      await env.frame(page).getByRole('button', { name: 'Back to the chat' }).click();
      await page.evaluate(() => (window as unknown as { svc_api: Api }).svc_api.close());
      const after = await env.until(page, (c) => named(c, 'svc_onChangeState').length === 4);
      expect(named(after, 'svc_onChangeState').map((s) => s.args[0])).toEqual(['chat', 'chat/call', 'chat', 'chat/min']);
    } finally {
      await ctx.close();
    }
  });
});
