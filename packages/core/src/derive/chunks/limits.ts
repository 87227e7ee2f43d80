/** Budget bounds of the `chunks` format and of `chunk()`: below 16 a table header row rarely fits. */
export const MIN_CHUNK_TOKENS = 16;
export const MAX_CHUNK_TOKENS = 65_536;
export const DEFAULT_CHUNK_TOKENS = 512;
