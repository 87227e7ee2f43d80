export type { FolderLimits } from './files.ts';
export { documentFiles, isDocumentName } from './files.ts';
export type { DocmillInput, LoadOptions } from './load.ts';
export { docmillRecords, parseOne } from './load.ts';
export type { DocmillRecord, MetadataValue, RecordOptions } from './records.ts';
export { formatsFor, recordsOf } from './records.ts';
