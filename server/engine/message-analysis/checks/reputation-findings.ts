import type { ConnectingIpReport } from './connecting-ip';
import type { AnalysisFinding, FindingSeverity } from './finding';

/**
 * What the connecting IP can cost, in one table (ADR 011). No PTR at all is what receivers reject
 * outright (Gmail requires forward-confirmed reverse DNS for sending IPs; many MTAs refuse mail from
 * IPs without a PTR), so 1.5; a PTR that does not resolve back is a lesser, common misconfiguration,
 * 1.0. Each blocklist listing costs 1.5 on its own, because receivers consult lists independently:
 * two listings lose mail at two sets of receivers. Lookups that failed, and list answers that are
 * not listing codes, cost nothing: they say something about DNS, not about the sender.
 */
export const REPUTATION_DEDUCTIONS = {
  'reputation.no-ptr': { severity: 'error', deduction: 1.5 },
  'reputation.ptr-not-confirmed': { severity: 'warning', deduction: 1.0 },
  'reputation.ptr-lookup-failed': { severity: 'info', deduction: 0 },
  /** One finding per list, id `reputation.blocklisted:<zone>`. */
  'reputation.blocklisted': { severity: 'error', deduction: 1.5 },
  'reputation.blocklists-unknown': { severity: 'info', deduction: 0 },
  // Reported by analyseMessage when the IP could not be checked at all.
  'reputation.unavailable': { severity: 'info', deduction: 0 },
} as const satisfies Record<string, { severity: Exclude<FindingSeverity, 'pass'>; deduction: number }>;

export type ReputationProblemId = keyof typeof REPUTATION_DEDUCTIONS;

function problem(
  kind: ReputationProblemId,
  title: string,
  detail: string | null,
  fix: string | null,
  id: string = kind,
): AnalysisFinding {
  const { severity, deduction } = REPUTATION_DEDUCTIONS[kind];
  return { id, category: 'reputation', severity, title, detail, deduction, fix };
}

function pass(id: string, title: string, detail: string | null = null): AnalysisFinding {
  return { id, category: 'reputation', severity: 'pass', title, detail, deduction: 0, fix: null };
}

/** Reverse DNS and blocklist results for the IP that delivered the message. */
export function connectingIpFindings(report: ConnectingIpReport): AnalysisFinding[] {
  return [...reverseDnsFindings(report), ...blocklistFindings(report)];
}

/** The IP could not be checked (no valid address in the envelope, or the check failed): shown, not scored. */
export function connectingIpUnavailable(ip: string, reason: string): AnalysisFinding {
  return problem(
    'reputation.unavailable',
    'The sending IP could not be checked',
    `${ip ? `IP ${ip}: ` : ''}${reason} Reverse DNS and blocklists are not part of this score.`,
    null,
  );
}

function reverseDnsFindings({
  ip,
  reverseDns,
  confirmedName,
  reverseDnsFailed,
}: ConnectingIpReport): AnalysisFinding[] {
  const setPtr = `Ask whoever controls ${ip} (your ESP, hosting provider or ISP) to set its PTR record to a hostname in your domain, such as mail.<your-domain>, and publish an ${ip.includes(':') ? 'AAAA' : 'A'} record for that hostname pointing back to ${ip}.`;
  if (reverseDnsFailed) {
    return [
      problem(
        'reputation.ptr-lookup-failed',
        `The reverse DNS of ${ip} could not be looked up`,
        'The PTR lookup failed (timeout or server failure), which may be on our side; it is not counted.',
        null,
      ),
    ];
  }
  if (reverseDns.length === 0) {
    return [
      problem(
        'reputation.no-ptr',
        `${ip} has no reverse DNS (PTR) record`,
        'Gmail requires sending IPs to have forward-confirmed reverse DNS, and many receivers refuse mail from IPs without a PTR name.',
        setPtr,
      ),
    ];
  }
  if (!confirmedName) {
    const names = reverseDns.slice(0, 5).join(', ');
    return [
      problem(
        'reputation.ptr-not-confirmed',
        `The reverse DNS of ${ip} does not point back to it`,
        `PTR: ${names}; no name resolves back to ${ip}. Receivers trust forward-confirmed reverse DNS (PTR and A/AAAA agreeing) and distrust the rest.`,
        setPtr,
      ),
    ];
  }
  return [
    pass(
      'reputation.ptr-confirmed',
      `${ip} has forward-confirmed reverse DNS`,
      `PTR ${confirmedName} resolves back to ${ip}.`,
    ),
  ];
}

function blocklistFindings({ ip, blocklists }: ConnectingIpReport): AnalysisFinding[] {
  const findings: AnalysisFinding[] = [];
  for (const list of blocklists.filter((b) => b.status === 'listed')) {
    findings.push(
      problem(
        'reputation.blocklisted',
        `${ip} is listed on ${list.list}`,
        `${list.list} (${list.zone}): ${list.reason ?? 'listed'}.`,
        delistFix(list.reason ?? '', list.lookupUrl),
        `reputation.blocklisted:${list.zone}`,
      ),
    );
  }
  const unknown = blocklists.filter((b) => b.status === 'unknown');
  if (unknown.length > 0) {
    // A refused or failed query is never a listing (DESIGN.md, known traps).
    findings.push(
      problem(
        'reputation.blocklists-unknown',
        `${unknown.length} blocklist${unknown.length === 1 ? '' : 's'} could not be checked`,
        `${unknown.map((b) => `${b.list}: ${b.reason ?? 'no usable answer'}`).join(' ')} These are not counted as listings.`,
        null,
      ),
    );
  }
  const answered = blocklists.filter((b) => b.status !== 'unknown');
  if (answered.length > 0 && answered.every((b) => b.status === 'clear')) {
    findings.push(
      pass(
        'reputation.not-blocklisted',
        `${ip} is on none of the ${answered.length} blocklists checked`,
        answered.map((b) => b.list).join(', '),
      ),
    );
  }
  return findings;
}

function delistFix(reason: string, lookupUrl: string): string {
  // Spamhaus PBL is policy, not a spam report: the address should not send directly at all.
  if (/^PBL\b/.test(reason)) {
    return `This is an end-user (dynamic or residential) address: send through your ESP or your provider's mail server instead of directly. If it really is your mail server's static IP, request removal at ${lookupUrl}.`;
  }
  return `Find and stop the cause first (an infected or compromised machine or account, a form that lets bots send, or mail to old, bought or scraped addresses that hit spam traps), then request removal at ${lookupUrl}.`;
}
