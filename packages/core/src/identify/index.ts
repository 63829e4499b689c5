export type { IdentifyCacheStore } from './identify-cache.ts';
export * from './tvmaze-identify.ts';
export * from './provider-failure.ts';
