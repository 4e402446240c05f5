import { lazy, Suspense, useState } from 'react';
import { useToast } from '../components/ui/use-toast';

// Radix Toast is only needed once something toasts; the public landing page never does, so the
// toaster is fetched on the first toast instead of weighing down the first page load.
const Toaster = lazy(() => import('../components/ui/toaster').then((m) => ({ default: m.Toaster })));

export function DeferredToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
