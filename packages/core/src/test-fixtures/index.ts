export * from '../media/test-fixtures/clips.ts';
export * from '../media/test-fixtures/ffmpeg-wrapper.ts';
export * from '../releases/test-fixtures/fake-tvmaze.ts';
export * from '../releases/test-fixtures/index-items.ts';
export * from '../import-tx/test-fixtures/upgrade-job.ts';
