export * from './allowed-roots.ts';
