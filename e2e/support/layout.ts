import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** No horizontal scrolling: the page is no wider than the window. */
export async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${where}: ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(
    clientWidth,
  );
}
