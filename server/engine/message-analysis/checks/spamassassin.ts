import { connect } from 'node:net';
import type { SpamAssassinReport } from '@contracts/inbox-tests';
import type { AnalysisFinding, FindingSeverity } from './finding';

/*
 * A spamd client (SpamAssassin's network protocol, SPAMC/1.5). REPORT is the one command that gives
 * the verdict, the score, the threshold and, in its text report, every rule hit with its points and
 * description (SYMBOLS gives names only). The exchange is HTTP-like: a request line, headers, a
 * blank line and the message; spamd answers "SPAMD/1.1 0 EX_OK", Content-length and
 * "Spam: True ; 15.2 / 5.0" headers, a blank line, the report, and closes the connection.
 */

export const SPAMD_LIMITS = {
  defaultPort: 783,
  /** For connecting and for the whole answer: spamd takes 1-5 s with network tests, and the analysis must not hang on it. */
  timeoutMs: 10_000,
  /** A report is a few KB; anything near this is not spamd. */
  maxResponseBytes: 256 * 1024,
  /**
   * spamc's default --max-size. spamc skips larger messages; we send their first 500 KB instead (as
   * amavisd does), cut at a line end, because a verdict on the headers and the start of the body is
   * worth more than none, and spamd's rules look mostly there anyway.
   */
  maxMessageBytes: 500 * 1024,
} as const;

export interface SpamdOptions {
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxMessageBytes?: number;
}

/** sysexits.h names for spamd's non-zero answers, so an error says more than a number. */
const EXIT_CODES: Record<string, string> = {
  '64': 'EX_USAGE',
  '65': 'EX_DATAERR',
  '66': 'EX_NOINPUT',
  '67': 'EX_NOUSER',
  '68': 'EX_NOHOST',
  '69': 'EX_UNAVAILABLE',
  '70': 'EX_SOFTWARE',
  '71': 'EX_OSERR',
  '74': 'EX_IOERR',
  '75': 'EX_TEMPFAIL',
  '76': 'EX_PROTOCOL',
  '77': 'EX_NOPERM',
  '78': 'EX_CONFIG',
  '79': 'EX_TIMEOUT',
};

/** SPAMD_HOST: `host`, `host:port`, `[v6]` or `[v6]:port`. */
export function parseSpamdHost(spec: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(spec);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : SPAMD_LIMITS.defaultPort };
  const [host, port] = spec.split(':');
  return { host, port: port ? Number(port) : SPAMD_LIMITS.defaultPort };
}

const failed = (error: string): SpamAssassinReport => ({
  score: null,
  threshold: null,
  isSpam: null,
  rules: [],
  error,
});

/** Asks spamd for its REPORT on the message. Never throws: network and protocol problems come back in `error`. */
export function checkWithSpamd(
  raw: Buffer,
  spamdHost: string,
  options: SpamdOptions = {},
): Promise<SpamAssassinReport> {
  const limits = { ...SPAMD_LIMITS, ...options };
  const { host, port } = parseSpamdHost(spamdHost);
  const message = capMessage(raw, limits.maxMessageBytes);
  // spamd matches the header name case-sensitively: "Content-length", as spamc writes it.
  const request = Buffer.concat([
    Buffer.from(`REPORT SPAMC/1.5\r\nContent-length: ${message.length}\r\n\r\n`),
    message,
  ]);

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    let socket: ReturnType<typeof connect>;
    try {
      socket = connect({ host, port });
    } catch (err) {
      // A port outside 0-65535 throws here rather than failing the connection.
      return resolve(failed(`Could not connect to spamd at ${spamdHost}: ${(err as Error).message}`));
    }
    const finish = (report: SpamAssassinReport) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(report);
    };
    const answer = (truncated = false) => parseSpamdResponse(Buffer.concat(chunks), truncated);
    const timer = setTimeout(
      () => finish(failed(`spamd at ${spamdHost} did not answer within ${limits.timeoutMs / 1000} s.`)),
      limits.timeoutMs,
    );

    // end() sends the message and then half-closes, as spamc does after writing.
    socket.on('connect', () => socket.end(request));
    socket.on('data', (chunk: Buffer) => {
      const room = limits.maxResponseBytes - received;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      received += Math.min(chunk.length, room);
      if (received >= limits.maxResponseBytes) return finish(answer(true));
      if (isComplete(Buffer.concat(chunks))) finish(answer());
    });
    socket.on('end', () =>
      finish(received > 0 ? answer() : failed(`spamd at ${spamdHost} closed the connection without answering.`)),
    );
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // spamd may reset the connection right after a complete answer (e.g. an error line before our write ended).
      if (received > 0 && /^SPAMD\//.test(Buffer.concat(chunks).subarray(0, 6).toString('latin1')))
        return finish(answer());
      finish(failed(describeSocketError(err, spamdHost)));
    });
  });
}

