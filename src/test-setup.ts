import { afterEach } from 'vitest';

// Vitest has no globals by default, so Testing Library cannot register its own cleanup.
afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});
