/**
 * `pnpm bench:http`: autocannon against `docmill serve` on loopback. Concurrent /v2/parse uploads
 * of the fixture PDF, DOCX, HTML and XLSX with malformed requests mixed in (bad JSON, unknown
 * option, missing file, unsupported type, truncated PDF, wrong key), and beside them hostile
 * clients for as long as the load runs: uploads that trickle one byte every 250 ms (the server's
 * body pace rule answers 408) and a flood of 450,000 form parts (400 at part 101). Bounded by
 * request count and time. Reports requests/s, p50/p99 latency of the valid parses, status counts
 * (the hostile clients' too), the server's RSS at boot, after warm-up and after the run (forced
 * GC), and the same documents parsed directly in the server process. Fails (exit 1) on any 5xx,
 * any hostile answer other than the expected one, or RSS after the run more than 10 % over the
 * warmed-up start.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { projectRoot } from '../harness.ts';

const AMOUNT = Number(process.env.BENCH_HTTP_REQUESTS ?? 600);
const DURATION_S = Number(process.env.BENCH_HTTP_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 8);
const KEY = 'bench-key';
const BOUNDARY = '----docmillbench7MA4YWxkTrZu0gW';

const fx = (rel: string, type: string) => {
  const path = join(projectRoot, 'fixtures', rel);
  return { name: rel.split('/').pop() as string, path, type, bytes: readFileSync(path) };
};
const valid = [
  fx('pdf/basic.pdf', 'application/pdf'),
  fx('pdf/tables.pdf', 'application/pdf'),
  fx('docx/basic.docx', 'application/octet-stream'),
  fx('html/rich.html', 'text/html'),
  fx('sheet/basic.xlsx', 'application/octet-stream'),
];

/** A multipart body the way the SDK sends it: `options` as a string field, then `file`. */
function multipart(options: string | undefined, file?: { name: string; type: string; bytes: Buffer }): Buffer {
  const parts: Buffer[] = [];
  if (options !== undefined) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${options}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

interface Case {
  label: string;
  expect: number;
  body: Buffer;
  auth?: string;
}
const pdf = valid[0] as (typeof valid)[number];
const cases: Case[] = [
  ...valid.map((f) => ({ label: f.name, expect: 200, body: multipart('{"formats":["markdown"]}', f) })),
  { label: 'bad JSON', expect: 400, body: multipart('{formats:', pdf) },
  { label: 'unknown option', expect: 400, body: multipart('{"fromats":["markdown"]}', pdf) },
  { label: 'missing file', expect: 400, body: multipart('{}') },
  { label: 'unsupported type', expect: 400, body: multipart('{}', { ...pdf, name: 'x.exe' }) },
  {
    label: 'truncated PDF',
    expect: 400,
    body: multipart('{}', { ...pdf, bytes: pdf.bytes.subarray(0, Math.floor(pdf.bytes.length / 3)) }),
  },
  { label: 'wrong key', expect: 401, body: multipart('{}', pdf), auth: 'nope' },
];

const mb = (n: number) => n / (1024 * 1024);

const SLOW_CLIENTS = Number(process.env.BENCH_HTTP_SLOW_CLIENTS ?? 2);
const FLOOD_PARTS = 450_000;
/** Part-flood clients beside the load (0 leaves them out, to compare). */
const FLOOD_CLIENTS = Number(process.env.BENCH_HTTP_FLOOD_CLIENTS ?? 1);

/** One hostile client's tally: answers by status, and how long each took. */
interface Tally {
  label: string;
  expect: number;
  statuses: Record<string, number>;
  ms: number[];
}

/**
 * POSTs a raw request over its own socket and resolves with the status line's code once the
 * answer's head has come (or 0 if the server closed without one). `trickleMs` sends the body one
 * byte at a time at that interval after the first `prefix` bytes.
 */
function rawPost(port: number, head: string, body: Buffer, opts: { prefix?: number; trickleMs?: number } = {}) {
  return new Promise<number>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = (status: number) => {
      clearInterval(timer);
      socket.destroy();
      resolve(status);
    };
    socket.on('error', () => undefined);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (m) done(Number(m[1]));
    });
    socket.on('close', () => done(0));
    socket.write(head);
    if (opts.trickleMs) {
      let sent = opts.prefix ?? 0;
      socket.write(body.subarray(0, sent));
      timer = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body.subarray(sent, ++sent));
      }, opts.trickleMs);
    } else socket.write(body);
  });
}

/** Repeats `once` until `running()` says stop, tallying answers. */
async function hostile(tally: Tally, running: () => boolean, once: () => Promise<number>): Promise<void> {
  while (running()) {
    const t0 = performance.now();
    const status = await once();
    tally.ms.push(performance.now() - t0);
    tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
  }
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number) : Number.NaN;
};

function ask<T>(child: ReturnType<typeof fork>, msg: object, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(msg);
  });
}

interface Memory {
  rss: number;
  heapUsed: number;
  gc: boolean;
}

