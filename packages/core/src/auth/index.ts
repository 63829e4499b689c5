export * from './api-key-file.ts';
export * from './auth-service.ts';
export type { AuthStore } from './auth-store.ts';
export * from './failure-limiter.ts';
export * from './hosts.ts';
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password.ts';
export * from './proxies.ts';
export * from './session-client.ts';
