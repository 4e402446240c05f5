import { z } from 'zod';
import { jobType } from '../platform/job-sender';

/** Reads the networks each sending service publishes in its SPF includes. Only its schedule sends it. */
export const refreshSendingServiceNetworksJob = jobType('refresh-sending-service-networks', z.object({}).passthrough());
