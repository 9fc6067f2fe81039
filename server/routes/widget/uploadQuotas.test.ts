/**
 * One visitor cannot fill the upload quota for good (#31 item 3,
 * docs/SECURITY.md §8): what a visitor uploaded counts against that visitor
 * (UPLOAD_QUOTA_VISITOR_MB) and a channel's files against the channel
 * (UPLOAD_QUOTA_CHANNEL_MB), so other visitors, other sites, agents and
 * agents' photos can still upload; an administrator sees the usage and frees
 * a chat's or a visitor's files, the messages staying readable with the file
 * marked removed; freeChatsUploads frees old chats' files (for chat
 * retention). Both stores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatDto, MessageDto, UploadUsageDto } from '../../../protocol/agent.js';
import type { UploadResponse } from '../../../protocol/widget.js';
import { freeChatsUploads } from '../../domain/uploads/freeUploads.js';
import { addAgent } from '../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, uploadingVisitor } from '../../../test/helpers/widget.js';

const KIB = 1024;
const text = (bytes: number): Buffer => Buffer.alloc(bytes, 0x61);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const nameOf = (file: string): string => file.split('/').pop()!;

describe('upload quotas per visitor and channel, usage and freeing', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  async function visitorOf(app: TestApp, widgetId: string) {
    const { token, upload } = await uploadingVisitor(app, widgetId);
    /** Uploads a file and sends it in a message: what the visitor did. */
    const sendFile = async (bytes: number): Promise<{ status: number; chatId?: number; file?: UploadResponse; code?: string; message?: string }> => {
      const res = await upload(text(bytes));
      if (res.statusCode !== 200) return { status: res.statusCode, code: res.json().error.code, message: res.json().error.message };
      const file = res.json<UploadResponse>();
      const sent = await sendText(app, widgetId, token, '', { text: undefined, ...file });
      return { status: 200, chatId: sent.chat_id, file };
    };
    return { token, upload, sendFile };
  }

  const api = (app: TestApp, method: 'GET' | 'DELETE', url: string, token = app.adminToken) =>
    app.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token) });

  it("keeps one visitor's sent files from filling the account: others, agents and agents' photos still upload", async () => {
    t = await createTestApp({ env: { UPLOAD_QUOTA_MB: '2', UPLOAD_QUOTA_VISITOR_MB: '1' }, workers: false });
    const widget = await createWidget(t);
    const greedy = await visitorOf(t, widget.widget_id);
    // The six 330 KiB messages: three fit the visitor's 1 MiB, the fourth is refused for that visitor.
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await greedy.sendFile(330 * KIB));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 413, 413, 413]);
    expect(results[3].code).toBe('upload_quota_exceeded');
    expect(results[3].message).toMatch(/as many files as this site keeps for one visitor/);
    expect(await t.app.ctx.db.selectFrom('uploads').select('id').execute()).toHaveLength(3);

    // Another visitor, an agent's file in a chat and an agent's photo are not refused.
    const other = await visitorOf(t, widget.widget_id);
    const theirs = await other.sendFile(330 * KIB);
    expect(theirs.status).toBe(200);
    const agentFile = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${theirs.chatId}/uploads`,
      headers: { ...bearer(t.adminToken), 'content-type': 'text/plain', 'x-file-name': 'answer.txt' },
      payload: text(100 * KIB),
    });
    expect(agentFile.statusCode).toBe(200);
    const photo = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/photo',
      headers: { ...bearer(t.adminToken), 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(photo.statusCode).toBe(200);
  });

  it("holds a channel's quota: a full site refuses new files, another site of the account does not", async () => {
    t = await createTestApp({ env: { UPLOAD_QUOTA_MB: '4', UPLOAD_QUOTA_CHANNEL_MB: '1', UPLOAD_QUOTA_VISITOR_MB: '1' }, workers: false });
    const a = await createWidget(t);
    const b = await createWidget(t, { name: 'Other site' });
    for (let i = 0; i < 3; i++) expect((await (await visitorOf(t, a.widget_id)).upload(text(300 * KIB))).statusCode).toBe(200);
    const refused = await (await visitorOf(t, a.widget_id)).upload(text(300 * KIB));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error.message).toMatch(/storage for files of this site is full/);
    expect((await (await visitorOf(t, b.widget_id)).upload(text(300 * KIB))).statusCode).toBe(200);
  });

  it('shows an administrator the usage, frees a visitor’s and a chat’s files; the messages stay, marked removed', async () => {
    t = await createTestApp({ env: { UPLOAD_QUOTA_MB: '2', UPLOAD_QUOTA_VISITOR_MB: '1' }, workers: false });
    // Nothing uploaded yet: an empty usage.
    const empty = await api(t, 'GET', '/uploads/usage');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      quota: { account_bytes: 2 * 1024 * KIB, channel_bytes: 2 * 1024 * KIB, visitor_bytes: 1024 * KIB },
      used: { bytes: 0, files: 0 },
      channels: [],
      top_visitors: [],
    });
    const agent = await addAgent(t, { email: 'agent@example.com' });
    expect((await api(t, 'GET', '/uploads/usage', agent.token)).statusCode).toBe(403);

    const widget = await createWidget(t);
    const greedy = await visitorOf(t, widget.widget_id);
    const sent = [await greedy.sendFile(330 * KIB), await greedy.sendFile(330 * KIB), await greedy.sendFile(330 * KIB)];
    expect((await greedy.sendFile(330 * KIB)).status).toBe(413);
    const modest = await visitorOf(t, widget.widget_id);
    const small = await modest.sendFile(10 * KIB);
    const chatOf = async (chatId: number): Promise<ChatDto> => (await api(t!, 'GET', `/chats/${chatId}`)).json();
    const greedyChat = await chatOf(sent[0].chatId!);
    const greedyId = greedyChat.visitor.id;

    const usage = (await api(t, 'GET', '/uploads/usage')).json<UploadUsageDto>();
    expect(usage.used).toEqual({ bytes: 3 * 330 * KIB + 10 * KIB, files: 4 });
    expect(usage.channels).toEqual([{ channel_id: widget.id, name: expect.any(String), bytes: 3 * 330 * KIB + 10 * KIB, files: 4 }]);
    expect(usage.top_visitors.map((v) => [v.visitor_id, v.bytes, v.files])).toEqual([
      [greedyId, 3 * 330 * KIB, 3],
      [(await chatOf(small.chatId!)).visitor.id, 10 * KIB, 1],
    ]);

    // Freeing the visitor's files: the files go, the messages stay with file_removed.
    expect((await api(t, 'DELETE', `/visitors/${greedyId}/uploads`, agent.token)).statusCode).toBe(403);
    expect((await api(t, 'DELETE', '/visitors/999999/uploads')).statusCode).toBe(404);
    const freed = await api(t, 'DELETE', `/visitors/${greedyId}/uploads`);
    expect(freed.statusCode).toBe(200);
    expect(freed.json()).toEqual({ files: 3, bytes: 3 * 330 * KIB });
    for (const s of sent) expect((await t.app.inject({ method: 'GET', url: `/widget/uploads/${nameOf(s.file!.file)}` })).statusCode).toBe(404);
    const files = ((await chatOf(sent[0].chatId!)).messages ?? []).filter((m: MessageDto) => m.file !== undefined);
    expect(files).toHaveLength(3);
    for (const m of files) expect(m).toMatchObject({ file_name: 'notes.txt', file_size: 330 * KIB, file_removed: true });
    // The visitor's space is free again.
    expect((await greedy.sendFile(330 * KIB)).status).toBe(200);

    // Freeing one chat's files (the other visitor's): only that chat's.
    const freedChat = await api(t, 'DELETE', `/chats/${small.chatId}/uploads`);
    expect(freedChat.json()).toEqual({ files: 1, bytes: 10 * KIB });
    expect(((await chatOf(small.chatId!)).messages ?? []).find((m) => m.file !== undefined)).toMatchObject({ file_removed: true });
    expect((await api(t, 'DELETE', '/chats/999999/uploads')).statusCode).toBe(404);
    expect((await api(t, 'GET', '/uploads/usage')).json<UploadUsageDto>().used).toEqual({ bytes: 330 * KIB, files: 1 });
    const left = fs.readdirSync(path.join(t.config.dataDir, 'uploads'));
    expect(left).toHaveLength(1);
  });

  it('frees the files of given chats (the domain function chat retention calls), and only theirs', async () => {
    t = await createTestApp({ workers: false });
    const widget = await createWidget(t);
    const one = await (await visitorOf(t, widget.widget_id)).sendFile(1000);
    const two = await (await visitorOf(t, widget.widget_id)).sendFile(2000);
    const accountId = t.app.ctx.defaultAccountId;
    expect(await freeChatsUploads(t.app.ctx, accountId, [one.chatId!])).toEqual({ files: 1, bytes: 1000 });
    expect(await freeChatsUploads(t.app.ctx, accountId, [one.chatId!])).toEqual({ files: 0, bytes: 0 });
    expect(await freeChatsUploads(t.app.ctx, accountId + 1, [two.chatId!])).toEqual({ files: 0, bytes: 0 });
    expect(await freeChatsUploads(t.app.ctx, accountId, [])).toEqual({ files: 0, bytes: 0 });
    expect((await t.app.inject({ method: 'GET', url: `/widget/uploads/${nameOf(one.file!.file)}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/widget/uploads/${nameOf(two.file!.file)}` })).statusCode).toBe(200);
  });
});
