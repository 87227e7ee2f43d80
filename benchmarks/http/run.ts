/**
 * `pnpm bench:http`: autocannon against `docmill serve` on loopback. Concurrent /v2/parse uploads
 * of the fixture PDF, DOCX, HTML and XLSX with malformed requests mixed in (bad JSON, unknown
 * option, missing file, unsupported type, truncated PDF, wrong key). Bounded by request count and
 * time. Reports requests/s, p50/p99 latency, status counts, the server's RSS at boot, after warm-up
 * and after the run (forced GC), and the same documents parsed directly in the server process.
 * Fails (exit 1) on any 5xx or when RSS after the run is more than 10 % over the warmed-up start.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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

    // Warm-up: every adapter loaded once, so "start" is a serving process, not a cold one.
    await run(cases.length * 4);
    const start = await ask<Memory>(child, { type: 'memory' }, 'memory');
    const result = await run(AMOUNT);
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
      'with the in-process engine (concurrency 2, queue 256, one API key, no rate limit).',
      `The mix cycles ${cases.length} requests: ${cases.map((c) => `${c.label} (${c.expect})`).join(', ')}.`,
      '',
      '| figure | value |',
      '| --- | --- |',
      `| requests/s (mean) | ${result.requests.average.toFixed(1)} |`,
      `| latency p50 / p99 / max | ${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms |`,
      `| statuses 2xx / 4xx / 5xx / non-HTTP errors / timeouts | ${result['2xx']} / ${result['4xx']} / ${fivexx} / ${result.errors} / ${result.timeouts} |`,
      `| by code | ${Object.entries(result.statusCodeStats ?? {})
        .map(([code, v]) => `${code}: ${(v as { count: number }).count}`)
        .join(', ')} |`,
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
