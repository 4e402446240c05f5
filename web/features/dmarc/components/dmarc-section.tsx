import { lazy, Suspense, useId, useState } from 'react';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { DmarcSkeleton } from './dmarc-skeleton';

// The panel (and Recharts behind it) is its own chunk: Domain Management loads without it.
const DmarcPanel = lazy(() => import('./dmarc-panel'));

/** The entry point in a domain's card: a toggle that opens the domain's DMARC reports panel. */
export function DmarcSection({ domain, isVerified }: { domain: string; isVerified: boolean }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="space-y-2">
      <Button
        variant="ghost"
        size="sm"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        {open ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
        {open ? 'Hide DMARC reports' : 'Show DMARC reports'}
      </Button>
      {open && (
        <Suspense fallback={<DmarcSkeleton label="Loading DMARC reports" />}>
          <DmarcPanel id={panelId} domain={domain} isVerified={isVerified} />
        </Suspense>
      )}
    </div>
  );
}
