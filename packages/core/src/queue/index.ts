export * from './job-cancel.ts';
export * from './redis-options.ts';
