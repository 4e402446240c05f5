import type { AuthenticationResults } from './authentication';
import type { AnalysisFinding, FindingSeverity } from './finding';

/**
 * Every authentication outcome that can cost points, with its severity and deduction, in one table
 * (ADR 011 explains the amounts). Judged as a receiver applying Gmail's and Yahoo's 2024 sender
 * rules would: SPF and DKIM for every sender, DMARC with an aligned pass for bulk senders.
 *
 * 2.0 for what gets mail rejected or junked on its own (SPF fail, no working DKIM, a 512-bit key
 * receivers ignore); 2.5 for a DMARC failure the domain itself asks receivers to quarantine or
 * reject, and for a message without exactly one From header field (RFC 5322 3.6 allows one;
 * Gmail rejects such mail as not RFC 5322 compliant whatever else passes, so it blocks delivery
 * like a DMARC reject; it also leaves DMARC unevaluated, charged here and not again); 1.5 for a
 * missing or broken record that a 2024 rule requires (no SPF, SPF permerror, no DMARC or a DMARC
 * record receivers cannot use) and a DMARC failure under p=none; 1.0 for softfail, no aligned DKIM, an SPF pass that
 * proves nothing because the record allows every IP (+all: anyone passes as the domain), or one From field with no or
 * several addresses (RFC 5322 allows several with a Sender field, but DMARC cannot evaluate it);
 * 0.5 for weak-but-accepted states (neutral, 1024-bit key) and lookups that failed, since those
 * may be our DNS as much as the sender's; 0.2 for p=none, compliant but unprotected. A root cause
 * is counted once: several failing DKIM signatures cost one failure, a failing signature beside
 * one that verifies costs nothing, and DMARC's deduction is the policy consequence on top of the
 * SPF/DKIM causes, so "no DKIM + SPF fail + no DMARC" lands at 4.5 (Poor).
 */
export const AUTH_DEDUCTIONS = {
  'authentication.spf-none': { severity: 'error', deduction: 1.5 },
  'authentication.spf-fail': { severity: 'error', deduction: 2.0 },
  'authentication.spf-softfail': { severity: 'warning', deduction: 1.0 },
  'authentication.spf-neutral': { severity: 'warning', deduction: 0.5 },
  'authentication.spf-permerror': { severity: 'error', deduction: 1.5 },
  'authentication.spf-temperror': { severity: 'warning', deduction: 0.5 },
  'authentication.spf-allows-all': { severity: 'warning', deduction: 1.0 },
  'authentication.dkim-none': { severity: 'error', deduction: 2.0 },
  'authentication.dkim-fail': { severity: 'error', deduction: 2.0 },
  'authentication.dkim-weak-key': { severity: 'error', deduction: 2.0 },
  'authentication.dkim-temperror': { severity: 'warning', deduction: 0.5 },
  'authentication.dkim-extra-fail': { severity: 'info', deduction: 0 },
  'authentication.dkim-1024-bit-key': { severity: 'warning', deduction: 0.5 },
  'authentication.dkim-not-aligned': { severity: 'warning', deduction: 1.0 },
  'authentication.dmarc-none': { severity: 'error', deduction: 1.5 },
  'authentication.dmarc-permerror': { severity: 'error', deduction: 1.5 },
  'authentication.dmarc-fail': { severity: 'error', deduction: 1.5 },
  'authentication.dmarc-fail-enforced': { severity: 'error', deduction: 2.5 },
  'authentication.dmarc-policy-none': { severity: 'warning', deduction: 0.2 },
  'authentication.dmarc-temperror': { severity: 'warning', deduction: 0.5 },
  'authentication.dmarc-not-evaluated': { severity: 'error', deduction: 1.0 },
  // Blocking: Gmail and others reject such mail outright, so on its own it takes a clean message below the inbox
  // cut-off (5).
  'authentication.from-fields': { severity: 'error', deduction: 5.5 },
  'authentication.arc': { severity: 'info', deduction: 0 },
  'authentication.bimi': { severity: 'info', deduction: 0 },
  // Reported by analyseMessage, not judged from results: our limits, not the sender's, so they cost nothing.
  'authentication.not-checked': { severity: 'info', deduction: 0 },
  'authentication.unavailable': { severity: 'error', deduction: 0 },
} as const satisfies Record<string, { severity: Exclude<FindingSeverity, 'pass'>; deduction: number }>;

