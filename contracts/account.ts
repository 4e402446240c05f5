import { z } from 'zod';
import { newPasswordRule, PASSWORD_MAX } from './auth';

/** The opaque id of a session: the first 16 hex digits of its stored hash, never the cookie's token. */
export const SESSION_ID_LENGTH = 16;

/** One signed-in device of the user (GET /api/account/sessions). */
export const AccountSession = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  /** The browser's User-Agent as sent (bounded). */
  userAgent: z.string().nullable(),
  /** A readable "Browser on OS" made from it. */
  device: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSession>;

export const AccountSessionList = z.object({ sessions: z.array(AccountSession) });
export type AccountSessionList = z.infer<typeof AccountSessionList>;

export const SessionIdParams = z.object({
  id: z
    .string({ error: 'Session id must be text' })
    .regex(
      new RegExp(`^[0-9a-f]{${SESSION_ID_LENGTH}}$`),
      `Session id must be ${SESSION_ID_LENGTH} hexadecimal digits`,
    ),
});

/** POST /api/account/sessions/sign-out-others. */
export const SignOutOthersResponse = z.object({ revoked: z.number().int() });
export type SignOutOthersResponse = z.infer<typeof SignOutOthersResponse>;

export const ACCOUNT_MESSAGES = {
  wrongCurrentPassword: 'Your current password is incorrect',
  samePassword: 'The new password must be different from the current one',
  passwordChanged: 'Your password has been changed. Your other sessions have been signed out.',
  sessionNotFound: 'Session not found',
} as const;

/** POST /api/account/password; also the form's schema. The new password follows the registration rule. */
export const ChangePasswordBody = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(PASSWORD_MAX, ACCOUNT_MESSAGES.wrongCurrentPassword),
    newPassword: newPasswordRule,
    confirmPassword: z
      .string({ error: 'Please confirm your new password' })
      .min(1, 'Please confirm your new password')
      .max(PASSWORD_MAX, "Passwords don't match"),
    /** Also revoke the API key and webhook token (a change after a suspected leak). */
    revokeApiAccess: z.boolean({ error: 'revokeApiAccess must be true or false' }).optional(),
  })
  .refine((b) => b.confirmPassword === b.newPassword, { message: "Passwords don't match", path: ['confirmPassword'] })
  .refine((b) => b.newPassword !== b.currentPassword, {
    message: ACCOUNT_MESSAGES.samePassword,
    path: ['newPassword'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/**
 * The most DMARC report records one account keeps (about 300 MB of rows), unauthenticated mailed reports not
 * counted. A trusted report that would take the account past it removes the oldest reports to make room
 * (server/dmarc/import-report.ts); one older than all of them is kept as a failed import saying so.
 */
export const DMARC_RECORDS_PER_ACCOUNT = 1_000_000;

/*
 * What mailed reports may store, so that no sender crowds out the others (issue 36; ADR 051). Anyone can
 * mail dmarc@, so a report whose mail did not prove its reporter (unauthenticated) is kept apart: it does
 * not count against DMARC_RECORDS_PER_ACCOUNT, and the unauthenticated reports of one domain hold at most
 * this much (a report that does not fit is kept as a failed import saying so).
 */
export const UNAUTHENTICATED_RECORDS_PER_DOMAIN = 10_000;
export const UNAUTHENTICATED_BYTES_PER_DOMAIN = 5 * 1024 * 1024;
/** Authenticated mailed reports, per reporting organisation and domain, per UTC day of arrival. */
export const REPORTER_RECORDS_PER_DAY = 100_000;
export const REPORTER_BYTES_PER_DAY = 50 * 1024 * 1024;
/** Authenticated mailed reports, all reporters of one domain together, per UTC day of arrival. */
export const DOMAIN_RECORDS_PER_DAY = 250_000;
export const DOMAIN_BYTES_PER_DAY = 125 * 1024 * 1024;

/** GET /api/account/storage: what the account keeps, measured in the database. */
export const AccountStorage = z.object({
  dmarc: z.object({
    reports: z.number().int(),
    records: z.number().int(),
    recordLimit: z.number().int(),
    /** The stored size of the report and record rows (PostgreSQL's pg_column_size, before compression of the tables on disk). */
    bytes: z.number(),
  }),
});
export type AccountStorage = z.infer<typeof AccountStorage>;
