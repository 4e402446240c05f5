import { Globe, Inbox, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { PATHS } from '../../../lib/paths';

/** A new account with nothing to show yet: the first two steps (part 1, 2.8). */
export function WelcomeCard({ username }: { username: string }) {
  return (
    <Card data-testid="dashboard-welcome" className="mx-auto max-w-3xl">
      <CardHeader className="items-center text-center">
        <Sparkles className="mb-2 size-10 text-primary" aria-hidden="true" />
        <CardTitle className="wrap-anywhere">Welcome to InboxPulse, {username}!</CardTitle>
        <CardDescription className="max-w-xl text-base">
          Start monitoring your email deliverability: add a sending domain to check its SPF, DKIM and DMARC
          authentication, then run an inbox placement test to see where your emails land.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col items-center gap-3 rounded-lg border p-6 text-center">
          <Globe className="size-8 text-primary" aria-hidden="true" />
          <h3 className="font-semibold">Add your first domain</h3>
          <p className="text-sm text-muted-foreground">Verify it with a DNS record and follow its authentication.</p>
          <Button asChild>
            <Link to={PATHS.domains}>Add Domain</Link>
          </Button>
        </div>
        <div className="flex flex-col items-center gap-3 rounded-lg border p-6 text-center">
          <Inbox className="size-8 text-primary" aria-hidden="true" />
          <h3 className="font-semibold">Test your inbox placement</h3>
          <p className="text-sm text-muted-foreground">Send a real email to our seed addresses and read the results.</p>
          <Button asChild variant="outline">
            <Link to={PATHS.inboxPlacement}>Run Inbox Test</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
