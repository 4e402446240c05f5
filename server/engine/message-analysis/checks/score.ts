import type { AnalysisFinding } from './finding';

export const MAX_SCORE = 10;

export interface ScoreDeduction {
  id: string;
  title: string;
  deduction: number;
  fix: string | null;
}

export interface Score {
  /** 0..10 with one decimal: 10 minus every finding's deduction, rounded down (so any deduction shows), never below 0. */
  score: number;
  /** The findings that cost points, biggest first (ties keep the order the analysis reported them in). */
  deductions: ScoreDeduction[];
}

/**
 * The mail-tester style score over the findings of every analysis part. It trusts each part's
 * deduction, except that a negative or non-finite one counts as 0: a broken part must not raise
 * the score or turn it into NaN.
 */
export function scoreFindings(findings: AnalysisFinding[]): Score {
  const deductions = findings
    .map((f) => ({
      id: f.id,
      title: f.title,
      deduction: Number.isFinite(f.deduction) ? Math.max(0, f.deduction) : 0,
      fix: f.fix,
    }))
    .filter((d) => d.deduction > 0)
    .sort((a, b) => b.deduction - a.deduction);
  const lost = deductions.reduce((sum, d) => sum + d.deduction, 0);
  // Rounded down so 10 - 0.05 shows 9.9, not 10; the epsilon keeps 10 - 0.1 - 0.2 (9.6999…) at 9.7.
  const tenths = Math.floor((MAX_SCORE - lost) * 10 + 1e-6);
  return { score: Math.max(0, tenths) / 10, deductions };
}

export type Verdict = 'Excellent' | 'Good' | 'Needs work' | 'Poor';

/**
 * The score in words. 9+ is a message with at most a cosmetic problem; 7+ lands in the inbox for
 * most providers but has something worth fixing; 5+ has problems that send it to spam at some
 * providers; below 5 it is likely to be filtered almost everywhere.
 */
export function verdict(score: number): Verdict {
  if (score >= 9) return 'Excellent';
  if (score >= 7) return 'Good';
  if (score >= 5) return 'Needs work';
  return 'Poor';
}
