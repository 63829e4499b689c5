export * from './hardlinks.ts';
export * from './ownership.ts';
export * from './path-guard.ts';
export * from './real-path.ts';
