import { randomBytes } from 'node:crypto';

/*
 * How a test is named on the wire: its address `test-<id>-<token>@INBOUND_DOMAIN` and the subject tag
 * `[TEST-<id>]`. The token makes the address unguessable, so nobody can feed another user's test by
 * counting ids; the tag is what seed mailboxes are searched for.
 */

const TEST_ADDRESS = /^test-(\d{1,9})-([a-z0-9]{6,32})$/;
/** test@ and test+anything@ accept a test message matched by its subject tag alone. */
const GENERIC_TEST_ADDRESS = /^test(\+[^@]*)?$/;
const SUBJECT_TAG = /\[TEST-(\d{1,9})\]/i;

export function newTestToken(): string {
  // 64 bits in lower-case hex, so the address survives MTAs that fold case.
  return randomBytes(8).toString('hex');
}

export function inboxTestAddress(id: number, token: string, inboundDomain: string): string {
  return `test-${id}-${token}@${inboundDomain}`;
}

export function subjectTag(id: number): string {
  return `[TEST-${id}]`;
}

export function defaultSubject(id: number): string {
  return `Inbox Test ${id}`;
}

/** A local part the listener accepts for inbox tests: a test's own address, or the generic one. */
export function parseTestLocalPart(local: string): { id: number } | 'generic' | undefined {
  const match = TEST_ADDRESS.exec(local);
  if (match) return { id: Number(match[1]) };
  return GENERIC_TEST_ADDRESS.test(local) ? 'generic' : undefined;
}

/** The test id in a subject's [TEST-<id>] tag. */
export function testIdFromSubject(subject: string | null | undefined): number | undefined {
  const match = subject ? SUBJECT_TAG.exec(subject) : null;
  return match ? Number(match[1]) : undefined;
}
