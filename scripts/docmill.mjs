// `pnpm docmill` in this workspace: the CLI from its TypeScript sources through tsx's loader, with
// tsx's transpile cache off. The cache would write files under $TMPDIR/tsx-<uid> on every run,
// and the README promises that docmill writes nothing to disk; tsx's own CLI (`tsx --no-cache`)
// would still create that folder for its IPC socket. Worker threads copy this environment.
process.env.TSX_DISABLE_CACHE = '1';
const { register } = await import('tsx/esm/api');
register();
await import('../packages/cli/src/bin.ts');
