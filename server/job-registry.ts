import { deliverAlertsRunner } from './alerts/deliver-alerts.runner';
import { sendAlertDigestRunner } from './alerts/delivery/send-alert-digest.runner';
import { sweepAlertDeliveryRunner } from './alerts/delivery/sweep-alert-delivery.runner';
import { evaluateAlertsRunner } from './alerts/evaluation/evaluate-alerts.runner';
import { scheduleAlertEvaluationsRunner } from './alerts/evaluation/schedule-alert-evaluations.runner';
import { checkDmarcReportersRunner } from './dmarc/dmarc-reporters.runner';
import { refreshSendingServiceNetworksRunner } from './dmarc/refresh-sending-service-networks.runner';
import { checkDomainRunner } from './domains/check-domain.runner';
import { scheduleDomainChecksRunner } from './domains/schedule-domain-checks.runner';
import type { AnyJob } from './platform/queue/job';
import { maintenanceRunner } from './maintenance.runner';
import { pollDmarcMailboxRunner } from './dmarc/poll-dmarc-mailbox.runner';
import { pollSeedMailboxesRunner } from './inbox-tests/seeds/poll-seed-mailboxes.runner';
import { processInboundMessageRunner } from './process-inbound-message.runner';
import { retentionRunner } from './retention.runner';
import { scheduleIntegrationSyncsRunner } from './schedule-integration-syncs.runner';
import { lookUpDomainRegistrationRunner } from './reputation/look-up-domain-registration.runner';
import { scheduleDomainRegistrationsRunner } from './reputation/schedule-domain-registrations.runner';
import { reputationCheckRunner } from './reputation/reputation-check.runner';
import { scheduleReputationChecksRunner } from './reputation/schedule-reputation-checks.runner';
import { sendEmailRunner } from './platform/mail/send-email.runner';
import { syncIntegrationRunner } from './sync-integration.runner';
import { deliverWebhookRunner } from './webhooks/deliver-webhook.runner';
import { sweepWebhookDeliveriesRunner } from './webhooks/sweep-webhook-deliveries.runner';

/** Every job the worker runs. A new job is one file and one line here. */
export const jobRegistry: AnyJob[] = [
  sendEmailRunner,
  maintenanceRunner,
  retentionRunner,
  checkDomainRunner,
  scheduleDomainChecksRunner,
  checkDmarcReportersRunner,
  refreshSendingServiceNetworksRunner,
  processInboundMessageRunner,
  pollDmarcMailboxRunner,
  pollSeedMailboxesRunner,
  lookUpDomainRegistrationRunner,
  scheduleDomainRegistrationsRunner,
  reputationCheckRunner,
  scheduleReputationChecksRunner,
  deliverWebhookRunner,
  sweepWebhookDeliveriesRunner,
  deliverAlertsRunner,
  sendAlertDigestRunner,
  sweepAlertDeliveryRunner,
  evaluateAlertsRunner,
  scheduleAlertEvaluationsRunner,
  syncIntegrationRunner,
  scheduleIntegrationSyncsRunner,
];
