import type { ReactNode } from 'react';
import { ApiKeySection } from './components/api-key-section';
import { DangerZone } from './components/danger-zone';
import { ResourceLinks } from './components/resource-links';
import { WebhookTokenSection } from './components/webhook-token-section';
import { WebhooksSection } from './components/webhooks-section';

/**
 * Settings (part 2, section 2): the API key (with the plan it needs and the quick-start examples),
 * the webhook token, the outgoing webhooks (with any pause), resource links, the account's own sections (given by web/app, which composes
 * features), and the Danger Zone last. The shell shows the title, "Settings" (router.tsx).
 */
export function SettingsPage({ accountSections }: { accountSections?: ReactNode }) {
  return (
    <div data-testid="settings-page" className="mx-auto min-w-0 max-w-3xl space-y-6">
      <ApiKeySection />
      <WebhookTokenSection />
      <WebhooksSection />
      <ResourceLinks />
      {accountSections}
      <DangerZone />
    </div>
  );
}
