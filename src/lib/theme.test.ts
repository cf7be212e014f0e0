// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { applyTheme, loadTheme, storeTheme, THEME_STORAGE_KEY } from './theme.ts';

describe('theme', () => {
  it('follows the system until a choice is stored, and forgets it when the system is chosen again', () => {
    localStorage.clear();
    expect(loadTheme()).toBe('system');
    storeTheme('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(loadTheme()).toBe('dark');
    storeTheme('system');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(loadTheme()).toBe('system');
  });

  it('ignores a stored value it does not know, and storage that throws', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(loadTheme()).toBe('system');
    const broken = { getItem: () => { throw new Error('denied'); } };
    expect(loadTheme(broken)).toBe('system');
  });

  it('sets data-theme and color-scheme on the root for a choice, and removes them for the system', () => {
    const root = document.createElement('html');
    applyTheme('light', root);
    expect(root.dataset['theme']).toBe('light');
    expect(root.style.colorScheme).toBe('light');
    applyTheme('system', root);
    expect(root.dataset['theme']).toBeUndefined();
    expect(root.style.colorScheme).toBe('');
  });
});
