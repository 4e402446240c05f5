/** part ÷ whole in percent, rounded to `decimals` places; null when there is nothing to divide by. */
export function percentOf(part: number, whole: number, decimals: number): number | null {
  if (whole <= 0) return null;
  const scale = 100 * 10 ** decimals;
  return Math.round((part / whole) * scale) / 10 ** decimals;
}
