export * from './escape.ts';
export * from './html.ts';
export * from './links.ts';
export * from './markdown.ts';
