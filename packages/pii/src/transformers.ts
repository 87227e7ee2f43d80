/**
 * `@huggingface/transformers` is an optional peer dependency: installed by `npm i @docmill/pii`,
 * its onnxruntime-node would run an install script that downloads GPU libraries from nuget.org,
 * and where only the npm registry is reachable that fails and npm rolls back the whole install.
 * The user adds it (README, "Configuring a model"); without it the model says how.
 */
export const TRANSFORMERS_VERSION = '4.3.1';

export const MISSING_TRANSFORMERS =
  'PII model: @huggingface/transformers is not installed. @docmill/pii leaves it to you (an optional ' +
  `peer dependency): ONNXRUNTIME_NODE_INSTALL=skip npm i @huggingface/transformers@${TRANSFORMERS_VERSION} ` +
  "(the variable skips onnxruntime-node's install-time download of GPU libraries, which the CPU model " +
  'does not use and which fails where only the npm registry is reachable).';

/** True when `err` says that `@huggingface/transformers` itself could not be found. */
export function isMissingTransformers(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') &&
    /['"]@huggingface\/transformers['"]/.test(String(e.message))
  );
}

/** The transformers.js module, or an error that names the install command. */
export async function importTransformers(): Promise<typeof import('@huggingface/transformers')> {
  try {
    return await import('@huggingface/transformers');
  } catch (err) {
    if (isMissingTransformers(err)) throw new Error(MISSING_TRANSFORMERS, { cause: err });
    throw err;
  }
}
