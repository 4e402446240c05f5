import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * A WAI-ARIA tab list: one tab in the Tab order (roving tabindex), Left and Right arrows move and
 * select, wrapping around. The caller renders the panel with id `panelIdOf(selected)` and
 * aria-labelledby `tabIdOf(selected)`.
 */
export function TabList<T extends string>({
  ids,
  labels,
  selected,
  onSelect,
  label,
  tabIdOf,
  panelIdOf,
  className,
  tabClassName = 'px-3 text-sm',
}: {
  ids: readonly T[];
  labels: Record<T, ReactNode>;
  selected: T;
  onSelect: (id: T) => void;
  /** The list's accessible name ("Alerts", "Example language"). */
  label: string;
  tabIdOf: (id: T) => string;
  panelIdOf: (id: T) => string;
  /** The list's layout (a grid of equal columns, or inline). */
  className: string;
  /** Padding and text size of each tab. */
  tabClassName?: string;
}) {
  const refs = useRef<Partial<Record<T, HTMLButtonElement | null>>>({});
  function onKey(event: KeyboardEvent) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = ids[(ids.indexOf(selected) + step + ids.length) % ids.length]!;
    onSelect(next);
    refs.current[next]?.focus();
  }
  return (
    <div role="tablist" aria-label={label} className={cn('gap-1 rounded-md bg-muted p-1', className)}>
      {ids.map((id) => (
        <button
          key={id}
          ref={(element) => {
            refs.current[id] = element;
          }}
          type="button"
          role="tab"
          id={tabIdOf(id)}
          aria-selected={selected === id}
          aria-controls={panelIdOf(id)}
          tabIndex={selected === id ? 0 : -1}
          onClick={() => onSelect(id)}
          onKeyDown={onKey}
          className={cn(
            'rounded-sm py-1.5 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            tabClassName,
            selected === id ? 'bg-background shadow-sm' : 'text-muted-foreground',
          )}
        >
          {labels[id]}
        </button>
      ))}
    </div>
  );
}