export type AuthProblemId = keyof typeof AUTH_DEDUCTIONS;

function problem(id: AuthProblemId, title: string, detail: string | null, fix: string | null): AnalysisFinding {
  const { severity, deduction } = AUTH_DEDUCTIONS[id];
  return { id, category: 'authentication', severity, title, detail, deduction, fix };
}

function pass(id: string, title: string, detail: string | null = null): AnalysisFinding {
  return { id, category: 'authentication', severity: 'pass', title, detail, deduction: 0, fix: null };
}

type Results = AuthenticationResults;
type Signature = Results['dkim'][number];

/** SPF, DKIM, DMARC, ARC and BIMI as pass findings and problems with their deductions and fixes. */
/**
 * `reportAddress`: where users are told to send DMARC reports (dmarc@INBOUND_DOMAIN, what every screen
 * gives); null leaves a placeholder in the fix.
 */
export function authenticationFindings(results: Results, reportAddress: string | null = null): AnalysisFinding[] {
  const fromDomain = domainOf(results.headerFrom.length === 1 ? results.headerFrom[0] : null);
  return [
    ...spfFindings(results.spf),
    ...dkimFindings(results, fromDomain),
    ...fromFindings(results),
    ...dmarcFindings(results, fromDomain, reportAddress),
    ...arcFindings(results.arc),
    ...bimiFindings(results.bimi, results.dmarc?.domain ?? fromDomain),
  ];
}

/** Why the analysis could not authenticate (mailauth threw): shown, not scored, nothing invented. */
export function authenticationUnavailable(err: unknown): AnalysisFinding {
  return problem(
    'authentication.unavailable',
    'SPF, DKIM and DMARC could not be checked',
    `The authentication check failed: ${err instanceof Error ? err.message : String(err)}. No result is shown rather than a guessed one, and nothing is deducted for it.`,
    null,
  );
}

/** A simulated message has no SMTP session, so there is nothing to check SPF or the IP against. */
export function authenticationNotChecked(): AnalysisFinding {
  return problem(
    'authentication.not-checked',
    'SPF, DKIM, DMARC and the sending IP were not checked',
    'This message was simulated, not sent: without a real SMTP session there is no connecting IP, HELO or MAIL FROM to judge SPF, DMARC alignment or IP reputation by. The score covers content (and SpamAssassin when configured) only.',
    'Send the message to the test address through your real sending setup (your ESP or mail server) to have SPF, DKIM, DMARC and the sending IP checked.',
  );
}

const domainOf = (address: string | null | undefined): string | null => {
  const at = address?.lastIndexOf('@') ?? -1;
  return address && at >= 0 ? address.slice(at + 1).toLowerCase() || null : null;
};

