import { deliverAlertsRunner } from './alerts/deliver-alerts.runner';
import { sendAlertDigestRunner } from './alerts/delivery/send-alert-digest.runner';
import { sweepAlertDeliveryRunner } from './alerts/delivery/sweep-alert-delivery.runner';
import { alertEvaluationJobs } from './alerts/evaluation/evaluate-alerts.job';
import { checkDmarcReportersJob } from './dmarc/dmarc-reporters.job';
import { checkDomainJob, scheduleDomainChecksJob } from './domains/domain-checks.job';
import type { AnyJob } from './platform/queue/job';
import { maintenanceJob } from './maintenance.job';
import { pollDmarcMailboxJob } from './dmarc/poll-dmarc-mailbox.job';
import { pollSeedMailboxesJob } from './inbox-tests/seeds/poll-seed-mailboxes.job';
import { processInboundMessageRunner } from './process-inbound-message.runner';
import { retentionJob } from './plans/retention.job';
import { scheduleIntegrationSyncsRunner } from './schedule-integration-syncs.runner';
import { lookUpDomainRegistrationJob, scheduleDomainRegistrationsJob } from './reputation/domain-registration.job';
import { reputationCheckJob, scheduleReputationChecksJob } from './reputation/monitoring.job';
import { sendEmailRunner } from './platform/mail/send-email.runner';
import { syncIntegrationRunner } from './sync-integration.runner';
import { deliverWebhookRunner } from './webhooks/deliver-webhook.runner';
import { sweepWebhookDeliveriesRunner } from './webhooks/sweep-webhook-deliveries.runner';

/** Every job the worker runs. A new job is one file and one line here. */
export const jobRegistry: AnyJob[] = [
  sendEmailRunner,
  maintenanceJob,
  retentionJob,
  checkDomainJob,
  scheduleDomainChecksJob,
  checkDmarcReportersJob,
  processInboundMessageRunner,
  pollDmarcMailboxJob,
  pollSeedMailboxesJob,
  lookUpDomainRegistrationJob,
  scheduleDomainRegistrationsJob,
  reputationCheckJob,
  scheduleReputationChecksJob,
  deliverWebhookRunner,
  sweepWebhookDeliveriesRunner,
  deliverAlertsRunner,
  sendAlertDigestRunner,
  sweepAlertDeliveryRunner,
  ...alertEvaluationJobs,
  syncIntegrationRunner,
  scheduleIntegrationSyncsRunner,
];
