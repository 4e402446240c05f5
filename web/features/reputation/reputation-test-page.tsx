import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { serverMessageOr } from '../../lib/api-client';
import { useAuth } from '../../lib/session';
import { useIpAddresses } from './api';
import { IpStatusBadge } from './components/ip-status-badge';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 py-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd data-testid={testId} className="min-w-0 font-medium wrap-anywhere">
        {children}
      </dd>
    </div>
  );
}

/** Reputation Test (part 2, section 2): a debug page of the sign-in state, the IP query and each IP's status. */
export default function ReputationTestPage() {
  const { user, isAuthenticated } = useAuth();
  const ips = useIpAddresses();
  // The query's state is what this page is for (loading, error, success are its data), so it is shown by hand, not
  // hidden behind <QueryState>.
  const queryStatus = ips.isPending ? 'loading' : ips.isError ? 'error' : 'success';
  return (
    <div data-testid="reputation-test-page" className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Status</CardTitle>
          <CardDescription>What this page sees of your session and of the IP address query.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="divide-y text-sm">
            <Row label="Login status" testId="login-status">
              {isAuthenticated ? `Signed in as ${user?.username}` : 'Not signed in'}
            </Row>
            <Row label="IP query status" testId="ip-query-status">
              {queryStatus}
              {ips.isError && (
                <span className="block text-destructive">{serverMessageOr(ips.error, ips.error.message)}</span>
              )}
            </Row>
            <Row label="IP addresses" testId="ip-count">
              {ips.isSuccess ? ips.data.length : '–'}
            </Row>
          </dl>
        </CardContent>
      </Card>
      {ips.isSuccess && (
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Each IP's status</CardTitle>
          </CardHeader>
          <CardContent>
            {ips.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">No IP addresses monitored.</p>
            ) : (
              <ul className="divide-y text-sm">
                {ips.data.map((ip) => (
                  <li
                    key={ip.id}
                    data-testid="debug-ip"
                    className="flex flex-wrap items-center justify-between gap-2 py-2"
                  >
                    <span className="font-mono wrap-anywhere">{ip.ipAddress}</span>
                    <span className="flex items-center gap-2">
                      <span className="text-muted-foreground">{ip.status}</span>
                      <IpStatusBadge status={ip.status} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
