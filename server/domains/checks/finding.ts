import type { CheckStatus, Finding } from '@contracts/domains';

export const error = (message: string, fix: string | null = null): Finding => ({ severity: 'error', message, fix });
export const warning = (message: string, fix: string | null = null): Finding => ({ severity: 'warning', message, fix });
export const info = (message: string, fix: string | null = null): Finding => ({ severity: 'info', message, fix });

/** A check is invalid when any finding is an error; absence is decided by the check itself. */
export const statusOf = (findings: Finding[]): CheckStatus =>
  findings.some((f) => f.severity === 'error') ? 'invalid' : 'valid';

/** Records of a TXT set that start with the given version tag (`v=spf1`, `v=DMARC1`, …). */
export const withTag = (records: string[], tag: string) =>
  records.filter((r) => new RegExp(`^${tag}(\\s|;|$)`, 'i').test(r.trim()));

/** "the check of 2026-11-29 03:00 UTC": when a kept answer was found, said in findings. */
export const checkOf = (checkedAt: string) => `the check of ${checkedAt.slice(0, 16).replace('T', ' ')} UTC`;
