import { toast } from '../components/ui/use-toast';
import { createQueryClient } from '../lib/query-client';

/** The app's one query client: a 401's notice is shown as a destructive toast. */
export function createAppQueryClient() {
  return createQueryClient((notice) => toast({ ...notice, variant: 'destructive' }));
}
