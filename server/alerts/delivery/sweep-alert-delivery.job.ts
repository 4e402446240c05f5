import { z } from 'zod';
import { jobType } from '../../platform/job-sender';

/** Finds alert deliveries due or stranded. Only its schedule sends it. */
export const sweepAlertDeliveryJob = jobType('sweep-alert-delivery', z.object({}).passthrough());
