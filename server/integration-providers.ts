import type { SignInProvider } from './integrations/integrations.service';
import { postmasterProvider } from './postmaster/postmaster.service';

/**
 * The integrations connected by signing in to the provider (OAuth) instead of with a key: the integrations' sync
 * loop runs their imports. Listed here because they build on the integrations capability (ADR 049); the key-based
 * ESP clients are in server/integrations/providers/index.ts.
 */
export const SIGN_IN_PROVIDERS: readonly SignInProvider[] = [postmasterProvider];
