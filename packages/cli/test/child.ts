import type { ChildProcess } from 'node:child_process';

/** The first JSON line a child prints on stdout (a server's "listening" line); its stderr if it exits first. */
export function firstLine(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    let buf = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) done(JSON.parse(buf.slice(0, nl)));
    });
    child.once('exit', (code) => fail(new Error(`exited ${code} before listening: ${err.slice(-500)}`)));
  });
}
