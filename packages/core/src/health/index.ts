export * from './health-warnings.ts';
