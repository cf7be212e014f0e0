// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SkeletonRows } from './spinner.tsx';

describe('SkeletonRows', () => {
  it('is one status announced by its label, with the bars hidden from assistive technology', () => {
    const { container } = render(<SkeletonRows label="Loading…" columns={3} rows={2} />);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    expect(container.querySelectorAll('.skeleton__row[aria-hidden="true"]')).toHaveLength(2);
    expect(container.querySelectorAll('.skeleton__cell')).toHaveLength(6);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
