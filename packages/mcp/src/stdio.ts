import { Transform, type TransformCallback } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { DocmillMcp } from './server.ts';

/** Bytes one JSON-RPC message may take: a document sent as base64 data at the size limit, plus room. */
export const messageLimit = (maxFileBytes: number) => Math.ceil(maxFileBytes / 3) * 4 + 1024 * 1024;

const ID = /"id"\s*:\s*("(?:[^"\\]|\\.){0,256}"|-?\d{1,20})/;

/**
 * Hands stdin to the SDK one whole line at a time. The SDK's buffer concatenates every chunk onto
 * what it holds, which is quadratic for a 60 MB message; a line is joined here once. A line over
 * `max` bytes is dropped as it streams (never held) and answered with a JSON-RPC error when its id
 * is in its first bytes.
 */
export class LineFramer extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private dropping = false;
  private head = '';

  constructor(
    private readonly max: number,
    private readonly onOversize: (id: string | number | undefined) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      const piece = nl < 0 ? rest : rest.subarray(0, nl + 1);
      if (!this.dropping) {
        if (this.size + piece.length > this.max) {
          this.head = Buffer.concat([...this.parts, piece])
            .subarray(0, 512)
            .toString('utf8');
          this.parts = [];
          this.size = 0;
          this.dropping = true;
        } else {
          this.parts.push(piece);
          this.size += piece.length;
        }
      }
      if (nl < 0) break;
      if (this.dropping) {
        const m = ID.exec(this.head);
        this.onOversize(m ? (JSON.parse(m[1] as string) as string | number) : undefined);
        this.dropping = false;
        this.head = '';
      } else {
        this.push(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size));
        this.parts = [];
        this.size = 0;
      }
      rest = rest.subarray(nl + 1);
    }
    done();
  }
}

export interface StdioSession {
  /** Resolves when the client closes stdin (or the transport fails). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one client over stdin/stdout, as desktop agents start MCP servers. Nothing but protocol
 * messages is written to `stdout`.
 */
export async function serveStdio(
  mcp: DocmillMcp,
  io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<StdioSession> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const max = messageLimit(mcp.config.maxFileBytes);
  const framer = new LineFramer(max, (id) => {
    if (id === undefined) return;
    const error = { code: -32600, message: `The message exceeds ${max} bytes; send large files by path.` };
    stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
  });
  stdin.pipe(framer);
  const transport = new StdioServerTransport(framer, stdout as never, { maxBufferSize: max + 1 });
  const server = mcp.createServer();
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((r) => {
    resolveClosed = r;
  });
  transport.onclose = () => resolveClosed();
  framer.once('end', () => void server.close());
  stdin.once('error', () => void server.close());
  await server.connect(transport);
  return {
    closed,
    async close() {
      stdin.unpipe(framer);
      await server.close();
    },
  };
}
