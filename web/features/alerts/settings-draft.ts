import { z } from 'zod';
import { AlertFrequency, UpdateAlertSettings, type AlertSettings } from '@contracts/alert-settings';

/**
 * The Alert Settings form while it is edited: numbers as typed (a half-typed "0." must survive),
 * optional texts as '' and the Slack webhook URL only when the user types a new one (the saved one
 * is never sent back to the browser).
 */
const Draft = z.object({
  emailDeliverability: z.boolean(),
  emailReputation: z.boolean(),
  emailBounce: z.boolean(),
  emailSpam: z.boolean(),
  inboxThreshold: z.string(),
  bounceThreshold: z.string(),
  spamThreshold: z.string(),
  reputationThreshold: z.string(),
  slackEnabled: z.boolean(),
  /** '' keeps the saved URL; null removes it. */
  slackWebhookUrl: z.string().nullable(),
  slackChannel: z.string(),
  smsEnabled: z.boolean(),
  smsNumber: z.string(),
  webhookEnabled: z.boolean(),
  webhookUrl: z.string(),
  frequency: AlertFrequency,
  quietHours: z.object({ on: z.boolean(), start: z.string(), end: z.string(), timeZone: z.string() }),
});
export type SettingsDraft = z.infer<typeof Draft>;

export type DraftField = keyof UpdateAlertSettings;

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function toDraft(saved: AlertSettings): SettingsDraft {
  return {
    emailDeliverability: saved.emailDeliverability,
    emailReputation: saved.emailReputation,
    emailBounce: saved.emailBounce,
    emailSpam: saved.emailSpam,
    inboxThreshold: String(saved.inboxThreshold),
    bounceThreshold: String(saved.bounceThreshold),
    spamThreshold: String(saved.spamThreshold),
    reputationThreshold: String(saved.reputationThreshold),
    slackEnabled: saved.slackEnabled,
    slackWebhookUrl: '',
    slackChannel: saved.slackChannel ?? '',
    smsEnabled: saved.smsEnabled,
    smsNumber: saved.smsNumber ?? '',
    webhookEnabled: saved.webhookEnabled,
    webhookUrl: saved.webhookUrl ?? '',
    frequency: saved.frequency,
    quietHours: {
      on: saved.quietHours !== null,
      start: saved.quietHours?.start ?? '22:00',
      end: saved.quietHours?.end ?? '07:00',
      timeZone: saved.quietHours?.timeZone ?? browserTimeZone(),
    },
  };
}

/** A typed number; '' or junk stays a string so the contract says "must be a number". */
function typedNumber(value: string): number | string {
  const trimmed = value.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** Only what differs from the saved settings: PUT keeps every field left out. */
export function changedFields(saved: AlertSettings, draft: SettingsDraft): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const put = (field: DraftField, next: unknown, before: unknown) => {
    if (JSON.stringify(next) !== JSON.stringify(before)) changes[field] = next;
  };
  for (const field of [
    'emailDeliverability',
    'emailReputation',
    'emailBounce',
    'emailSpam',
    'slackEnabled',
    'smsEnabled',
    'webhookEnabled',
    'frequency',
  ] as const) {
    put(field, draft[field], saved[field]);
  }
  for (const field of ['inboxThreshold', 'bounceThreshold', 'spamThreshold', 'reputationThreshold'] as const) {
    put(field, typedNumber(draft[field]), saved[field]);
  }
  if (draft.slackWebhookUrl === null) {
    if (saved.slackWebhookPreview !== null) changes.slackWebhookUrl = null;
  } else if (draft.slackWebhookUrl.trim() !== '') {
    changes.slackWebhookUrl = draft.slackWebhookUrl.trim();
  }
  put('slackChannel', orNull(draft.slackChannel), saved.slackChannel);
  put('smsNumber', orNull(draft.smsNumber), saved.smsNumber);
  put('webhookUrl', orNull(draft.webhookUrl), saved.webhookUrl);
  put(
    'quietHours',
    draft.quietHours.on
      ? { start: draft.quietHours.start, end: draft.quietHours.end, timeZone: draft.quietHours.timeZone.trim() }
      : null,
    saved.quietHours,
  );
  return changes;
}

/**
 * The form's schema: the changes the draft makes to the saved settings, checked by the contract's own
 * rules before sending, so a wrong value is named at its field (the first slip of each) without a round trip.
 */
export function settingsFields(saved: AlertSettings) {
  return Draft.transform((draft, ctx) => {
    const changes = changedFields(saved, draft);
    const checked = UpdateAlertSettings.safeParse(changes);
    if (checked.success) return changes as UpdateAlertSettings;
    for (const issue of checked.error.issues) {
      ctx.addIssue({ code: 'custom', path: issue.path.slice(0, 1), message: issue.message });
    }
    return z.NEVER;
  });
}

const FIELDS = Object.keys(UpdateAlertSettings.shape) as DraftField[];

/** The field a server message names ("smsNumber must be ..."), to show it there; none: the form as a whole. */
export function fieldNamedIn(message: string): DraftField | undefined {
  const first = message.split(/[\s.:]/, 1)[0];
  return FIELDS.find((field) => field === first);
}
