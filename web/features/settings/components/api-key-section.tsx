import { Lock } from 'lucide-react';
import { API_KEY_ERRORS, type ApiKeyStatus, type GeneratedApiKey } from '@contracts/api-keys';
import { PLAN_LABELS, planHasFeature } from '@contracts/plans';
import { PlanRequiredBanner } from '../../../components/plan-required-banner';
import { useAuth } from '../../../lib/session';
import { useApiKeyStatus, useIssueApiKeyMutation, useRevokeApiKeyMutation } from '../api';
import { useCredentialActions } from '../use-credential-actions';
import { CredentialCard, type CredentialTexts, type CredentialView } from './credential-card';
import { QuickStartExamples } from './quick-start-examples';

const TEXTS: CredentialTexts = {
  title: 'API Keys',
  description: (
    <>
      Authenticate requests to the InboxPulse REST API with the header{' '}
      <code className="font-mono">Authorization: Bearer {'{key}'}</code>.
    </>
  ),
  noun: 'API key',
  generateLabel: 'Generate API Key',
  emptyText: 'You have no API key yet.',
  regenerateWarning:
    'A new key replaces this one. The current key stops working at once: every script and integration that uses it must be given the new key.',
  revokeWarning:
    'The key stops working at once and requests made with it are refused. You can generate a new key afterwards.',
  loadError: 'Unable to load your API key.',
};

const toView = (status: ApiKeyStatus): CredentialView => ({
  exists: status.hasApiKey,
  preview: status.keyPreview,
  createdAt: status.createdAt,
  lastUsedAt: status.lastUsedAt,
});

/** The API key card, the plan it needs (api_access), and the quick-start examples once a key exists. */
export function ApiKeySection() {
  const status = useApiKeyStatus();
  const actions = useCredentialActions<GeneratedApiKey>({
    generate: useIssueApiKeyMutation('generate'),
    regenerate: useIssueApiKeyMutation('regenerate'),
    revoke: useRevokeApiKeyMutation(),
    valueOf: (answer) => answer.apiKey,
    errors: { generate: API_KEY_ERRORS.generate, regenerate: API_KEY_ERRORS.regenerate, revoke: API_KEY_ERRORS.revoke },
    revokedTitle: 'API key revoked',
  });
  const hasKey = status.data?.hasApiKey ?? false;

  return (
    <>
      <CredentialCard
        texts={TEXTS}
        query={status}
        toView={toView}
        actions={actions}
        testId="api-key-card"
        titleIcon={<ApiAccessLock />}
      >
        <ApiAccessPlan />
      </CredentialCard>
      {hasKey && <QuickStartExamples apiKey={actions.issued} />}
    </>
  );
}

function useApiAccess() {
  const { user } = useAuth();
  return {
    plan: user?.subscriptionPlan ?? null,
    allowed: user ? planHasFeature(user.subscriptionPlan, 'api_access') : false,
  };
}

function ApiAccessLock() {
  const { plan, allowed } = useApiAccess();
  if (!plan || allowed) return null;
  return <Lock className="size-4" aria-label="Locked" data-testid="api-access-lock-icon" />;
}

/** Part 1, section 6: API access is a Professional feature; the server refuses a free plan's key with 403. */
function ApiAccessPlan() {
  const { plan, allowed } = useApiAccess();
  if (!plan) return null;
  if (allowed) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="api-access-included">
        API access is included in your {PLAN_LABELS[plan]}.
      </p>
    );
  }
  return (
    <PlanRequiredBanner feature="api_access" testId="api-access-plan-lock">
      {`API access comes with the Professional plan; you are on the ${PLAN_LABELS[plan]}. You can generate a key now, but requests made with it are refused until you upgrade.`}
    </PlanRequiredBanner>
  );
}
