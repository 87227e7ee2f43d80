/**
 * Memoizes a lazy module load. `import()` of an already loaded module still runs module
 * resolution on every call (a round trip to the loader thread under loader hooks such as tsx),
 * which a small document pays on each parse. A failed load is retried on the next call.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
