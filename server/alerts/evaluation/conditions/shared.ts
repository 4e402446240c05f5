import type { ComplianceScorecard } from '@contracts/compliance';
import type { DayVolumes } from '@contracts/figures';
import type { ConditionAlert } from '../../alert-conditions';
import type {
  DmarcDomainTotals,
  DomainFacts,
  EventWindows,
  GmailSpamDay,
  TestRow,
} from '../../../insights/alert-figures';
import type { RuleRow, ThresholdSettings } from '../evaluation.repo';

/* What every group of conditions reads and returns, and how their numbers are rounded and written. */

/** A condition, measured: `alert` when it holds; otherwise what the data says instead ("Recovered: …"). */
export interface Measured {
  key: string;
  alert: Omit<ConditionAlert, 'userId' | 'conditionKey'> | null;
  recovered: string;
}

export interface EvaluationData {
  now: Date;
  today: string;
  settings: ThresholdSettings;
  rules: RuleRow[];
  tests: TestRow[];
  metrics: DayVolumes[];
  ips: { ipAddress: string; senderScore: number | null }[];
  domains: DomainFacts[];
  dmarc: DmarcDomainTotals[];
  gmailSpam: GmailSpamDay[];
  /** The delivery events of the rules' windows, by eventWindowKey. */
  ruleEvents: Map<string, EventWindows>;
  /** Each checked domain's compliance scorecard (ADR 055). */
  compliance: ComplianceScorecard[];
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
export const pct = (part: number, whole: number, digits = 1) => round((part / whole) * 100, digits);
export const count = (n: number) => Math.round(n).toLocaleString('en-US');
