import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the API Documentation page is built.
export default function ApiDocsPage() {
  return (
    <PublicPlaceholder title="API Documentation">
      This page will document the InboxPulse REST API: authentication with API keys, domains, email metrics, inbox tests, blocklist and DMARC monitoring,
      alerts, webhooks, rate limits and SDKs.
    </PublicPlaceholder>
  );
}
