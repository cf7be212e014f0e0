// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FILTER_DEBOUNCE_MS, useUrlDraft } from './use-url-draft.ts';

function Field({ url, commit }: { url: string; commit: (value: string) => void }) {
  const [value, setValue] = useUrlDraft(url, commit);
  return <input aria-label="filter" value={value} onChange={(e) => setValue(e.target.value)} />;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useUrlDraft', () => {
  it('hands the typed text over once typing pauses, not on every key, and not before', () => {
    const commit = vi.fn<(value: string) => void>();
    render(<Field url="" commit={commit} />);
    const input = screen.getByLabelText<HTMLInputElement>('filter');
    fireEvent.change(input, { target: { value: 'ph' } });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS - 1));
    expect(commit).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(commit).toHaveBeenCalledExactlyOnceWith('ph');
  });

  it("a re-render with a new callback does not restart the pause", () => {
    const calls: string[] = [];
    const { rerender } = render(<Field url="" commit={(v) => calls.push(`a:${v}`)} />);
    const input = screen.getByLabelText<HTMLInputElement>('filter');
    fireEvent.change(input, { target: { value: 'x' } });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS / 2));
    rerender(<Field url="" commit={(v) => calls.push(`b:${v}`)} />);
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS / 2));
    expect(calls).toEqual(['b:x']);
  });

  it('when the URL value changes from outside, it wins over the draft', () => {
    const commit = vi.fn<(value: string) => void>();
    const { rerender } = render(<Field url="a/" commit={commit} />);
    const input = screen.getByLabelText<HTMLInputElement>('filter');
    fireEvent.change(input, { target: { value: 'a/b' } });
    expect(input.value).toBe('a/b');
    rerender(<Field url="c/" commit={commit} />);
    expect(input.value).toBe('c/');
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS * 2));
    expect(commit).not.toHaveBeenCalled();
  });
});
