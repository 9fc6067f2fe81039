/**
 * /api/v1/settings (admin): read and change the account settings (event
 * webhook URL and the event types it gets, Safe URL, callback hours, working hours for chat, presence, widget
 * invitation rules), rotate the webhook secret, resume event webhooks paused after failing for more
 * than a day, and list or send again the event types given up on.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { storedAccountName } from '../../../../domain/accounts/accountName.js';
import { retentionOf } from '../../../../domain/settings/chatRetention.js';
import { getSettings, type SettingsRow } from '../../../../domain/settings/getSettings.js';
import { listGivenUpEventTypes, resumeEventType } from '../../../../domain/settings/givenUpEventTypes.js';
import { resumeWebhooks } from '../../../../domain/settings/resumeWebhooks.js';
import { rotateWebhookSecret } from '../../../../domain/settings/rotateWebhookSecret.js';
import type { SettingsChanges } from '../../../../domain/settings/settingsInput.js';
import { updateSettings } from '../../../../domain/settings/updateSettings.js';
import { parseStoredHours } from '../../../../domain/workingHours/storedHours.js';
import { presentGivenUp, presentSettings } from '../../../../presenters/settings.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { EventTypeParams, SettingsBody, type ChatHoursBodyT, type SettingsBodyT } from './schema.js';

const tags = ['settings'];
const security = [{ bearer: [] }];

export async function settingsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);
  // Who may call is checked before the input (an agent gets 403, not 400, for a bad body);
  // validation failures answer one readable sentence (see validationMessage.ts).
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };

  const present = async (row: SettingsRow) =>
    presentSettings(row, {
      retention: await retentionOf(ctx.db, row, ctx.clock()),
      accountName: await storedAccountName(ctx.db, row.account_id),
      chatHours: parseStoredHours(row.chat_hours_json),
    });

  app.get('/settings', { schema: { tags, security }, ...admin }, async (request) => present(await getSettings(ctx, { actor: actor(request) })));

  app.put('/settings', { schema: { tags, security, body: SettingsBody }, ...admin }, async (request) =>
    present(await updateSettings(ctx, { actor: actor(request), changes: pickChanges(request.body) })),
  );

  app.post('/settings/webhook-secret/rotate', { schema: { tags, security }, ...admin }, async (request) =>
    present(await rotateWebhookSecret(ctx, { actor: actor(request) })),
  );

  app.post('/settings/webhooks/resume', { schema: { tags, security }, ...admin }, async (request) =>
    present(await resumeWebhooks(ctx, { actor: actor(request) })),
  );

  app.get('/settings/webhooks/given-up', { schema: { tags, security }, ...admin }, async (request) =>
    (await listGivenUpEventTypes(ctx, { actor: actor(request) })).map(presentGivenUp),
  );

  app.post('/settings/webhooks/given-up/:event_type/resume', { schema: { tags, security, params: EventTypeParams }, ...admin }, async (request) =>
    (await resumeEventType(ctx, { actor: actor(request), eventType: request.params.event_type })).map(presentGivenUp),
  );
}

/** Only the keys the API documents (webhook_secret and unknown keys are ignored). */
function pickChanges(body: SettingsBodyT): SettingsChanges {
  const { account_name, event_webhook_url, safe_url, callback, rules, event_webhook_types } = body;
  const changes: SettingsChanges = {
    account_name,
    retention: body.retention === undefined || body.retention === null ? body.retention : { chats_days: body.retention.chats_days },
    event_webhook_url,
    safe_url,
    callback,
    rules,
    event_webhook_types,
    notifications: pickNotifications(body.notifications),
    presence: pickPresence(body.presence),
    chat_hours: pickHours(body.chat_hours),
  };
  if (callback === undefined || callback === null) return changes;
  const { enabled, balance_seconds, timezone, hours, provider } = callback;
  return { ...changes, callback: { enabled, balance_seconds, timezone, hours, provider } };
}

export function pickHours(h: ChatHoursBodyT | null | undefined): SettingsChanges['chat_hours'] {
  if (h === undefined || h === null) return h;
  const { timezone, weekly, exceptions } = h;
  return { timezone, weekly, exceptions: exceptions?.map(({ date, ranges, note }) => ({ date, ranges, note })) };
}

function pickNotifications(n: SettingsBodyT['notifications']): SettingsChanges['notifications'] {
  if (n === undefined || n === null) return n;
  const { emails, missed_chat_minutes, archive_email } = n;
  return { emails, missed_chat_minutes, archive_email };
}

function pickPresence(p: SettingsBodyT['presence']): SettingsChanges['presence'] {
  if (p === undefined || p === null) return p;
  const { default_status, away_after_idle_minutes } = p;
  return { default_status, away_after_idle_minutes };
}
