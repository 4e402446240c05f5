import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the Webhook Documentation page is built.
export default function WebhookDocsPage() {
  return (
    <PublicPlaceholder title="Webhook Documentation">
      This page will explain how to receive InboxPulse events by webhook: setup, event types, signature checks, examples and testing.
    </PublicPlaceholder>
  );
}
