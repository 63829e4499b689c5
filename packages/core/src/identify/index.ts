export * from './tvmaze-identify.ts';
