export * from './health-warnings.ts';
export * from './drive-health.ts';
