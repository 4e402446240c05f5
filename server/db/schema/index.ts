export * from './users';
export * from './sessions';
export * from './auth-tokens';
export * from './rate-limits';
export * from './outbox';
export * from './alerts';
