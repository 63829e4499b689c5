export * from './history-log.ts';
export * from './history-page.ts';
export * from './history-record.ts';
export * from './imported.ts';
export * from './record-notice.ts';
