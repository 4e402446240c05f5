import { randomBytes } from 'node:crypto';

/*
 * How a test is named on the wire: its address `test-<id>-<token>@INBOUND_DOMAIN` and the subject tag
 * `[TEST-<id>]`. The token makes the address unguessable, so nobody can feed another user's test by
 * counting ids; the tag is what seed mailboxes are searched for. There is no generic test@ address:
 * a message matched by its tag alone let anyone who guessed an id start another user's test (ADR 012).
 */

const TEST_ADDRESS = /^test-(\d{1,9})-([a-z0-9]{6,32})$/;

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

/** The test a local part names, when it has the shape of a test's own address. */
export function parseTestLocalPart(local: string): { id: number } | undefined {
  const match = TEST_ADDRESS.exec(local);
  return match ? { id: Number(match[1]) } : undefined;
}
