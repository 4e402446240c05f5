import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetToasts } from '../components/ui/use-toast';

// findBy*/waitFor wait for the state a test asserts; on a busy 2-core CI machine a lazy page chunk can
// take longer than the library's 1 s default to appear, which is slowness, not a failure.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// jsdom has no layout: React Router's scroll restoration calls scrollTo, which jsdom only stubs with an error.
window.scrollTo = () => {};
