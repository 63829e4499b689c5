export * from './config/schema.ts';
export * from './state/schema.ts';
export * from './jobs/queues.ts';
export * from './jobs/catalogue.ts';
export * from './api/errors.ts';
export * from './library/index-schema.ts';
export * from './api/responses.ts';
export * from './jobs/job-options.ts';
