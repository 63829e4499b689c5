export * from './bin-layout.ts';
export * from './recycle-bin.ts';
export * from './recycle-totals.ts';
export * from './recycle-service.ts';
