import { z } from 'zod';
import { NOTE_TEXT_MAX } from '@contracts/timeline';

/** Tolerance for a clock a little ahead of the server's, as the API allows. */
const CLOCK_SKEW_MS = 60_000;
const EARLIEST = Date.parse('2000-01-01T00:00:00Z');

/**
 * The note form as typed, checked by the API's rules (CreateNoteRequest) in the form's words: the text
 * 1 to 500 characters, the optional date and time (the browser's local time) not in the future. It
 * becomes the request body: `at` as an ISO instant, or left out for "now".
 */
export const NoteFields = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write the note first')
    .max(NOTE_TEXT_MAX, `A note can be at most ${NOTE_TEXT_MAX} characters`)
    .refine((text) => !text.includes('\u0000'), 'The note contains a character that cannot be stored'),
  when: z.string().transform((value, ctx): string | undefined => {
    if (value.trim() === '') return undefined;
    // A datetime-local value ("2025-03-03T14:00") has no zone: Date reads it as local time, as the user meant it.
    const time = new Date(value).getTime();
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: 'custom', message: 'Enter a date and time, or leave it empty for now' });
      return z.NEVER;
    }
    if (time > Date.now() + CLOCK_SKEW_MS) {
      ctx.addIssue({ code: 'custom', message: 'The date and time cannot be in the future' });
      return z.NEVER;
    }
    if (time < EARLIEST) {
      ctx.addIssue({ code: 'custom', message: 'The date must be in 2000 or later' });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  }),
});
export type NoteFieldsInput = z.input<typeof NoteFields>;
export type NoteFieldsOutput = z.output<typeof NoteFields>;

/** The local "now" in the form a datetime-local input takes, for its max attribute. */
export function localDateTimeNow(now: Date = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
