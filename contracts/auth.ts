import { z } from 'zod';
import { text } from './input';
import { User } from './user';

// Field rules and their messages come from part 1, section 5; the server enforces the same schemas.

export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 8;
// argon2 work grows with input; a cap keeps a login from being a cheap way to burn CPU.
export const PASSWORD_MAX = 256;

const usernameRule = z
  .string({ error: 'Username is required' })
  .trim()
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may only contain letters, numbers, dots, dashes and underscores');

export const emailRule = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address')
  .email('Please enter a valid email address');

export const newPasswordRule = z
  .string({ error: 'Password must be at least 8 characters' })
  .min(PASSWORD_MIN, 'Password must be at least 8 characters')
  .max(PASSWORD_MAX, 'Password must be at most 256 characters');

const tokenRule = z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200, 'Token is invalid');

const couponRule = text('Coupon code', 64, { trim: true });

/** POST /api/register. confirmPassword is optional for API callers; when sent it must match. */
export const RegisterBody = z
  .object({
    username: usernameRule,
    email: emailRule,
    password: newPasswordRule,
    confirmPassword: z.string({ error: "Passwords don't match" }).max(PASSWORD_MAX, "Passwords don't match").optional(),
    couponCode: couponRule.optional().nullable(),
  })
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.password, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterBody = z.infer<typeof RegisterBody>;

/** The register form adds the confirmation field the API treats as optional. */
export const RegisterForm = z
  .object({
    username: usernameRule,
    email: emailRule,
    password: newPasswordRule,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
    couponCode: couponRule.optional(),
  })
  .refine((b) => b.confirmPassword === b.password, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof RegisterForm>;

export const RegisterResponse = z.object({
  user: User,
  emailSent: z.boolean(),
  message: z.string(),
});
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const LoginBody = z.object({
  username: text('Username', 254, {
    trim: true,
    required: 'Username is required',
    tooLong: 'Invalid username or password',
  }).min(1, 'Username is required'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX, 'Invalid username or password'),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = z.object({ user: User });

export const ForgotPasswordBody = z.object({ email: emailRule });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const TokenBody = z.object({ token: tokenRule });
export type TokenBody = z.infer<typeof TokenBody>;

export const ValidateResetTokenResponse = z.object({ valid: z.literal(true) });

export const ResetPasswordBody = z.object({
  token: tokenRule,
  password: newPasswordRule,
  /** A reset means the password may have been known to someone else: the API key and webhook token are revoked too unless this says keep them. */
  keepApiAccess: z.boolean({ error: 'keepApiAccess must be true or false' }).optional(),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The reset form: both fields at least 8 characters and equal (part 1, section 5). */
export const ResetPasswordForm = z
  .object({ password: newPasswordRule, confirmPassword: newPasswordRule })
  .refine((b) => b.confirmPassword === b.password, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

export const VerifyEmailQuery = z.object({ token: tokenRule });

/** POST /api/verify-email; message 'Email already verified' marks the already_verified state. */
export const VerifyEmailResponse = z.object({
  message: z.string(),
  user: z.object({ email: z.string() }),
});
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

export const ResendVerificationBody = z.object({ email: emailRule });

export const AUTH_MESSAGES = {
  invalidLogin: 'Invalid username or password',
  emailAlreadyVerified: 'Email already verified',
  emailVerified: 'Email verified successfully',
  invalidResetLink: 'This password reset link is invalid or has expired',
  invalidVerifyLink: 'This verification link is invalid or has expired',
  resendDone: 'If an account exists with this email, a verification email has been sent.',
  forgotDone: 'If an account exists with this email, a password reset link has been sent.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  registeredEmailSent: 'Please check your email to verify your account.',
  registeredVerified: 'Your account has been verified and is ready to use.',
  notSignedIn: 'Please sign in to continue',
  apiAccessRevoked:
    'Your API key and webhook token were revoked too: create new ones in Settings and put them where they were used.',
} as const;

/** POST /api/reset-password and /api/account/password: the message, and whether the API key and webhook token were revoked. */
export const PasswordSetResponse = z.object({ message: z.string(), apiAccessRevoked: z.boolean() });
export type PasswordSetResponse = z.infer<typeof PasswordSetResponse>;
