import { Section, SwitchRow } from './settings-layout';

const EMAIL_TYPES = [
  { field: 'emailDeliverability', label: 'Deliverability alerts', hint: 'Inbox placement and delivery rate drops' },
  { field: 'emailReputation', label: 'Reputation alerts', hint: 'Blocklist listings and sender score drops' },
  { field: 'emailBounce', label: 'Bounce alerts', hint: 'Bounce rate above your threshold' },
  { field: 'emailSpam', label: 'Spam alerts', hint: 'Spam complaints above your threshold' },
] as const;

/** Which kinds of alert are e-mailed. */
export function EmailSection() {
  return (
    <Section title="Email notifications" description="Which alerts are e-mailed to you.">
      {EMAIL_TYPES.map(({ field, label, hint }) => (
        <SwitchRow key={field} name={field} label={label} hint={hint} />
      ))}
    </Section>
  );
}
