import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetToasts } from '../components/ui/use-toast';

afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// jsdom has no layout: React Router's scroll restoration calls scrollTo, which jsdom only stubs with an error.
window.scrollTo = () => {};
