/**
 * The one shape every part of message analysis (authentication, IP reputation, content,
 * SpamAssassin) reports in, so the test page lists them together and `scoreFindings` can total them
 * without knowing which part produced what.
 */
export type AnalysisCategory = 'authentication' | 'reputation' | 'content' | 'spamassassin';

export type FindingSeverity = 'pass' | 'info' | 'warning' | 'error';

export interface AnalysisFinding {
  /** Stable machine id, `<category>.<outcome>`, e.g. 'content.no-list-unsubscribe'. The UI and tests key on it. */
  id: string;
  category: AnalysisCategory;
  severity: FindingSeverity;
  /** Plain words, shown as the row's heading. */
  title: string;
  /** What exactly was seen, when there is more to say than the title. */
  detail: string | null;
  /** Points taken off the 10-point score; 0 for pass and info. */
  deduction: number;
  /** A concrete fix; required when deduction > 0. */
  fix: string | null;
}
