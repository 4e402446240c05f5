import { pass, problem } from './content-rules';
import type { AnalysisFinding } from './finding';

// Spam words in the subject are read by the spam-content engine with the rest of the text
// (spam-content/read-spam-content.ts, where a subject hit counts double): one way to find spam words.

/** RFC 5322 keeps header lines under 998 characters; anything past that is not read by a person either. */
const MAX_SUBJECT_CHARS = 998;

export interface SubjectContext {
  subject: string | null;
  /** In-Reply-To or References is present: the message really answers another one. */
  isReply: boolean;
}

export function checkSubject({ subject: full, isReply }: SubjectContext): AnalysisFinding[] {
  const subject = (full ?? '').slice(0, MAX_SUBJECT_CHARS).trim();
  if (!subject) {
    return [
      problem(
        'content.empty-subject',
        full === null ? 'The message has no Subject header' : 'The subject is empty',
        'Filters score a missing or empty subject as spam, and readers skip it.',
        'Give every message a short, specific subject that says what is inside.',
      ),
    ];
  }
  return [
    pass('content.subject', 'The message has a subject', subject),
    allCaps(subject),
    punctuation(subject),
    replyPrefix(subject, isReply),
  ];
}

function allCaps(subject: string): AnalysisFinding {
  // The product's own "[TEST-<id>]" tag is not the sender's writing.
  const own = subject.replace(/\[TEST-[^\]\s]{1,64}\]/gi, '');
  const upper = own.match(/\p{Lu}/gu)?.length ?? 0;
  const lower = own.match(/\p{Ll}/gu)?.length ?? 0;
  // Short subjects ("FAQ", "NEW: v2") and caseless scripts are not shouting.
  if (upper + lower >= 8 && upper / (upper + lower) >= 0.8) {
    return problem(
      'content.subject-all-caps',
      'The subject is written in capital letters',
      `"${subject}" is ${Math.round((100 * upper) / (upper + lower))}% capitals; filters read that as shouting.`,
      'Write the subject in sentence case; keep capitals for names and acronyms.',
    );
  }
  return pass('content.subject-case', 'The subject is not in all capitals');
}

function punctuation(subject: string): AnalysisFinding {
  const count = (ch: string) => subject.split(ch).length - 1;
  const excessive = /!!|\$\$|\?\?\?/.test(subject) || count('!') >= 3 || count('$') >= 3;
  if (excessive) {
    return problem(
      'content.subject-excessive-punctuation',
      'The subject has excessive punctuation or symbols',
      `"${subject}" repeats "!", "?" or "$", a classic spam pattern.`,
      'Use at most one exclamation mark and write prices once, e.g. "Save $20 this week".',
    );
  }
  return pass('content.subject-punctuation', 'The subject has no runs of !, ? or $');
}

function replyPrefix(subject: string, isReply: boolean): AnalysisFinding {
  if (!isReply && /^(?:re|fwd?)\s*(?:\[\d{1,4}\])?\s*:/i.test(subject)) {
    return problem(
      'content.fake-reply-subject',
      'The subject pretends to be a reply or forward',
      `"${subject}" starts with a reply/forward prefix, but the message has no In-Reply-To or References header.`,
      'Remove the "Re:"/"Fwd:" prefix; it is only honest on real replies, which carry In-Reply-To and References.',
    );
  }
  return pass(
    'content.subject-reply-prefix',
    isReply ? 'The message is a real reply' : 'The subject does not fake a reply or forward',
  );
}
