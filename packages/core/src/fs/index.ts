export * from './hardlinks.ts';
export { parseMountInfo, type Mount } from './mounts.ts';
export * from './ownership.ts';
export * from './path-guard.ts';
export * from './real-path.ts';
export { moveFile, type MoveOptions, type MoveResult } from './transfer.ts';
