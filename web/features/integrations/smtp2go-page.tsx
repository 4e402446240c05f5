import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the SMTP2GO Integration page is built.
export default function Smtp2goPage() {
  return (
    <PublicPlaceholder title="SMTP2GO Integration">
      This page will explain how to connect an SMTP2GO account so its delivery statistics and activity flow into InboxPulse.
    </PublicPlaceholder>
  );
}
