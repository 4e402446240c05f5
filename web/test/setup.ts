import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetToasts } from '../components/ui/use-toast';

// findBy*/waitFor wait for the state a test asserts; on a busy 2-core CI machine a lazy page chunk can
// take longer than the library's 1 s default to appear (5 s was seen to be too short at a load of 16 on 2
// cores), which is slowness, not a failure.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// jsdom has no layout: React Router's scroll restoration calls scrollTo, which jsdom only stubs with an error.
window.scrollTo = () => {};
