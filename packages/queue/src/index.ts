export { type CancelOutcome, cancelParse } from './cancel.ts';
export {
  enqueueParse,
  openParseQueue,
  type ParseQueue,
  type ParseQueueOptions,
  type WaitOptions,
  waitForResult,
} from './client.ts';
export { queueEngine } from './engine.ts';
export {
  DEFAULT_PREFIX,
  type JobHints,
  type ParseJobData,
  type ParseResult,
  type QueueNames,
  resultKey,
  type StoredMarker,
} from './job.ts';
export { clusterNamesProblem, clusterSeeds, RedisUrlError } from './redis-url.ts';
export { type JobLog, type ParseWorker, type ParseWorkerOptions, startParseWorker } from './worker.ts';
