import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { MTA_IDS, type MtaId } from '@content/docs/mta-integration';
import { CONNECT_OUTCOME_MESSAGES, GOOGLE_OUTCOME_PARAM, PostmasterConnectOutcome } from '@contracts/postmaster';
import { QueryState } from '../../components/query-state';
import { Badge } from '../../components/ui/badge';
import { ContentSpinner } from '../../components/ui/spinner';
import { TabList } from '../../components/ui/tab-list';
import { toast } from '../../components/ui/use-toast';
import { serverMessageOr } from '../../lib/api-client';
import { useIntegrations } from './api';
import { EmailQuotaNotice } from './components/email-quota-notice';
import { EspWebhooksSection } from './components/esp-webhooks-section';
import { MtaTab } from './components/mta-tab';
import { PluginCard } from './components/plugin-card';
import { PluginDialog } from './components/plugin-dialog';
import {
  INTEGRATION_TABS,
  installedBadge,
  installedCount,
  installedOf,
  pluginFromParam,
  pluginsOf,
  TAB_LABELS,
  type IntegrationTab,
} from './plugins';

const MANAGE_PARAM = 'manage';
const TAB_PARAM = 'tab';

function tabOf(value: string | null): IntegrationTab | null {
  return value && (INTEGRATION_TABS as readonly string[]).includes(value) ? (value as IntegrationTab) : null;
}

function isMta(value: string | null): value is MtaId {
  return value !== null && (MTA_IDS as readonly string[]).includes(value);
}

/**
 * Google sends the browser back to /integrations?manage=google-postmaster&google=<outcome> (ADR 029):
 * the outcome's words are toasted once, and the marker leaves the address so a reload does not repeat them.
 */
function useGoogleOutcome() {
  const [params, setParams] = useSearchParams();
  const told = useRef(false);
  const raw = params.get(GOOGLE_OUTCOME_PARAM);
  useEffect(() => {
    if (raw === null || told.current) return;
    told.current = true;
    const outcome = PostmasterConnectOutcome.safeParse(raw);
    if (outcome.success) {
      const words = CONNECT_OUTCOME_MESSAGES[outcome.data];
      toast({ title: words.title, description: words.description, variant: words.success ? 'default' : 'destructive' });
    }
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        next.delete(GOOGLE_OUTCOME_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [raw, setParams]);
}

/**
 * Integrations, signed in (part 2, section 2): "{n} plugins installed" and three tabs: the ESP plugin
 * cards, the MTAs with this account's endpoints, and Analytics & Tools (Google Postmaster Tools).
 * `?manage=<pluginId>` opens a plugin's dialog (the dashboard links there); `?manage=<mta>` shows
 * that MTA; `?tab=` picks a tab. The shell shows the title (router.tsx).
 */
export default function IntegrationsPage() {
  const [params, setParams] = useSearchParams();
  const integrations = useIntegrations();
  const baseId = useId();
  useGoogleOutcome();

  const manage = params.get(MANAGE_PARAM);
  const managed = manage ? pluginFromParam(manage) : undefined;
  const mta = isMta(manage) ? manage : null;
  const tab: IntegrationTab = tabOf(params.get(TAB_PARAM)) ?? (managed ? managed.category : mta ? 'mta' : 'esp');

  function update(change: (next: URLSearchParams) => void) {
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        change(next);
        return next;
      },
      { replace: true },
    );
  }
  const selectTab = (next: IntegrationTab) =>
    update((p) => {
      p.delete(MANAGE_PARAM);
      if (next === 'esp') p.delete(TAB_PARAM);
      else p.set(TAB_PARAM, next);
    });
  const open = (pluginId: string) =>
    update((p) => {
      p.set(MANAGE_PARAM, pluginId);
      p.delete(TAB_PARAM);
    });
  const close = () =>
    update((p) => {
      p.delete(MANAGE_PARAM);
      if (tab !== 'esp') p.set(TAB_PARAM, tab);
    });

  let panel: ReactNode;
  if (tab === 'mta') panel = <MtaTab highlighted={mta} />;
  else {
    panel = (
      <QueryState
        query={integrations}
        loading={<ContentSpinner label="Loading your integrations" />}
        errorMessage={(error) => serverMessageOr(error, 'Could not load your integrations.')}
        errorVariant="card"
      >
        {(list) => (
          <div className="space-y-4">
            {installedCount(list) === 0 && tab === 'esp' && (
              <p className="text-sm text-muted-foreground" data-testid="integrations-empty">
                No plugin is installed yet. Pick the provider you send with and click Install: you will need an API key
                from it.
              </p>
            )}
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {pluginsOf(tab).map((plugin) => (
                <PluginCard
                  key={plugin.id}
                  plugin={plugin}
                  installed={installedOf(list, plugin.id)}
                  onOpen={() => open(plugin.id)}
                />
              ))}
            </div>
            {tab === 'esp' && <EspWebhooksSection />}
          </div>
        )}
      </QueryState>
    );
  }

  return (
    <div data-testid="integrations-page" className="min-w-0 space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <Badge variant="secondary" data-testid="installed-count" aria-live="polite">
          {integrations.data ? installedBadge(installedCount(integrations.data)) : 'Loading installed plugins'}
        </Badge>
        {manage && !managed && !mta && (
          <p role="status" className="text-sm text-muted-foreground">
            There is no integration called “{manage}”: choose one below.
          </p>
        )}
      </div>
      <EmailQuotaNotice />
      <TabList
        ids={INTEGRATION_TABS}
        labels={TAB_LABELS}
        selected={tab}
        onSelect={selectTab}
        label="Integrations"
        tabIdOf={(id) => `${baseId}-tab-${id}`}
        panelIdOf={() => `${baseId}-panel`}
        className="grid grid-cols-3"
        tabClassName="px-1 text-xs leading-tight sm:px-3 sm:text-sm"
      />
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {panel}
      </div>
      {managed && integrations.data && (
        <PluginDialog plugin={managed} installed={installedOf(integrations.data, managed.id)} onClose={close} />
      )}
    </div>
  );
}
