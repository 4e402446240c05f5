import { Link } from 'react-router';
import { PublicLayout } from '../../components/public-layout';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../paths';

// The signed-out home page. Deliberately small: it ships in the first JavaScript chunk, and the
// full landing page (part 1, section 2.2) is built later.
export function LandingPage() {
  return (
    <PublicLayout>
      <title>InboxPulse - Email deliverability monitoring</title>
      <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-20 text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">InboxPulse</h1>
        <p className="mt-6 text-lg text-muted-foreground">
          Find out whether your email reaches the inbox: inbox-placement tests, SPF, DKIM and DMARC monitoring, sender
          reputation and blocklist checks, with alerts when something changes.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg">
            <Link to={PATHS.register}>Start Free Account</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={PATHS.login}>Login</Link>
          </Button>
        </div>
      </section>
    </PublicLayout>
  );
}
