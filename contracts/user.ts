import { z } from 'zod';
import { PlanId } from './plans';

/** The signed-in user as GET /api/user returns it. */
export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  subscriptionPlan: PlanId,
  hasCompletedTour: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof User>;
