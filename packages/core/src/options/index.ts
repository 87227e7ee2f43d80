export * from './normalize.ts';
export * from './schema.ts';
