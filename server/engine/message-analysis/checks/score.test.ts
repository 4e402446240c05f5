import { describe, expect, it } from 'vitest';
import type { AnalysisFinding } from './finding';
import { scoreFindings, verdict } from './score';

const finding = (
  id: string,
  deduction: number,
  severity: AnalysisFinding['severity'] = deduction > 0 ? 'warning' : 'pass',
): AnalysisFinding => ({
  id,
  category: 'content',
  severity,
  title: `title of ${id}`,
  detail: null,
  deduction,
  fix: deduction > 0 ? `fix ${id}` : null,
});

describe('scoreFindings', () => {
  it('is 10 with nothing or only passes and infos', () => {
    expect(scoreFindings([])).toEqual({ score: 10, deductions: [] });
    expect(scoreFindings([finding('a', 0), finding('b', 0, 'info')])).toEqual({ score: 10, deductions: [] });
  });

  it('takes every deduction off 10 and lists them biggest first, ties in reported order', () => {
    const result = scoreFindings([
      finding('small', 0.5),
      finding('pass', 0),
      finding('big', 1.5),
      finding('mid-1', 1),
      finding('mid-2', 1),
    ]);
    expect(result.score).toBe(6);
    expect(result.deductions).toEqual([
      { id: 'big', title: 'title of big', deduction: 1.5, fix: 'fix big' },
      { id: 'mid-1', title: 'title of mid-1', deduction: 1, fix: 'fix mid-1' },
      { id: 'mid-2', title: 'title of mid-2', deduction: 1, fix: 'fix mid-2' },
      { id: 'small', title: 'title of small', deduction: 0.5, fix: 'fix small' },
    ]);
  });

  it('keeps one decimal, rounding down so any deduction shows', () => {
    expect(scoreFindings([finding('a', 0.1), finding('b', 0.2)]).score).toBe(9.7);
    expect(scoreFindings([finding('a', 0.05)]).score).toBe(9.9);
    expect(scoreFindings([finding('a', 1.26)]).score).toBe(8.7);
  });

  it('never goes below 0', () => {
    expect(scoreFindings(Array.from({ length: 8 }, (_, i) => finding(`f${i}`, 1.5))).score).toBe(0);
  });

  it('ignores negative and non-finite deductions instead of raising the score or returning NaN', () => {
    const result = scoreFindings([
      finding('neg', -3),
      finding('nan', Number.NaN),
      finding('inf', Number.POSITIVE_INFINITY),
      finding('real', 1),
    ]);
    expect(result).toEqual({
      score: 9,
      deductions: [{ id: 'real', title: 'title of real', deduction: 1, fix: 'fix real' }],
    });
  });
});

describe('verdict', () => {
  it.each([
    [10, 'Excellent'],
    [9, 'Excellent'],
    [8.9, 'Good'],
    [7, 'Good'],
    [6.9, 'Needs work'],
    [5, 'Needs work'],
    [4.9, 'Poor'],
    [0, 'Poor'],
  ])('%d is %s', (score, words) => {
    expect(verdict(score)).toBe(words);
  });
});