async function main(): Promise<void> {
  const child = fork(join(import.meta.dirname, 'server.ts'), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, BENCH_API_KEY: KEY },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), (DURATION_S + 120) * 1000);
  try {
    const { url } = await ask<{ url: string }>(child, {}, 'ready').catch(() => ({ url: '' }));
    const boot = await ask<Memory>(child, { type: 'memory' }, 'memory');

    const requests = cases.map((c) => ({
      method: 'POST' as const,
      path: '/v2/parse',
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        authorization: `Bearer ${c.auth ?? KEY}`,
      },
      body: c.body,
    }));
    const run = (amount: number) =>
      autocannon({
        url,
        connections: CONNECTIONS,
        amount,
        duration: DURATION_S,
        timeout: 60,
        requests,
      });

    // Warm-up: every adapter loaded once, so "start" is a serving process, not a cold one. Each
    // connection walks the mix from its start, so every connection goes through it whole (with
    // fewer, the truncated PDF was never sent: pdf.js, its fallback, then loaded during the run).
    await run(cases.length * CONNECTIONS);
    const start = await ask<Memory>(child, { type: 'memory' }, 'memory');

    const port = Number(new URL(url).port);
    const head = (length: number) =>
      `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`;
    const slowBody = multipart('{}', pdf);
    const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n`;
    const flood = Buffer.from(`${part.repeat(FLOOD_PARTS)}--${BOUNDARY}--\r\n`);
    const slow: Tally = {
      label: `slow body (1 byte / 250 ms), ${SLOW_CLIENTS} clients`,
      expect: 408,
      statuses: {},
      ms: [],
    };
    const floods: Tally = {
      label: `part flood (${FLOOD_PARTS} parts, ${mb(flood.length).toFixed(1)} MB)`,
      expect: 400,
      statuses: {},
      ms: [],
    };
    let loading = true;
    const sideClients = [
      ...Array.from({ length: SLOW_CLIENTS }, () =>
        hostile(
          slow,
          () => loading,
          () => rawPost(port, head(slowBody.length), slowBody, { prefix: 200, trickleMs: 250 }),
        ),
      ),
      ...Array.from({ length: FLOOD_CLIENTS }, () =>
        hostile(
          floods,
          () => loading,
          () => rawPost(port, head(flood.length), flood),
        ),
      ),
    ];
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run(AMOUNT);
    } finally {
      loading = false;
    }
    await Promise.all(sideClients);
    const after = await ask<Memory>(child, { type: 'memory' }, 'memory');
    const directRef = await ask<{ docsPerSec: number }>(
      child,
      { type: 'direct', files: valid.map((f) => f.path), rounds: 10 },
      'direct',
    );
    await ask(child, { type: 'stop' }, 'stopped');

    const validShare = valid.length / cases.length;
    const validPerSec = result.requests.average * validShare;
    const growth = (after.rss - start.rss) / start.rss;
    const fivexx = result['5xx'];
    const report = [
      '# HTTP: POST /v2/parse under load',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} with \`pnpm bench:http\`: autocannon, ${CONNECTIONS} connections,`,
      `${result.requests.total} requests (bounded at ${AMOUNT} and ${DURATION_S} s) on 127.0.0.1 against \`@docmill/server\``,
      'with the in-process engine (concurrency 2, queue 256, one API key, no rate limits).',
      `The mix cycles ${cases.length} requests: ${cases.map((c) => `${c.label} (${c.expect})`).join(', ')}.`,
      `Beside it, for as long as it runs: ${[slow, floods].map((t) => `${t.label}, each expecting ${t.expect}`).join('; ')}`,
      '(server defaults: a body may pause 10 s, then must average 64 KiB/s; at most 100 form parts).',
      '',
      '| figure | value |',
      '| --- | --- |',
      `| requests/s (mean) | ${result.requests.average.toFixed(1)} |`,
      `| latency of valid parses (200) p50 / p99 / max | ${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms |`,
      `| statuses 2xx / 4xx / 5xx / non-HTTP errors / timeouts | ${result['2xx']} / ${result['4xx']} / ${fivexx} / ${result.errors} / ${result.timeouts} |`,
      `| by code | ${Object.entries(result.statusCodeStats ?? {})
        .map(([code, v]) => `${code}: ${(v as { count: number }).count}`)
        .join(', ')} |`,
      ...[slow, floods].map(
        (t) =>
          `| ${t.label}: answers by status, time to answer p50 / max | ${Object.entries(t.statuses)
            .map(([code, n]) => `${code}: ${n}`)
            .join(', ')}; ${percentile(t.ms, 50).toFixed(0)} / ${Math.max(...t.ms).toFixed(0)} ms |`,
      ),
      `| valid documents/s over HTTP | ${validPerSec.toFixed(1)} |`,
      `| same documents parsed directly in the server process, sequential | ${directRef.docsPerSec.toFixed(1)} docs/s |`,
      `| HTTP ÷ direct (valid documents) | ${(validPerSec / directRef.docsPerSec).toFixed(2)}× |`,
      `| server RSS at boot | ${mb(boot.rss).toFixed(1)} MB |`,
      `| server RSS after warm-up (start) → after the run${after.gc ? ', forced GC' : ''} | ${mb(start.rss).toFixed(1)} → ${mb(after.rss).toFixed(1)} MB (${(growth * 100).toFixed(1)} %) |`,
      `| server heap used start → after | ${mb(start.heapUsed).toFixed(1)} → ${mb(after.heapUsed).toFixed(1)} MB |`,
      '',
    ].join('\n');
    writeFileSync(join(projectRoot, 'benchmarks/results/http.md'), report);
    console.log(report);
    const problems: string[] = [];
    if (fivexx > 0) problems.push(`${fivexx} responses were 5xx`);
    for (const t of [slow, floods]) {
      const other = Object.entries(t.statuses).filter(([code]) => Number(code) !== t.expect);
      const clients = t === slow ? SLOW_CLIENTS : FLOOD_CLIENTS;
      if (other.length || (clients > 0 && !t.ms.length))
        problems.push(`${t.label}: ${JSON.stringify(t.statuses)} (expected ${t.expect})`);
    }
    if (result.errors > 0 || result.timeouts > 0) problems.push(`${result.errors} errors, ${result.timeouts} timeouts`);
    if (growth > 0.1) problems.push(`RSS grew ${(growth * 100).toFixed(1)} % (limit 10 %)`);
    if (problems.length) {
      console.error(`FAILED: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    clearTimeout(killer);
    if (child.exitCode === null) child.kill();
  }
}

await main();
