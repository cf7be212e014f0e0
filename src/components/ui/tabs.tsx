import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<Id extends string> {
  id: Id;
  label: string;
}

/**
 * A tab list as the ARIA authoring practices describe it: one tab stop (the selected tab), arrow keys,
 * Home and End move between tabs and select them, each panel is labelled by its tab. Panels stay mounted
 * once shown (a half-made share link survives a look at another tab); `render` is called for the selected
 * tab and for tabs shown before.
 */
export function Tabs<Id extends string>({ label, tabs, selected, onSelect, render, shown }: {
  label: string;
  tabs: ReadonlyArray<TabDef<Id>>;
  selected: Id;
  onSelect: (id: Id) => void;
  render: (id: Id) => ReactNode;
  /** Tabs whose panel has been shown (kept mounted, hidden). */
  shown: ReadonlySet<Id>;
}) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const tab = tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    listRef.current?.querySelector<HTMLElement>(`[data-tab="${tab.id}"]`)?.focus();
  };
  return (
    <>
      <div ref={listRef} role="tablist" aria-label={label} className="tabs">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            data-tab={tab.id}
            aria-selected={tab.id === selected}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(tab.id)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) =>
        tab.id === selected || shown.has(tab.id) ? (
          <div
            key={tab.id}
            role="tabpanel"
            id={`${base}-panel-${tab.id}`}
            aria-labelledby={`${base}-tab-${tab.id}`}
            hidden={tab.id !== selected}
            tabIndex={0}
            className="tabs__panel"
          >
            {render(tab.id)}
          </div>
        ) : null,
      )}
    </>
  );
}
