export * from './library-releases.ts';
export * from './release.ts';
export * from './series-catalogue.ts';
export * from './tvmaze-provider.ts';
