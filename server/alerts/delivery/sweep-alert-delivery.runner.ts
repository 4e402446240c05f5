import { defineRunner } from '../../platform/queue/job';
import { sweepAlertDelivery } from './alert-delivery.service';
import { sweepAlertDeliveryJob } from './sweep-alert-delivery.job';

/** Every minute: users with alerts to tell or digests now due, messages whose job was lost or whose retry is due. */
export const sweepAlertDeliveryRunner = defineRunner(sweepAlertDeliveryJob, {
  schedule: '* * * * *',
  retryLimit: 0,
  async run(_data, ctx) {
    const swept = await sweepAlertDelivery(ctx, new Date());
    if (swept.users > 0 || swept.messages > 0) ctx.log.info(swept, 'alert delivery swept');
  },
});