function spfFindings(spf: Results['spf']): AnalysisFinding[] {
  const domain = spf.domain ?? 'your Return-Path (MAIL FROM) domain';
  const ip =
    /designates? (\S+) as permitted/.exec(spf.comment ?? '')?.[1] ??
    /(\S+) is neither permitted/.exec(spf.comment ?? '')?.[1] ??
    '<sending IP>';
  const seen = [spf.record && `Record: ${spf.record}`, spf.comment].filter(Boolean).join(' — ') || null;
  const listIt = `Authorise the sending IP in the SPF record of ${domain}: add include:<your ESP's SPF domain> if an ESP sends for you, or ip4:${ip} for your own server, e.g. "v=spf1 include:<your ESP's SPF domain> ip4:${ip} -all".`;
  switch (spf.result) {
    case 'pass': {
      const findings = [pass('authentication.spf-pass', `SPF passes for ${domain}`, seen)];
      const everyone = allowsEveryIp(spf.record);
      if (everyone) {
        findings.push(
          problem(
            'authentication.spf-allows-all',
            `The SPF pass proves nothing: ${domain} allows every IP (${everyone})`,
            `${spf.record ? `Record: ${spf.record}. ` : ''}"${everyone}" authorises the whole internet to send as ${domain}, so any server passes SPF for it, a forger's too, and an SPF-aligned DMARC pass means nothing either.`,
            `Replace ${everyone} with -all or ~all after listing your senders: "v=spf1 include:<your ESP's SPF domain> ip4:${ip} -all".`,
          ),
        );
      }
      return findings;
    }
    case 'none':
      return [
        problem(
          'authentication.spf-none',
          `${domain} has no SPF record`,
          'Gmail and Yahoo require SPF or DKIM from every sender and both from bulk senders; without SPF any server can claim to send for the domain.',
          `Publish a TXT record at ${domain}: "v=spf1 include:<your ESP's SPF domain> -all" (add ip4:${ip} if you send from your own server).`,
        ),
      ];
    case 'fail':
      return [
        problem('authentication.spf-fail', `SPF fails: ${ip} is not allowed to send for ${domain}`, seen, listIt),
      ];
    case 'softfail':
      return [
        problem(
          'authentication.spf-softfail',
          `SPF soft-fails: ${ip} is not listed for ${domain}`,
          seen,
          `${listIt} Receivers treat ~all for an unlisted IP as suspicious.`,
        ),
      ];
    case 'neutral':
      return [
        problem(
          'authentication.spf-neutral',
          `SPF is neutral about ${ip}`,
          `${seen ?? ''} The record neither allows nor denies this IP (?all), which gives receivers nothing to trust.`.trim(),
          `${listIt} End the record with -all (or ~all) rather than ?all.`,
        ),
      ];
    case 'permerror':
      return [
        problem(
          'authentication.spf-permerror',
          `The SPF record of ${domain} is broken`,
          seen,
          `Fix the record at ${domain} so it is one "v=spf1 …" TXT record with valid syntax and at most 10 DNS-querying terms (include, a, mx, ptr, exists, redirect); replace nested includes with ip4/ip6 ranges if you are over the limit. Receivers treat a broken record as no SPF.`,
        ),
      ];
    default:
      return [
        problem(
          'authentication.spf-temperror',
          `SPF of ${domain} could not be checked (${spf.result})`,
          seen,
          `Make sure the DNS servers of ${domain} answer TXT queries reliably and quickly, then run the test again; receivers defer or distrust mail whose SPF lookup fails.`,
        ),
      ];
  }
}

/**
 * The term that lets every IP pass an SPF record: its `all` when the qualifier is + (the default),
 * or a + range that covers every address. Terms after `all` are never reached. Only the record
 * itself is read, not the records it includes or redirects to.
 */
function allowsEveryIp(record: string | null): string | null {
  for (const term of record?.trim().split(/\s+/).slice(1) ?? []) {
    if (/^[-~?+]?all$/i.test(term)) return /^\+?all$/i.test(term) ? term : null;
    if (/^\+?(?:ip4:0\.0\.0\.0\/0|ip6:::\/0)$/i.test(term)) return term;
  }
  return null;
}

