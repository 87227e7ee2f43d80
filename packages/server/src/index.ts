export type { DocmillApp } from './app.ts';
export { createApp } from './app.ts';
export type { AuditEvent, ParseEngine, RequestLog, ScrapeConfig, ServerConfig } from './config.ts';
export { DEFAULTS } from './config.ts';
export type { ApiKey, KeyStore } from './keys.ts';
export { createKeyStore, parseKeyFile, parseKeyList } from './keys.ts';
export { parseDataSchema } from './openapi.ts';
