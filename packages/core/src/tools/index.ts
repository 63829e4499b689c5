export * from './duplicates.ts';
export * from './stranded-transcodes.ts';
export * from './subtitles.ts';
export * from './transcode-entries.ts';
export * from './transcode-run-service.ts';
export * from './transcode-store.ts';
export * from './transcoder-queue.ts';
export * from './transcoder-service.ts';
