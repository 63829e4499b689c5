export * from './send.ts';
