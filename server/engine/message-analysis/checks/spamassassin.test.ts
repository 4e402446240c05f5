import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SpamAssassinReport } from '@contracts/inbox-tests';
import {
  checkWithSpamd,
  parseReportRules,
  parseSpamdHost,
  spamAssassinFindings,
  SPAMASSASSIN_DEDUCTIONS,
} from './spamassassin';

/*
 * A loopback spamd that answers as SpamAssassin's spamd (3.4/4.0) does: it reads "REPORT SPAMC/x",
 * headers (only the exact name "Content-length" counts) and the body up to that length, answers a
 * length mismatch with "SPAMD/1.0 76 Bad header line: …", and otherwise writes "SPAMD/1.1 0 EX_OK",
 * Content-length, "Spam: True|False ; score / threshold", a blank line and the report built from
 * the default report template, then closes.
 */

interface SpamdRequest {
  requestLine: string;
  headers: string[];
  body: Buffer;
}

type Behaviour = (request: SpamdRequest, socket: Socket) => string | null;

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function fakeSpamd(behaviour: Behaviour): Promise<{ host: string; requests: SpamdRequest[] }> {
  const requests: SpamdRequest[] = [];
  // Half-open like spamd: the client's end of writing is not the end of the conversation.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    let answered = false;
    const respond = (request: SpamdRequest) => {
      answered = true;
      requests.push(request);
      const answer = behaviour(request, socket);
      if (answer !== null) socket.end(answer);
    };
    const tryParse = (clientDone: boolean) => {
      if (answered) return;
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [requestLine, ...headers] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const length = headers.map((h) => /^Content-length: (\d+)$/.exec(h)).find(Boolean);
      const body = buffer.subarray(end + 4);
      if (length && body.length < Number(length[1]) && !clientDone) return;
      if (length && body.length !== Number(length[1])) {
        answered = true;
        socket.end(
          `SPAMD/1.0 76 Bad header line: (Content-Length mismatch: Expected ${length[1]} bytes, got ${body.length} bytes)\r\n`,
        );
        return;
      }
      respond({ requestLine, headers, body });
    };
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** One line of the report's table, formatted as PerMsgStatus does: "%4.1f" (or "%4.0f" from 10) and "%-22s". */
function ruleLine(
  score: number,
  name: string,
  description: string,
  evidence: string[] = [],
  wrapped: string[] = [],
): string {
  const pts = Math.abs(score) >= 10 ? score.toFixed(0) : score.toFixed(1);
  return (
    [
      `${pts.padStart(4)} ${name.padEnd(22)} ${description}`,
      ...wrapped.map((w) => `${' '.repeat(28)}${w}`),
      ...evidence.map((e) => `${' '.repeat(27)} [${e}]`),
    ].join('\n') + '\n'
  );
}

/** The default template of 10_default_prefs.cf, filled in. */
function report(score: number, threshold: number, summary: string): string {
  return [
    'Spam detection software, running on the system "spamd.example.net",',
    'has identified this incoming email as possible spam.  The original',
    'message has been attached to this so you can view it or label',
    'similar future email.  If you have any questions, see',
    'the administrator of that system for details.',
    '',
    'Content preview:  Hello from the brand. 10 REASONS to buy now [...] ',
    '',
    `Content analysis details:   (${score.toFixed(1)} points, ${threshold.toFixed(1)} required)`,
    '',
    ' pts rule name              description',
    '---- ---------------------- --------------------------------------------------',
    summary,
  ].join('\n');
}

function spamdAnswer(isSpam: boolean, score: number, threshold: number, summary: string): string {
  const body = report(score, threshold, summary);
  return `SPAMD/1.1 0 EX_OK\r\nContent-length: ${Buffer.byteLength(body)}\r\nSpam: ${isSpam ? 'True' : 'False'} ; ${score.toFixed(1)} / ${threshold.toFixed(1)}\r\n\r\n${body}`;
}

const message = Buffer.from(
  'From: news@brand-mail.com\r\nTo: test@inbox.localhost\r\nSubject: Spring sale\r\n\r\nHello from the brand.\r\n',
);

const HAM_SUMMARY =
  ruleLine(
    0,
    'URIBL_BLOCKED',
    'ADMINISTRATOR NOTICE: The query to URIBL was',
    ['URIs: brand-mail.com'],
    ['blocked.  See', 'http://wiki.apache.org/spamassassin/DnsBlocklists#dnsbl-block', 'for more information.'],
  ) +
  ruleLine(-0.0, 'SPF_PASS', 'SPF: sender matches SPF record') +
  ruleLine(1.2, 'MISSING_DATE', 'Missing Date: header');

const SPAM_SUMMARY =
  ruleLine(1000, 'GTUBE', 'BODY: Generic Test for Unsolicited Bulk Email') +
  ruleLine(3.5, 'BAYES_99', 'BODY: Bayes spam probability is 99 to 100%', ['score: 1.0000']) +
  ruleLine(0.9, 'SPF_FAIL', 'SPF: sender does not match SPF record (fail)', [
    'SPF failed: Please see http://www.openspf.org/Why?s=mfrom;id=x',
  ]) +
  ruleLine(-1.9, 'BAYES_00', 'BODY: Bayes spam probability is 0 to 1%');

describe('checkWithSpamd (spamd protocol over TCP)', () => {
  it('sends REPORT SPAMC/1.5 with Content-length and reads a ham verdict with every rule', async () => {
    const spamd = await fakeSpamd(() => spamdAnswer(false, 1.2, 5, HAM_SUMMARY));
    const result = await checkWithSpamd(message, spamd.host);

    expect(spamd.requests).toHaveLength(1);
    expect(spamd.requests[0].requestLine).toBe('REPORT SPAMC/1.5');
    expect(spamd.requests[0].headers).toEqual([`Content-length: ${message.length}`]);
    expect(spamd.requests[0].body.equals(message)).toBe(true);
    expect(result).toEqual({
      score: 1.2,
      threshold: 5,
      isSpam: false,
      rules: [
        {
          name: 'URIBL_BLOCKED',
          score: 0,
          description:
            'ADMINISTRATOR NOTICE: The query to URIBL was blocked.  See http://wiki.apache.org/spamassassin/DnsBlocklists#dnsbl-block for more information.',
        },
        { name: 'SPF_PASS', score: 0, description: 'SPF: sender matches SPF record' },
        { name: 'MISSING_DATE', score: 1.2, description: 'Missing Date: header' },
      ],
      error: null,
    });
    expect(SpamAssassinReport.parse(result)).toEqual(result);
    expect(spamAssassinFindings(result)).toEqual([
      expect.objectContaining({
        id: 'spamassassin.not-spam',
        severity: 'pass',
        deduction: 0,
        title: 'SpamAssassin scores it 1.2 (spam from 5)',
      }),
    ]);
  });

  it('reads a spam verdict, with 1000-point rules and negative ones, and deducts at most the cap', async () => {
    const spamd = await fakeSpamd(() => spamdAnswer(true, 1003.5, 5, SPAM_SUMMARY));
    const result = await checkWithSpamd(message, spamd.host);
    expect(result).toMatchObject({ score: 1003.5, threshold: 5, isSpam: true, error: null });
    expect(result.rules).toEqual([
      { name: 'GTUBE', score: 1000, description: 'BODY: Generic Test for Unsolicited Bulk Email' },
      { name: 'BAYES_99', score: 3.5, description: 'BODY: Bayes spam probability is 99 to 100%' },
      { name: 'SPF_FAIL', score: 0.9, description: 'SPF: sender does not match SPF record (fail)' },
      { name: 'BAYES_00', score: -1.9, description: 'BODY: Bayes spam probability is 0 to 1%' },
    ]);
    const [finding] = spamAssassinFindings(result);
    expect(finding).toMatchObject({
      id: 'spamassassin.spam',
      category: 'spamassassin',
      severity: 'error',
      deduction: SPAMASSASSIN_DEDUCTIONS['spamassassin.spam'].maxDeduction,
    });
    expect(finding.detail).toContain('GTUBE (+1000) BODY: Generic Test for Unsolicited Bulk Email');
    expect(finding.detail).not.toContain('BAYES_00');
    expect(finding.fix).toMatch(/starting with GTUBE, BAYES_99, SPF_FAIL/);
    expect(finding.fix).toContain('authentication');
  });

  it('scales the spam deduction with the points over the threshold', () => {
    const at = (score: number) =>
      spamAssassinFindings({ score, threshold: 5, isSpam: true, rules: [], error: null })[0].deduction;
    expect(at(5)).toBe(1.5);
    expect(at(6)).toBe(1.8);
    expect(at(9)).toBe(2.5);
    expect(at(50)).toBe(3);
  });

  it('warns when the score is within a point of the threshold', () => {
    const [finding] = spamAssassinFindings({
      score: 4.3,
      threshold: 5,
      isSpam: false,
      rules: [{ name: 'HTML_MESSAGE', score: 0.001, description: null }],
      error: null,
    });
    expect(finding).toMatchObject({ id: 'spamassassin.near-threshold', severity: 'warning', deduction: 0.5 });
    expect(finding.fix).toBeTruthy();
  });

  it('reports a spamd that is down (connection refused) as an error, with no deduction', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const result = await checkWithSpamd(message, `127.0.0.1:${port}`);
    expect(result).toEqual({
      score: null,
      threshold: null,
      isSpam: null,
      rules: [],
      error: `spamd at 127.0.0.1:${port} refused the connection (is spamd running and listening there?).`,
    });
    expect(SpamAssassinReport.parse(result)).toEqual(result);
    expect(spamAssassinFindings(result)).toEqual([
      expect.objectContaining({ id: 'spamassassin.unavailable', severity: 'info', deduction: 0, fix: null }),
    ]);
  });

  it('gives up on a spamd that accepts and never answers', async () => {
    const spamd = await fakeSpamd(() => null);
    const started = Date.now();
    const result = await checkWithSpamd(message, spamd.host, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.error).toBe(`spamd at ${spamd.host} did not answer within 0.3 s.`);
    expect(result.score).toBeNull();
  });

  it('says what it got when the answer is not the spamd protocol', async () => {
    const spamd = await fakeSpamd(() => 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    const result = await checkWithSpamd(message, spamd.host);
    expect(result.error).toBe('spamd answered something that is not the spamd protocol: "HTTP/1.1 400 Bad Request".');
  });

  it('turns binary garbage and a missing Spam header into errors', async () => {
    const garbage = await fakeSpamd(() => '\u0000\u0001\u00ff\u00fe garbage');
    expect((await checkWithSpamd(message, garbage.host)).error).toMatch(
      /^spamd answered something that is not the spamd protocol: "\?\?\?\? garbage"/,
    );
    const noVerdict = await fakeSpamd(() => 'SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\n\r\n');
    expect((await checkWithSpamd(message, noVerdict.host)).error).toBe(
      'spamd\'s answer has no valid "Spam: True|False ; score / threshold" header.',
    );
  });

  it("reports spamd's own protocol errors by their sysexits name", async () => {
    const spamd = await fakeSpamd(
      () => 'SPAMD/1.0 76 Bad header line: (Content-Length contains non-numeric bytes)\r\n',
    );
    const result = await checkWithSpamd(message, spamd.host);
    expect(result.error).toBe(
      'spamd could not check the message: 76 EX_PROTOCOL Bad header line: (Content-Length contains non-numeric bytes).',
    );
  });

  it('reports a spamd that closes without a word', async () => {
    const spamd = await fakeSpamd((_request, socket) => {
      socket.end();
      return null;
    });
    expect((await checkWithSpamd(message, spamd.host)).error).toBe(
      `spamd at ${spamd.host} closed the connection without answering.`,
    );
  });

  it('stops reading at the response cap and keeps what it could parse', async () => {
    const huge = SPAM_SUMMARY + ruleLine(0.1, 'FILLER', 'x'.repeat(50)).repeat(5000);
    const spamd = await fakeSpamd(() => spamdAnswer(true, 1003.5, 5, huge));
    const result = await checkWithSpamd(message, spamd.host, { maxResponseBytes: 16 * 1024 });
    expect(result).toMatchObject({ score: 1003.5, threshold: 5, isSpam: true, error: null });
    expect(result.rules.slice(0, 2).map((r) => r.name)).toEqual(['GTUBE', 'BAYES_99']);
    expect(result.rules.length).toBeLessThan(5000);
    expect(result.rules.every((r) => (r.name === 'FILLER' ? r.description === 'x'.repeat(50) : true))).toBe(true);
  });

  it('sends at most the message cap, cut at a line end, with a matching Content-length', async () => {
    const spamd = await fakeSpamd(() => spamdAnswer(false, 0, 5, ''));
    const big = Buffer.concat([message, Buffer.from('0123456789abcdefghi\r\n'.repeat(200))]);
    const result = await checkWithSpamd(big, spamd.host, { maxMessageBytes: 1000 });
    expect(result.error).toBeNull();
    const sent = spamd.requests[0];
    expect(sent.body.length).toBeLessThanOrEqual(1000);
    expect(sent.body.subarray(-2).toString()).toBe('\r\n');
    expect(big.subarray(0, sent.body.length).equals(sent.body)).toBe(true);
    expect(sent.headers).toEqual([`Content-length: ${sent.body.length}`]);
  });
});

describe('parsing', () => {
  it("reads host, host:port and bracketed IPv6, with spamd's port 783 by default", () => {
    expect(parseSpamdHost('spamd.internal')).toEqual({ host: 'spamd.internal', port: 783 });
    expect(parseSpamdHost('127.0.0.1:10783')).toEqual({ host: '127.0.0.1', port: 10783 });
    expect(parseSpamdHost('[::1]')).toEqual({ host: '::1', port: 783 });
    expect(parseSpamdHost('[::1]:7830')).toEqual({ host: '::1', port: 7830 });
  });

  it('finds no rules in a report without the rule table, rather than guessing from free text', () => {
    expect(parseReportRules('Content preview:  10 REASONS to buy now\n 3.5 FAKE_RULE looks like a rule\n')).toEqual([]);
  });

  it('never throws for an impossible port', async () => {
    expect((await checkWithSpamd(message, '127.0.0.1:99999')).error).toMatch(
      /^Could not connect to spamd at 127\.0\.0\.1:99999/,
    );
  });
});
