import { z } from 'zod';
import { isCalendarDay } from './utc-day';

/*
 * The rules every input field shares, so bad input is a 400 naming the field and never reaches the
 * database: ids fit PostgreSQL's integer, text is bounded and holds no NUL (PostgreSQL text and
 * jsonb refuse U+0000), dates stay in a range both PostgreSQL and JavaScript can hold. Each message
 * starts with the field's name, because the error body carries only the message.
 */

/** The largest value of a PostgreSQL `integer` (serial) column: every row id. */
export const ID_MAX = 2_147_483_647;

/** A row id in a URL (`:id`), coerced from the path: a whole number from 1 to ID_MAX. */
export function Id(label: string) {
  return z.coerce
    .number({ error: `${label} must be a number` })
    .positive(`${label} must be positive`)
    .max(ID_MAX, `${label} must be at most ${ID_MAX}`)
    .int(`${label} must be a whole number`);
}

/** `{ id }` path parameters for a route on one row. */
export function IdParams(label: string) {
  return z.object({ id: Id(label) });
}

const NUL = '\u0000';

export interface TextOptions {
  /** Trim surrounding white space before the other checks. */
  trim?: boolean;
  /** The message when the value is missing or not a string. */
  required?: string;
  /** The message when the value is longer than `max`. */
  tooLong?: string;
}

/** Text a caller sends: at most `max` characters, no NUL character. Chain `.min()`, `.regex()` etc. after it. */
export function text(label: string, max: number, options: TextOptions = {}): z.ZodString {
  const base = z.string({ error: options.required ?? `${label} must be text` });
  return (options.trim ? base.trim() : base)
    .max(max, options.tooLong ?? `${label} must be at most ${max} characters`)
    .refine((value) => !value.includes(NUL), `${label} must not contain NUL characters (U+0000)`);
}

/** The first and last days a date filter accepts (UTC): every report the product holds is inside. */
export const DATE_FILTER_MIN = '2000-01-01';
export const DATE_FILTER_MAX = '2100-12-31';

/** A UTC day as YYYY-MM-DD, a real calendar day from DATE_FILTER_MIN to DATE_FILTER_MAX. */
export function DateFilter(label: string) {
  return z
    .string({ error: `${label} must be a date like 2024-03-31` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date like 2024-03-31`)
    .refine((day) => isCalendarDay(day), `${label} is not a real date`)
    .refine(
      (day) => day >= DATE_FILTER_MIN && day <= DATE_FILTER_MAX,
      `${label} must be between ${DATE_FILTER_MIN} and ${DATE_FILTER_MAX}`,
    );
}
