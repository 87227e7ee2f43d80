export * from './build.ts';
export * from './grid.ts';
export type * from './types.ts';
export * from './walk.ts';
