import type { ReactNode } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { toast } from '../../../components/ui/use-toast';

/** The copy buttons of Settings: like those of the webhook documentation, they toast "Copied to clipboard". */
export function CopyWithToast({ value, label, children }: { value: string; label: string; children?: ReactNode }) {
  return (
    <CopyButton value={value} label={label} onCopied={() => toast({ title: 'Copied to clipboard' })}>
      {children}
    </CopyButton>
  );
}
