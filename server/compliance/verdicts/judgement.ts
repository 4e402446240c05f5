import type { ComplianceEvidence, ComplianceProvider, ComplianceVerdict } from '@contracts/compliance';
import type { ComplianceEvidenceData, TestMessageEvidence } from '../../insights/compliance-evidence';

/** A requirement judged for one provider: the verdict, what it rests on, and the fix when it is not met. */
export interface Judgement {
  verdict: ComplianceVerdict;
  evidence: ComplianceEvidence[];
  fix: string | null;
}

export type Judge = (data: ComplianceEvidenceData, provider: ComplianceProvider) => Judgement;

export const NO_TEST_FIX = 'Send an inbox test from the domain: its message shows what receivers see.';

export const met = (evidence: ComplianceEvidence[]): Judgement => ({ verdict: 'met', evidence, fix: null });
export const notMet = (evidence: ComplianceEvidence[], fix: string): Judgement => ({
  verdict: 'not_met',
  evidence,
  fix,
});
export const unknown = (evidence: ComplianceEvidence[], fix: string): Judgement => ({
  verdict: 'unknown',
  evidence,
  fix,
});

/** Evidence from the domain's last DNS check. */
export function dnsEvidence(data: ComplianceEvidenceData, text: string): ComplianceEvidence {
  return { source: 'dns-check', text: `DNS check: ${text}`, at: data.checks?.checkedAt ?? data.lastCheckedAt };
}

/** Evidence from an inbox-test message. */
export function testEvidence(test: TestMessageEvidence, text: string): ComplianceEvidence {
  return {
    source: 'inbox-test',
    text: `Test message of inbox test ${test.testId}: ${text}`,
    at: test.receivedAt,
    testId: test.testId,
  };
}

/** Said when nothing was found to judge by. */
export function nothingFound(text: string): ComplianceEvidence {
  return { source: 'inbox-test', text, at: null };
}

/** The newest test message From the domain that went through an SMTP session (so it was authenticated). */
export const latestTest = (data: ComplianceEvidenceData): TestMessageEvidence | undefined =>
  data.testMessages.find((t) => t.report.authentication !== null);

export const NO_TEST_MESSAGE = nothingFound('No inbox-test message From this domain has been received yet.');
