import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the Postfix Integration Guide page is built.
export default function PostfixPage() {
  return (
    <PublicPlaceholder title="Postfix Integration Guide">
      This guide will show how to configure Postfix logging and send delivered, bounced and deferred events to InboxPulse.
    </PublicPlaceholder>
  );
}
