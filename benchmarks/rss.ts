/** Child process for peak-RSS measurement: runs one tool on a suite's `rssInput` and prints maxRSS. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot } from './harness.ts';
import { suites } from './suites/index.ts';

const [suiteName, toolName] = process.argv.slice(2);
const suite = suites.find((s) => s.name === suiteName);
if (!suite?.rssInput) throw new Error(`suite ${suiteName} has no rssInput`);
const tool = (await suite.tools()).find((t) => t.name === toolName);
if (!tool) throw new Error(`no tool ${toolName}`);
const bytes = new Uint8Array(readFileSync(join(corpusRoot, suite.rssInput)));
const before = process.resourceUsage().maxRSS;
await tool.run({ name: suite.rssInput, bytes, units: 1 });
const peak = process.resourceUsage().maxRSS;
console.log(`peakRssMB=${(peak / 1024).toFixed(1)} baselineMB=${(before / 1024).toFixed(1)}`);
process.exit(0);
