export * from './exposition.ts';
export * from './process-metrics.ts';
