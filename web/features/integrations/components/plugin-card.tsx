import { ExternalLink } from 'lucide-react';
import type { Integration as Plugin } from '@content/integrations';
import type { Integration } from '@contracts/integrations';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { Pill } from '../../../components/ui/pill';
import { syncFreshness } from '../../../lib/format';
import { POSTMASTER_PLUGIN_ID, statusOf } from '../plugins';

/**
 * A plugin of the catalogue: what it does, whether it is installed and how its sync is doing, the
 * button that opens its dialog (Install, or Manage once installed), and the provider's documentation.
 */
export function PluginCard({
  plugin,
  installed,
  onOpen,
}: {
  plugin: Plugin;
  installed: Integration | undefined;
  onOpen: () => void;
}) {
  const status = installed ? statusOf(installed) : null;
  const google = plugin.id === POSTMASTER_PLUGIN_ID;
  const available = google || plugin.status === 'available';
  const action = installed ? 'Manage' : google ? 'Connect' : 'Install';
  return (
    <Card data-testid={`plugin-card-${plugin.id}`} className="flex min-w-0 flex-col">
      <CardHeader className="space-y-2 pb-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <CardTitle as="h3" className="text-lg">
            {plugin.name}
          </CardTitle>
          {status ? (
            <Pill tone={status.tone} testId="plugin-status">
              {status.label}
            </Pill>
          ) : (
            <Pill tone="none" testId="plugin-status">
              {available ? 'Not installed' : 'Coming soon'}
            </Pill>
          )}
        </div>
        <CardDescription>{plugin.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-2 text-sm">
        <ul className="list-disc space-y-1 pl-5 text-muted-foreground">
          {plugin.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
        {installed && !google && (
          <p className="text-xs text-muted-foreground" data-testid="plugin-last-sync">
            Last sync: {syncFreshness(installed.lastSync)}
          </p>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap items-center justify-between gap-2">
        <Button
          size="sm"
          variant={installed ? 'outline' : 'default'}
          onClick={onOpen}
          disabled={!available}
          aria-label={`${action} ${plugin.name}`}
        >
          {available ? action : 'Coming soon'}
        </Button>
        <a
          href={plugin.documentation}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
        >
          Documentation
          <ExternalLink className="size-3.5" aria-hidden="true" />
          <span className="sr-only">for {plugin.name} (opens in a new tab)</span>
        </a>
      </CardFooter>
    </Card>
  );
}
