/** A registration changes hands rarely: a month between look-ups is plenty. */
export const REFRESH_DAYS = 30;