function capMessage(raw: Buffer, max: number): Buffer {
  if (raw.length <= max) return raw;
  const lastNewline = raw.lastIndexOf(0x0a, max - 1);
  return raw.subarray(0, lastNewline > 0 ? lastNewline + 1 : max);
}

function describeSocketError(err: NodeJS.ErrnoException, spamdHost: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `spamd at ${spamdHost} refused the connection (is spamd running and listening there?).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The spamd host in ${spamdHost} could not be resolved.`;
    case 'ECONNRESET':
      return `spamd at ${spamdHost} reset the connection before answering (is this address allowed by spamd's --allowed-ips?).`;
    default:
      return `Could not talk to spamd at ${spamdHost}: ${err.message}.`;
  }
}

/** Headers ended and the body reached its Content-length: a spamd that keeps the socket open need not be waited for. */
function isComplete(bytes: Buffer): boolean {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /^content-length:\s*(\d+)\s*$/im.exec(bytes.subarray(0, end).toString('latin1'));
  return length !== null && bytes.length - (end + 4) >= Number(length[1]);
}

const printable = (text: string) => JSON.stringify(text.slice(0, 60).replace(/[^\x20-\x7e]/g, '?'));

/** spamd's answer to REPORT, as the contract's report. */
export function parseSpamdResponse(bytes: Buffer, truncated = false): SpamAssassinReport {
  // The report quotes the message (its preview) in whatever charset; lossy UTF-8 is fine for rule lines.
  const text = bytes.toString('utf8');
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n'))).replace(/\r$/, '') || text.slice(0, 200);
  const status = /^SPAMD\/\d+(?:\.\d+)? +(\d+) *(.*)$/.exec(firstLine);
  if (!status) return failed(`spamd answered something that is not the spamd protocol: ${printable(firstLine)}.`);
  if (status[1] !== '0')
    return failed(
      `spamd could not check the message: ${status[1]} ${EXIT_CODES[status[1]] ?? ''} ${status[2]}`
        .replace(/\s+/g, ' ')
        .trim() + '.',
    );

  const headerEnd = text.indexOf('\r\n\r\n');
  const head = headerEnd < 0 ? text : text.slice(0, headerEnd);
  const spam = /^Spam:\s*(True|False|Yes|No)\s*;\s*(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)\s*$/im.exec(head);
  if (!spam)
    return failed(
      headerEnd < 0
        ? "spamd's answer ended before its headers did."
        : 'spamd\'s answer has no valid "Spam: True|False ; score / threshold" header.',
    );
  const body = headerEnd < 0 ? '' : text.slice(headerEnd + 4);
  return {
    score: Number(spam[2]) || 0,
    threshold: Number(spam[3]) || 0,
    isSpam: /^(true|yes)$/i.test(spam[1]),
    rules: parseReportRules(truncated ? body.slice(0, body.lastIndexOf('\n') + 1) : body),
    error: null,
  };
}

// A rule line of the report's table: "%4.1f %-22s %s" (scores of 10 or more as "%4.0f"), e.g.
// " 3.5 BAYES_99               BODY: Bayes spam probability is 99 to 100%".
const RULE_LINE = /^ {0,4}(-?\d+(?:\.\d+)?) +([A-Za-z0-9_]+)(?: +(.*))?$/;
// Wrapped descriptions continue under the description column; "[...]" lines are a rule's evidence.
const CONTINUATION = /^ {5,}(\S.*)$/;

/**
 * The rules from REPORT's text: the lines after the " ---- ----…" rule of the default template's
 * "pts rule name description" table. A site whose report template has no such table gives the
 * score and verdict without rules, rather than rules guessed from free text.
 */
export function parseReportRules(report: string): SpamAssassinReport['rules'] {
  const lines = report.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*-{3,}\s+-{3,}/.test(l));
  if (start < 0) return [];
  const rules: SpamAssassinReport['rules'] = [];
  for (const line of lines.slice(start + 1)) {
    const rule = RULE_LINE.exec(line);
    if (rule) {
      rules.push({ name: rule[2], score: Number(rule[1]) || 0, description: rule[3]?.trim() || null });
      continue;
    }
    const more = CONTINUATION.exec(line);
    if (!more || rules.length === 0) break;
    const last = rules[rules.length - 1];
    if (!more[1].startsWith('['))
      last.description = last.description ? `${last.description} ${more[1].trim()}` : more[1].trim();
  }
  return rules;
}

