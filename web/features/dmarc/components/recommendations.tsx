import { Lightbulb } from 'lucide-react';

/** The server's advice, in the order to act on it. */
export function Recommendations({ items }: { items: string[] }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">Nothing to change right now.</p>;
  return (
    <ul aria-label="Recommendations" className="space-y-2">
      {items.map((item) => (
        <li key={item} className="flex gap-2 text-sm">
          <Lightbulb className="mt-0.5 size-4 shrink-0 text-yellow-600" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
