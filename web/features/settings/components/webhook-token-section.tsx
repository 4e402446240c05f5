import { API_KEY_ERRORS, type GeneratedWebhookToken, type WebhookTokenStatus } from '@contracts/api-keys';
import { useIssueWebhookTokenMutation, useRevokeWebhookTokenMutation, useWebhookTokenStatus } from '../api';
import { useCredentialActions } from '../use-credential-actions';
import { CredentialCard, type CredentialTexts, type CredentialView } from './credential-card';

const TEXTS: CredentialTexts = {
  title: 'Webhook Token',
  description: (
    <>
      Your MTAs and scripts send it as <code className="font-mono">Authorization: Bearer {'{token}'}</code> when they
      post delivery events to your InboxPulse webhook endpoints (/api/webhooks/postfix and the others).
    </>
  ),
  noun: 'webhook token',
  generateLabel: 'Generate Webhook Token',
  emptyText: 'You have no webhook token yet.',
  regenerateWarning:
    'A new token replaces this one. The current token stops working at once: update every MTA and script that sends it.',
  revokeWarning:
    'The token stops working at once and webhook calls that send it are refused. You can generate a new token afterwards.',
  loadError: 'Unable to load your webhook token.',
};

const toView = (status: WebhookTokenStatus): CredentialView => ({
  exists: status.hasToken,
  preview: status.tokenPreview,
  createdAt: status.createdAt,
});

/** The webhook token card: the same life as the API key; right after generation it sits behind Show/Hide. */
export function WebhookTokenSection() {
  const status = useWebhookTokenStatus();
  const actions = useCredentialActions<GeneratedWebhookToken>({
    generate: useIssueWebhookTokenMutation('generate'),
    regenerate: useIssueWebhookTokenMutation('regenerate'),
    revoke: useRevokeWebhookTokenMutation(),
    valueOf: (answer) => answer.token,
    errors: {
      generate: API_KEY_ERRORS.generateToken,
      regenerate: API_KEY_ERRORS.regenerateToken,
      revoke: API_KEY_ERRORS.revokeToken,
    },
    revokedTitle: 'Webhook token revoked',
  });
  return (
    <CredentialCard
      texts={TEXTS}
      query={status}
      toView={toView}
      actions={actions}
      hideable
      testId="webhook-token-card"
    />
  );
}