/** Why a signature failed, and what fixes that particular failure. */
function dkimFailure(sig: Signature): { id: AuthProblemId; why: string; fix: string } {
  const key = `${sig.selector ?? '<selector>'}._domainkey.${sig.domain}`;
  const comment = sig.comment ?? '';
  if (sig.result === 'policy') {
    return {
      id: 'authentication.dkim-weak-key',
      why: `the key at ${key} is shorter than 1024 bits, which receivers ignore`,
      fix: `Sign with a 2048-bit RSA key: generate a new key pair, publish its public key under a new selector (e.g. s2048._domainkey.${sig.domain}), switch signing to it, then remove the old record.`,
    };
  }
  if (sig.result === 'temperror') {
    return {
      id: 'authentication.dkim-temperror',
      why: `the key at ${key} could not be looked up (${comment || 'DNS failure'})`,
      fix: `Make sure the DNS servers of ${sig.domain} answer TXT queries for ${key} reliably, then run the test again.`,
    };
  }
  if (/body hash/i.test(comment)) {
    return {
      id: 'authentication.dkim-fail',
      why: 'the body hash did not verify: the body changed after it was signed',
      fix: 'Sign as the very last step: something after the signer changed the body (a footer or disclaimer added by a gateway or mailing list, link rewriting, line re-wrapping or re-encoding). Have that system sign after its change, or stop it from changing the body.',
    };
  }
  if (/revoked/i.test(comment)) {
    return {
      id: 'authentication.dkim-fail',
      why: `the key at ${key} is revoked (empty p=)`,
      fix: `An empty p= withdraws a key (RFC 6376 3.6.1), so everything still signed with it fails. Sign with the selector whose key is published now, or publish a new 2048-bit key under a new selector (e.g. "v=DKIM1; k=rsa; p=<base64 public key>" at s2._domainkey.${sig.domain}) and switch signing to it.`,
    };
  }
  if (/no key/i.test(comment)) {
    return {
      id: 'authentication.dkim-fail',
      why: `there is no public key at ${key}`,
      fix: `Publish the public key as a TXT record at ${key}: "v=DKIM1; k=rsa; p=<base64 public key>" (your ESP or MTA shows the exact value).`,
    };
  }
  if (/invalid public key|unknown key/i.test(comment)) {
    return {
      id: 'authentication.dkim-fail',
      why: `the TXT record at ${key} is not a valid DKIM key (${comment})`,
      fix: `Republish the record at ${key} exactly as your ESP or MTA gives it: "v=DKIM1; k=rsa; p=<base64 public key>", one record, long keys split into several quoted strings.`,
    };
  }
  if (/expir/i.test(comment)) {
    return {
      id: 'authentication.dkim-fail',
      why: `the signature has expired (${comment})`,
      fix: 'Sign without an expiry (x=) or with one several days after sending, so retried and delayed deliveries still verify.',
    };
  }
  return {
    id: 'authentication.dkim-fail',
    why: comment ? `it did not verify (${comment})` : `it did not verify (${sig.result})`,
    fix: `Check that the private key used for signing matches the public key at ${key}, and that nothing rewrites signed headers (From, Subject, To, Date) after signing.`,
  };
}

