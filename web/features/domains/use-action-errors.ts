import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { isUnauthorizedError } from '../../lib/api-client';
import { USER_QUERY_KEY } from '../../lib/session';

/**
 * Part 2, section 8, "Unauthorized on domain actions". The spec redirects to /api/login; this app
 * gates the page itself, so asking for the session again is enough: signed out, the login screen
 * takes the page's place.
 * Returns a handler that answers true when it dealt with the error (the caller then stays quiet).
 */
export function useUnauthorizedHandler() {
  const queryClient = useQueryClient();
  return useCallback(
    (error: unknown): boolean => {
      if (!isUnauthorizedError(error)) return false;
      toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      return true;
    },
    [queryClient],
  );
}
