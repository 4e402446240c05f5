import { ExternalLink } from 'lucide-react';
import { serverMessageOr } from '../lib/api-client';
import { useConnectGooglePostmaster } from '../lib/queries/postmaster';
import { Button } from './ui/button';
import { toast } from './ui/use-toast';

/**
 * Connect (or reconnect) Google Postmaster Tools: the browser goes to Google's consent page and comes
 * back to the integrations page. A refusal (Google sign-in not configured here, too many tries) is told
 * in the server's words.
 */
export function ConnectGoogleButton({
  reconnect = false,
  size = 'sm',
}: {
  reconnect?: boolean;
  size?: 'sm' | 'default';
}) {
  const connect = useConnectGooglePostmaster();
  return (
    <Button
      size={size}
      disabled={connect.isPending || connect.isSuccess}
      onClick={() =>
        connect.mutate(undefined, {
          onError: (error) =>
            toast({
              title: 'Google Postmaster Tools',
              description: serverMessageOr(error, 'The Google sign-in could not be started. Try again.'),
              variant: 'destructive',
            }),
        })
      }
    >
      <ExternalLink aria-hidden="true" />
      {reconnect ? 'Reconnect Google Postmaster Tools' : 'Connect Google Postmaster Tools'}
    </Button>
  );
}