function dkimFindings(results: Results, fromDomain: string | null): AnalysisFinding[] {
  // mailauth reports an unsigned message as one pseudo-signature without a domain.
  const signatures = results.dkim.filter((s) => typeof s.domain === 'string' && s.domain !== '');
  const from = fromDomain ?? 'your From domain';
  if (signatures.length === 0) {
    return [
      problem(
        'authentication.dkim-none',
        'The message has no DKIM signature',
        'Gmail and Yahoo require DKIM from bulk senders; without it the domain builds no reputation and DMARC can only rely on SPF, which breaks when mail is forwarded.',
        `Sign every message with DKIM for ${from}: enable DKIM ("domain authentication") at your ESP or in your MTA with a 2048-bit RSA key and publish its public key at <selector>._domainkey.${from}.`,
      ),
    ];
  }
  const label = (s: Signature) => `${s.domain}${s.selector ? ` (selector ${s.selector})` : ''}`;
  const passing = signatures.filter((s) => s.result === 'pass');
  const failures = signatures.filter((s) => s.result !== 'pass').map((s) => ({ sig: s, ...dkimFailure(s) }));
  const findings: AnalysisFinding[] = passing.map((s) =>
    pass(
      'authentication.dkim-pass',
      `DKIM signature by ${s.domain} verifies`,
      `${label(s)}${s.algorithm ? `, ${s.algorithm}` : ''}${s.keyBits ? `, ${s.keyBits}-bit key` : ''}${s.aligned ? ', aligned with the From domain' : ''}.`,
    ),
  );

  // One root cause, one deduction: the worst failure counts only when no signature verifies.
  const counted =
    passing.length > 0
      ? null
      : failures.reduce<(typeof failures)[number] | null>(
          (worst, f) => (!worst || AUTH_DEDUCTIONS[f.id].deduction > AUTH_DEDUCTIONS[worst.id].deduction ? f : worst),
          null,
        );
  for (const f of failures) {
    if (f === counted) {
      const title =
        f.id === 'authentication.dkim-weak-key'
          ? `The DKIM key of ${f.sig.domain} is too short`
          : f.id === 'authentication.dkim-temperror'
            ? `The DKIM signature by ${f.sig.domain} could not be checked`
            : /revoked/i.test(f.sig.comment ?? '')
              ? `The DKIM key for selector ${f.sig.selector ?? '<selector>'}._domainkey.${f.sig.domain} is revoked (empty p=)`
              : `The DKIM signature by ${f.sig.domain} does not verify`;
      findings.push(
        problem(f.id, title, `${label(f.sig)}: ${f.why}. No DKIM signature on the message verifies.`, f.fix),
      );
    } else {
      const context =
        passing.length > 0
          ? 'Another signature verifies, so receivers judge DKIM by that one'
          : 'The DKIM failure is counted once, above';
      findings.push(
        problem(
          'authentication.dkim-extra-fail',
          `A second DKIM signature, by ${f.sig.domain}, does not verify`,
          `${label(f.sig)}: ${f.why}. ${context}.`,
          f.fix,
        ),
      );
    }
  }

  for (const s of passing.filter((p) => p.keyBits !== null && p.keyBits < 2048)) {
    findings.push(
      problem(
        'authentication.dkim-1024-bit-key',
        `The DKIM key of ${s.domain} is only ${s.keyBits} bits`,
        `${label(s)}. Receivers still accept keys of 1024 bits and more, but keys under 2048 bits are no longer considered safe against forgery.`,
        `Rotate to a 2048-bit RSA key: publish it under a new selector at <new selector>._domainkey.${s.domain}, switch signing to it, then remove the old record.`,
      ),
    );
  }
  // Each signature's alignment is DMARC's (authentication.ts): adkim=s when the record says so, relaxed otherwise.
  if (passing.length > 0 && !passing.some((s) => s.aligned)) {
    const signers = [...new Set(passing.map((s) => s.domain))].join(', ');
    findings.push(
      problem(
        'authentication.dkim-not-aligned',
        `DKIM passes only for ${signers}, not for ${from}`,
        "DMARC needs a signature by the From domain (or a domain it shares an organisation with); a signature by your ESP's domain builds their reputation, not yours, and does not survive forwarding for DMARC.",
        `Set up custom DKIM ("domain authentication") at your ESP so messages are signed with d=${from}, and publish the key it gives you at <selector>._domainkey.${from}.`,
      ),
    );
  }
  return findings;
}

/**
 * RFC 5322 3.6 allows exactly one From header field. Two fields (each perhaps with one address) or
 * none is a malformed message Gmail rejects, and the trick by which a forged From hides behind a
 * genuine one; it is charged here, once, and not again as a DMARC that could not be evaluated.
 */
function fromFindings(results: Results): AnalysisFinding[] {
  const fields = results.fromHeaderFields;
  if (fields === 1) return [];
  return [
    fields === 0
      ? problem(
          'authentication.from-fields',
          'The message has no From header field',
          'RFC 5322 (3.6) requires exactly one From field; Gmail rejects messages without one, and DMARC cannot be checked without a From domain.',
          'Add one From header field with an address at the domain whose SPF and DKIM you set up, e.g. "From: Brand <news@your-domain>".',
        )
      : problem(
          'authentication.from-fields',
          `The message has ${fields} From header fields`,
          `RFC 5322 (3.6) allows exactly one From field; Gmail rejects messages with more than one as not RFC 5322 compliant, and receivers cannot tell which author to show or evaluate DMARC for${results.headerFrom.length > 0 ? ` (${results.headerFrom.join(', ')})` : ''}.`,
          'Send with exactly one From header field: find what adds the other one (a template or script that writes its own From besides the one your sending library sets, or a gateway that adds one) and remove it.',
        ),
  ];
}

