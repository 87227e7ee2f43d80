/** Child process of the office benchmark: one tool over one set, once; prints its peak RSS. */
import { officeSets, officeTools } from './sets.ts';

const [setName, toolName] = process.argv.slice(2) as [string, 'docmill' | 'anydoc'];
const set = officeSets().find((s) => s.name === setName);
const tool = officeTools()[toolName];
if (!set || !tool) throw new Error(`usage: rss.ts <set> <docmill|anydoc>`);
const before = process.resourceUsage().maxRSS;
for (const f of set.files) await tool(f).catch(() => undefined);
const peak = process.resourceUsage().maxRSS;
console.log(`peakRssMB=${(peak / 1024).toFixed(1)} baselineMB=${(before / 1024).toFixed(1)}`);
process.exit(0);
