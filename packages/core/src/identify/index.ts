export * from './tvmaze-identify.ts';
export * from './provider-failure.ts';
