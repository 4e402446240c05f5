import { AccountSecuritySections } from '../features/account/account-security-page';
import { SettingsPage as SettingsScreen } from '../features/settings/settings-page';

/** Settings: the API key, webhook token, resources and Danger Zone, with the account's security sections among them. */
export default function SettingsPage() {
  return <SettingsScreen accountSections={<AccountSecuritySections />} />;
}
