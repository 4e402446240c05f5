import {
  COMPLIANCE_PROVIDERS,
  type ComplianceRequirement,
  type ComplianceRule,
  type ComplianceScorecard,
  type ComplianceSmtpReply,
} from '@contracts/compliance';
import { RULES, SOURCES } from './rule-table';
import { citedRule } from './smtp-reply-codes';
import {
  judgeDkimKeyLength,
  judgeDmarcAligned,
  judgeDmarcPublished,
  judgeSpfAndDkim,
  judgeSpfOrDkim,
} from './verdicts/authentication';
import type { ComplianceEvidenceData } from '../insights/compliance-evidence';
import type { Judge, Judgement } from './verdicts/judgement';
import { judgeMessageFormat, judgeNoImpersonation, judgeReverseDns, judgeTls } from './verdicts/message';
import { judgeSpamRate } from './verdicts/spam-rate';
import { judgeOneClickUnsubscribe } from './verdicts/unsubscribe';

const JUDGES: Record<ComplianceRequirement, Judge> = {
  'spf-or-dkim': judgeSpfOrDkim,
  'spf-and-dkim': judgeSpfAndDkim,
  'dkim-key-length': judgeDkimKeyLength,
  'dmarc-published': judgeDmarcPublished,
  'dmarc-aligned': judgeDmarcAligned,
  'reverse-dns': judgeReverseDns,
  tls: judgeTls,
  'message-format': judgeMessageFormat,
  'no-provider-impersonation': judgeNoImpersonation,
  'one-click-unsubscribe': judgeOneClickUnsubscribe,
  'spam-rate': judgeSpamRate,
};

/** The domain's scorecard: every rule of the table judged from the evidence, with the SMTP replies citing them. */
export function buildScorecard(data: ComplianceEvidenceData, now: Date): ComplianceScorecard {
  const replies = smtpReplies(data);
  const rules = RULES.map((rule): ComplianceRule => {
    const cited = replies.filter((r) => r.provider === rule.provider && r.requirement === rule.requirement);
    const judged = withReplies(JUDGES[rule.requirement](data, rule.provider), cited);
    return {
      id: `${rule.provider}:${rule.requirement}`,
      provider: rule.provider,
      requirement: rule.requirement,
      title: rule.title,
      wording: rule.wording,
      sourceUrl: SOURCES[rule.provider],
      ...judged,
    };
  });
  return {
    domainId: data.domainId,
    domain: data.domain,
    evaluatedAt: now.toISOString(),
    counts: {
      met: rules.filter((r) => r.verdict === 'met').length,
      notMet: rules.filter((r) => r.verdict === 'not_met').length,
      unknown: rules.filter((r) => r.verdict === 'unknown').length,
    },
    rules,
    smtpReplies: replies,
  };
}

/**
 * A provider's reply citing the rule is evidence too: it turns "unknown" into "not met" (the provider said so),
 * and beside a "met" verdict it shows that mail was refused for it within the evidence window.
 */
function withReplies(judged: Judgement, cited: ComplianceSmtpReply[]): Judgement {
  if (cited.length === 0) return judged;
  const evidence = [
    ...judged.evidence,
    ...cited.map((r) => ({
      source: 'smtp-replies' as const,
      text: `${r.count} ${r.count === 1 ? 'reply' : 'replies'} ${r.code} (${r.meaning}) Last: "${r.example}"`,
      at: r.lastSeenAt,
    })),
  ];
  if (judged.verdict !== 'unknown') return { ...judged, evidence };
  return { verdict: 'not_met', evidence, fix: judged.fix };
}

/** The replies that cite a rule, one entry per provider and code, in the providers' order. */
function smtpReplies(data: ComplianceEvidenceData): ComplianceSmtpReply[] {
  const byCode = new Map<string, ComplianceSmtpReply>();
  // Replies come newest first: the first of a code is its last seen.
  for (const reply of data.replies) {
    const code = citedRule(reply);
    if (!code) continue;
    const key = `${code.provider}:${code.code}`;
    const seen = byCode.get(key);
    if (seen) seen.count++;
    else
      byCode.set(key, {
        provider: code.provider,
        code: code.code,
        meaning: code.meaning,
        requirement: code.requirement,
        count: 1,
        lastSeenAt: reply.occurredAt,
        example: reply.smtpResponse,
      });
  }
  return [...byCode.values()].sort(
    (a, b) =>
      COMPLIANCE_PROVIDERS.indexOf(a.provider) - COMPLIANCE_PROVIDERS.indexOf(b.provider) ||
      a.code.localeCompare(b.code),
  );
}