function dmarcFindings(results: Results, fromDomain: string | null, reportAddress: string | null): AnalysisFinding[] {
  const dmarc = results.dmarc;
  if (!dmarc) {
    // Without exactly one From field, fromFindings has charged the cause already.
    if (results.fromHeaderFields !== 1) return [];
    const count = results.headerFrom.length;
    return [
      problem(
        'authentication.dmarc-not-evaluated',
        count === 0
          ? 'The message has no From address, so DMARC cannot be checked'
          : `The From header has ${count} addresses, so DMARC cannot be checked`,
        count === 0
          ? 'The From field holds no address, and DMARC needs exactly one; Gmail rejects messages without a valid From address.'
          : "RFC 5322 allows several authors in one From field (with a Sender field naming the one who sent it), but DMARC needs exactly one From address, so receivers cannot apply your domain's policy.",
        'Send with exactly one address in the From header, at the domain whose SPF and DKIM you set up.',
      ),
    ];
  }
  const domain = dmarc.domain ?? fromDomain ?? 'your From domain';
  const publish = `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; rua=mailto:${reportAddress ?? '<your InboxPulse report address>'}" (the address sends its aggregate reports to InboxPulse), read the reports, then move to p=quarantine and p=reject once all your mail passes.`;
  const where = {
    'organizational-domain': 'the Organizational Domain’s',
    'public-suffix-domain': 'a public suffix domain’s (psd=y)',
  } as const;
  const record = !dmarc.record
    ? null
    : dmarc.policyDomain && dmarc.policySource && dmarc.policySource !== 'author-domain'
      ? `Record (at _dmarc.${dmarc.policyDomain}, ${where[dmarc.policySource]}, found by the DNS tree walk): ${dmarc.record}.`
      : `Record: ${dmarc.record}.`;
  const alignedBy = [dmarc.spfAligned && 'SPF', dmarc.dkimAligned && 'DKIM'].filter(Boolean).join(' and ');
  const from = fromDomain ?? domain;
  const strict = [dmarc.adkim === 's' && 'adkim=s', dmarc.aspf === 's' && 'aspf=s'].filter(Boolean);
  const signWith =
    dmarc.adkim === 's'
      ? `sign with d=${from} exactly (adkim=s: a subdomain’s signature does not align)`
      : `sign with d=${from} (custom DKIM at your ESP)`;
  const mailFrom =
    dmarc.aspf === 's'
      ? `send with a Return-Path (MAIL FROM) at ${from} itself (aspf=s) whose SPF record lists the sending IP`
      : `use a Return-Path (MAIL FROM) domain under ${domain} whose SPF record lists the sending IP`;
  const makeAligned = `Make SPF or DKIM pass aligned with ${from}: ${signWith}, and/or ${mailFrom}.`;
  switch (dmarc.result) {
    case 'pass': {
      const findings = [pass('authentication.dmarc-pass', `DMARC passes for ${domain} (aligned ${alignedBy})`, record)];
      if (dmarc.policy === 'none') {
        const raise = dmarc.testing
          ? `Once your DMARC reports show all legitimate mail passes, remove t=y at _dmarc.${dmarc.policyDomain ?? domain} so receivers apply the policy as published.`
          : `Once your DMARC reports show all legitimate mail passes, raise the policy at _dmarc.${domain} to p=quarantine, then p=reject.`;
        findings.push(
          problem(
            'authentication.dmarc-policy-none',
            dmarc.testing ? 'The DMARC policy is in testing mode (t=y), applied as none' : 'The DMARC policy is p=none',
            `${record ?? ''} ${dmarc.testing ? 'Under t=y receivers apply one level below the published policy, here none' : 'p=none'} meets Gmail's and Yahoo's requirement but asks receivers to do nothing with mail that fails, so the domain can still be spoofed, and BIMI logos need p=quarantine or p=reject.`.trim(),
            raise,
          ),
        );
      }
      return findings;
    }
    case 'none':
      return [
        problem(
          'authentication.dmarc-none',
          `${domain} has no DMARC record`,
          'Gmail and Yahoo require a DMARC record (at least p=none) from bulk senders since 2024.',
          publish,
        ),
      ];
    case 'fail': {
      const enforced = dmarc.policy === 'reject' || dmarc.policy === 'quarantine';
      const detail = [
        record,
        `Neither SPF nor DKIM passed for a domain aligned with ${from}${strict.length > 0 ? ` under strict alignment (${strict.join(', ')}): only ${from} itself aligns, not its subdomains` : ''}.`,
        enforced
          ? `The domain's own policy (${dmarc.policy}) asks receivers to ${dmarc.policy === 'reject' ? 'reject' : 'junk'} such mail.`
          : null,
      ]
        .filter(Boolean)
        .join(' ');
      return [
        problem(
          enforced ? 'authentication.dmarc-fail-enforced' : 'authentication.dmarc-fail',
          `DMARC fails for ${domain}`,
          detail,
          makeAligned,
        ),
      ];
    }
    case 'permerror':
      return [
        problem(
          'authentication.dmarc-permerror',
          `The DMARC record of ${domain} is not usable`,
          `${record ?? ''} Its p= (or sp=, np=) is not none, quarantine or reject and it has no valid rua= address, so receivers apply no DMARC processing (RFC 9989 4.10.1): for them the domain has no DMARC.`.trim(),
          `Fix the record at _dmarc.${dmarc.policyDomain ?? domain}: set p=none, p=quarantine or p=reject (and fix or remove sp= and np=), e.g. "v=DMARC1; p=none; rua=mailto:${reportAddress ?? '<your InboxPulse report address>'}".`,
        ),
      ];
    default:
      return [
        problem(
          'authentication.dmarc-temperror',
          `DMARC of ${domain} could not be checked (${dmarc.result})`,
          record,
          `Make sure the DNS servers of ${domain} and its parent domains answer TXT queries for their _dmarc names reliably, then run the test again.`,
        ),
      ];
  }
}

