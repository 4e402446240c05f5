import { UpdateAlertSettings, type AlertFrequency, type AlertSettings } from '@contracts/alert-settings';

/**
 * The Alert Settings form while it is edited: numbers as typed (a half-typed "0." must survive),
 * optional texts as '' and the Slack webhook URL only when the user types a new one (the saved one
 * is never sent back to the browser).
 */
export interface SettingsDraft {
  emailDeliverability: boolean;
  emailReputation: boolean;
  emailBounce: boolean;
  emailSpam: boolean;
  inboxThreshold: string;
  bounceThreshold: string;
  spamThreshold: string;
  reputationThreshold: string;
  slackEnabled: boolean;
  /** '' keeps the saved URL; null removes it. */
  slackWebhookUrl: string | null;
  slackChannel: string;
  smsEnabled: boolean;
  smsNumber: string;
  webhookEnabled: boolean;
  webhookUrl: string;
  frequency: AlertFrequency;
  quietHoursOn: boolean;
  quietStart: string;
  quietEnd: string;
  quietTimeZone: string;
}

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
    quietHoursOn: saved.quietHours !== null,
    quietStart: saved.quietHours?.start ?? '22:00',
    quietEnd: saved.quietHours?.end ?? '07:00',
    quietTimeZone: saved.quietHours?.timeZone ?? browserTimeZone(),
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
    draft.quietHoursOn ? { start: draft.quietStart, end: draft.quietEnd, timeZone: draft.quietTimeZone.trim() } : null,
    saved.quietHours,
  );
  return changes;
}

export type FieldErrors = Partial<Record<DraftField, string>>;

/** The contract's own check before sending, so a wrong value is named at its field without a round trip. */
export function validateChanges(
  changes: Record<string, unknown>,
): { ok: true; body: UpdateAlertSettings } | { ok: false; errors: FieldErrors } {
  const parsed = UpdateAlertSettings.safeParse(changes);
  if (parsed.success) return { ok: true, body: changes as UpdateAlertSettings };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as DraftField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

const FIELDS = Object.keys(UpdateAlertSettings.shape) as DraftField[];

/** The field a server message names ("smsNumber must be ..."), to show it there; null when it names none. */
export function fieldNamedIn(message: string): DraftField | null {
  const first = message.split(/[\s.:]/, 1)[0];
  return FIELDS.find((field) => field === first) ?? null;
}
