import { createEngine } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { AuditEvent, RequestLog } from '../src/config.ts';
import { capLogString, MAX_LOG_STRING } from '../src/log-fields.ts';
import { form, post } from './helpers.ts';

const engine = createEngine();
afterAll(() => engine.close());

describe('every logged string is capped', () => {
  it('cuts a huge file name, path and audit username to 256 characters, marked as cut', async () => {
    const logs: RequestLog[] = [];
    const audits: AuditEvent[] = [];
    const app = createApp(engine, { rateLimit: false, log: (r) => logs.push(r), audit: (e) => audits.push(e) });
    const name = `${'n'.repeat(9000)}.html`;
    const user = 'u'.repeat(1000);
    const html = new Blob(['<h1>Long name</h1>'], { type: 'text/html' });
    const options = JSON.stringify({ auditMetadata: { username: user } });
    const ok = await app.app.request('/v2/parse', post(form({ options, file: html, filename: name })));
    expect(ok.status).toBe(200);
    const missing = await app.app.request(`/${'p'.repeat(6000)}`);
    expect(missing.status).toBe(404);

    expect(logs[0]?.filename).toBe(`${'n'.repeat(MAX_LOG_STRING)}…[cut, ${name.length} chars]`);
    expect(logs[1]?.path).toBe(`/${'p'.repeat(MAX_LOG_STRING - 1)}…[cut, 6001 chars]`);
    expect(audits[0]?.username).toBe(`${'u'.repeat(MAX_LOG_STRING)}…[cut, 1000 chars]`);
    for (const line of [...logs, ...audits]) expect(JSON.stringify(line).length).toBeLessThan(2000);
  });

  it('keeps short strings and never splits a surrogate pair', () => {
    expect(capLogString('report.pdf')).toBe('report.pdf');
    const s = `${'a'.repeat(MAX_LOG_STRING - 1)}😀tail`;
    expect(capLogString(s)).toBe(`${'a'.repeat(MAX_LOG_STRING - 1)}…[cut, ${s.length} chars]`);
  });
});