function arcFindings(arc: Results['arc']): AnalysisFinding[] {
  // ARC only speaks for mail that was forwarded; a direct test message normally has none.
  if (!arc || arc.result === 'none') return [];
  return [
    problem(
      'authentication.arc',
      `ARC chain: ${arc.result}${arc.instance ? ` (${arc.instance} hop${arc.instance === 1 ? '' : 's'})` : ''}`,
      'ARC records authentication results across forwarding hops; receivers may use a trusted chain to accept forwarded mail whose SPF or DKIM broke on the way. It does not affect direct mail.',
      null,
    ),
  ];
}

function bimiFindings(bimi: Results['bimi'], domain: string | null): AnalysisFinding[] {
  if (!bimi) return [];
  if (bimi.result === 'pass') return [pass('authentication.bimi-pass', 'A BIMI logo is published', bimi.logo)];
  const d = domain ?? 'your-domain';
  const howTo = `Optional, for a logo next to your mail: with DMARC at p=quarantine or p=reject, publish a TXT record at default._bimi.${d}: "v=BIMI1; l=https://${d}/logo.svg; a=https://${d}/vmc.pem" (Gmail and Apple Mail also need a VMC or CMC certificate).`;
  const title =
    bimi.result === 'none'
      ? 'No BIMI record'
      : bimi.result === 'skipped'
        ? 'BIMI does not apply to this message'
        : `BIMI: ${bimi.result}`;
  return [
    problem(
      'authentication.bimi',
      title,
      bimi.comment ?? 'BIMI shows your logo in supporting inboxes; it does not affect delivery.',
      howTo,
    ),
  ];
}