/**
 * What the SpamAssassin verdict costs (ADR 011), in one table. A spam verdict costs 1.5 plus 0.25
 * for each point over the threshold, at most 3: the most widely deployed open-source filter calling
 * the message spam matters, but many of its rules are the same traits the other parts already
 * deducted for (SPF_FAIL, MISSING_DATE, HTML-only), so the cap keeps one cause from being charged
 * twice in full. A score within a point under the threshold costs 0.5: receivers running a lower
 * threshold or their own Bayes data would call it spam. An unreachable spamd costs nothing.
 */
export const SPAMASSASSIN_DEDUCTIONS = {
  'spamassassin.spam': { severity: 'error', deduction: 1.5, perPointOver: 0.25, maxDeduction: 3 },
  'spamassassin.near-threshold': { severity: 'warning', deduction: 0.5 },
  'spamassassin.unavailable': { severity: 'info', deduction: 0 },
} as const satisfies Record<
  string,
  { severity: Exclude<FindingSeverity, 'pass'>; deduction: number; perPointOver?: number; maxDeduction?: number }
>;

/** Where the points of common rule families come from, so the fix points at the right place. */
const RULE_HINTS: [RegExp, string][] = [
  [/^(SPF_|DKIM_|DMARC_|T_SPF|T_DKIM)/, 'authentication (see the SPF/DKIM/DMARC findings)'],
  [/^(RCVD_IN_|RCVD_NUMERIC|RDNS_)/, "the sending IP's reputation or reverse DNS"],
  [
    /^(URIBL_|URI_|DBL_|SURBL)/,
    'a linked domain that is blocklisted or looks like spam: link only to your own reputable domains',
  ],
  [/^BAYES_/, "wording the filter's statistics associate with spam: write plainly, avoid sales clichés"],
  [/^(HTML_|MIME_|MPART_)/, 'the HTML/MIME structure: send multipart/alternative with a real text part and light HTML'],
];

export function spamAssassinFindings(report: SpamAssassinReport): AnalysisFinding[] {
  const base = { category: 'spamassassin' as const };
  if (report.error !== null || report.score === null || report.threshold === null) {
    const { severity, deduction } = SPAMASSASSIN_DEDUCTIONS['spamassassin.unavailable'];
    return [
      {
        ...base,
        id: 'spamassassin.unavailable',
        severity,
        title: 'SpamAssassin could not check the message',
        detail: `${report.error ?? 'No score was returned.'} Nothing is deducted for it.`,
        deduction,
        fix: null,
      },
    ];
  }
  const { score, threshold } = report;
  const top = report.rules
    .filter((r) => (r.score ?? 0) > 0)
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
    .slice(0, 5);
  const topText = top.map((r) => `${r.name} (+${r.score})${r.description ? ` ${r.description}` : ''}`).join('; ');
  const verdictText = `SpamAssassin scores it ${score} (spam from ${threshold})`;
  const detail = top.length > 0 ? `Rules adding the most points: ${topText}.` : 'No rule added points.';
  if (report.isSpam) {
    const rule = SPAMASSASSIN_DEDUCTIONS['spamassassin.spam'];
    const deduction =
      Math.round(
        Math.min(rule.maxDeduction, rule.deduction + rule.perPointOver * Math.max(0, score - threshold)) * 10,
      ) / 10;
    return [
      {
        ...base,
        id: 'spamassassin.spam',
        severity: rule.severity,
        title: `SpamAssassin says spam: ${score} (spam from ${threshold})`,
        detail,
        deduction,
        fix: spamFix(top),
      },
    ];
  }
  if (score >= threshold - 1) {
    const { severity, deduction } = SPAMASSASSIN_DEDUCTIONS['spamassassin.near-threshold'];
    return [
      {
        ...base,
        id: 'spamassassin.near-threshold',
        severity,
        title: `${verdictText}: close to the line`,
        detail: `${detail} Receivers with a stricter threshold or their own trained filter would call it spam.`,
        deduction,
        fix: spamFix(top),
      },
    ];
  }
  return [
    { ...base, id: 'spamassassin.not-spam', severity: 'pass', title: verdictText, detail, deduction: 0, fix: null },
  ];
}

function spamFix(top: SpamAssassinReport['rules']): string {
  if (top.length === 0) return 'Lower the score by fixing the problems the other findings list.';
  const hints = [...new Set(top.flatMap((r) => RULE_HINTS.filter(([re]) => re.test(r.name)).map(([, hint]) => hint)))];
  return `Work down the rules with the most points, starting with ${top
    .slice(0, 3)
    .map((r) => r.name)
    .join(
      ', ',
    )}; each description says what it matched.${hints.length ? ` Their points come from ${hints.join('; ')}.` : ''}`;
}
