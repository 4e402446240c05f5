import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { jsonResponse, makeUser, renderApp, signedOut, stubFetch } from '../../../test/test-utils';

/** Opens a documentation page signed out (or signed in) and waits for it. */
export async function openDocsPage(path: string, testId: string, { signedIn = false } = {}) {
  stubFetch(signedIn ? { 'GET /api/user': () => jsonResponse(makeUser()) } : signedOut);
  const app = renderApp(path);
  await screen.findByTestId(testId);
  return app;
}

/** The shared documentation header's links, by name, with where they go. */
export function headerLinks(): Record<string, string | null> {
  const nav = screen.getByRole('navigation', { name: 'Documentation' });
  return Object.fromEntries(
    within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent ?? '', link.getAttribute('href')]),
  );
}

/** Every anchor must be an element on the page and a link of the table of contents. */
export function expectAnchors(ids: string[]) {
  const toc = screen.getByRole('navigation', { name: 'On this page' });
  const hrefs = within(toc)
    .getAllByRole('link')
    .map((link) => link.getAttribute('href'));
  expect(hrefs).toEqual(ids.map((id) => `#${id}`));
  for (const id of ids) expect(document.getElementById(id), `#${id}`).not.toBeNull();
}

/** A code block of the page, by the start of its caption. */
export function codeBlock(label: string): HTMLElement {
  const block = screen
    .getAllByTestId('code-block')
    .find((figure) => figure.querySelector('figcaption')?.textContent?.startsWith(label));
  if (!block) throw new Error(`No code block ${label}`);
  return block;
}

/** The code a block shows, as the reader copies it. */
export const codeOf = (label: string) => codeBlock(label).querySelector('code')!.textContent;
