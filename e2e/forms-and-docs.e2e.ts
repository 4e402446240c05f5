import { afterAll, beforeAll, describe, it } from 'vitest';
import { noBrowser, startE2E, type E2E } from './support/harness';
import { expectNoHorizontalScroll } from './support/layout';

let e2e: E2E;

describe.skipIf(noBrowser)('forms and the API documentation in the browser', () => {
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('shows /api-docs with its whole reference, the Postfix API included, at 1280 and 390 px without sideways scrolling', async () => {
    for (const width of [1280, 390]) {
      const page = await e2e.newPage(width);
      await page.goto('/api-docs');
      const reference = page.getByTestId('openapi-reference');
      await reference.waitFor();
      // The longest route heading, opened: the widest thing the page draws.
      const longest = reference.locator('[data-operation="POST /v1/postfix/queue"]');
      await longest.locator('summary').click();
      await longest.getByText('Answers').waitFor();
      await expectNoHorizontalScroll(page, `/api-docs at ${width} px`);
      await e2e.screenshot(page, `api-docs-${width}`);
      await page.context().close();
    }
  });
});
