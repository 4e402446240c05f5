import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the Privacy Policy page is built.
export default function PrivacyPolicyPage() {
  return (
    <PublicPlaceholder title="Privacy Policy">
      The privacy policy will describe what information InboxPulse collects, how it is used, shared, secured and retained, and your rights.
    </PublicPlaceholder>
  );
}
