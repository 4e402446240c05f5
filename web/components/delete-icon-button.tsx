import type { ComponentProps } from 'react';
import { Trash2 } from 'lucide-react';
import { Button } from './ui/button';

/** A list item's delete action, as a bin icon that turns red on hover; `aria-label` names what it deletes. */
export function DeleteIconButton(props: Omit<ComponentProps<typeof Button>, 'children'> & { 'aria-label': string }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8 shrink-0 text-muted-foreground hover:text-destructive"
      {...props}
    >
      <Trash2 aria-hidden="true" />
    </Button>
  );
}
