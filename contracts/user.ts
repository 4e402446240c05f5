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

/**
 * GET /api/user?whenSignedOut=null: the web app's session probe. Without it the route answers 401 when
 * nobody is signed in (part 1, section 7); with it, signed out is an answer (200, body null), not an
 * error, so a visitor's first page load logs no failed request.
 */
export const UserQuery = z.object({ whenSignedOut: z.literal('null').optional() });
export type UserQuery = z.infer<typeof UserQuery>;
