import { describe, expect, it } from 'vitest';
import { withTraceHeaders } from './trace-headers';

const raw = Buffer.from('Subject: hi\r\n\r\nbody\r\n');
const at = new Date('2026-11-23T17:44:44Z');
const traced = (session: { remoteIp: string; helo: string; mailFrom: string }, name: string | null = null) =>
  withTraceHeaders(raw, session, 'inbox.localhost', name, at).toString('latin1');

describe('withTraceHeaders', () => {
  it('prepends Return-Path and a Postfix-style Received field, "unknown" without confirmed reverse DNS', () => {
    expect(traced({ remoteIp: '93.184.215.14', helo: 'mta1.example.com', mailFrom: 'bounce@example.com' })).toBe(
      'Return-Path: <bounce@example.com>\r\n' +
        'Received: from mta1.example.com (unknown [93.184.215.14])\r\n' +
        '\tby inbox.localhost (InboxPulse) with ESMTP;\r\n' +
        '\tMon, 23 Nov 2026 17:44:44 +0000\r\n' +
        'Subject: hi\r\n\r\nbody\r\n',
    );
  });

  it('writes IPv6 clients as IPv6:address, a null sender as <>, and the confirmed name', () => {
    const text = traced({ remoteIp: '2001:db8::25', helo: 'mx.example.net', mailFrom: '' }, 'mx.example.net');
    expect(text).toMatch(
      /^Return-Path: <>\r\nReceived: from mx\.example\.net \(mx\.example\.net \[IPv6:2001:db8::25\]\)\r\n/,
    );
  });

  it("keeps a client's line breaks, spaces and controls out of our header", () => {
    const text = traced({ remoteIp: '93.184.215.14', helo: 'evil\r\nX-Injected: 1', mailFrom: 'a b\r\n@example.com' });
    expect(text).toContain('Received: from evilX-Injected:1 (unknown');
    expect(text).toContain('Return-Path: <ab@example.com>');
    expect(text.split('\r\n\r\n')[0].split('\r\n')).toHaveLength(5);
  });
});
