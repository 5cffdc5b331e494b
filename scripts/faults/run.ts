/**
 * `npm run test:faults`: the fault, bad-input and quota suite (docs/reliability.md). Runs the
 * campaigns in scripts/faults/*.faults.ts under vitest (vitest.faults.config.ts), each writing its
 * tallies to FAULTS_OUT (a folder in the system's temp dir), the XSS corpus, the page kills and Chromium's real quota (e2e/xss.spec.ts, e2e/page-kills.spec.ts, e2e/quota.spec.ts, Playwright;
 * skipped when campaign files are given as arguments), then prints one table: tried, completed, handled with a clear
 * error, crashed, silently wrong, data lost. Exits non-zero when a campaign failed or any of the
 * last three columns is not zero (with the notes and shrunk counterexamples of those rows).
 *
 * Sizes (environment): FAULTS_FUZZ_RUNS (3000 cases per fuzzer), FAULTS_LLM_RUNS (60 runs),
 * FAULTS_KILL_TRIALS (10 run kills, half as many judge kills), FAULTS_PAGE_KILLS (6 page kills). Seeds are fixed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Tally } from '../../src/testing/fuzz';
import { FAULTS_OUT } from './tally';

rmSync(FAULTS_OUT, { recursive: true, force: true });
const t0 = Date.now();
const v = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.faults.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } });
// The XSS corpus, the page kills and the real quota run in Chromium (Playwright), and add their tallies (e2e/xss.spec.ts, e2e/page-kills.spec.ts, e2e/quota.spec.ts).
const x = process.argv.length > 2 ? { status: 0 } : spawnSync('npx', ['playwright', 'test', 'e2e/xss.spec.ts', 'e2e/page-kills.spec.ts', 'e2e/quota.spec.ts', '--reporter=line'], { stdio: 'inherit', env: { ...process.env, FAULTS_OUT } });
const tallies: Tally[] = existsSync(FAULTS_OUT)
  ? readdirSync(FAULTS_OUT)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .flatMap((f) => JSON.parse(readFileSync(join(FAULTS_OUT, f), 'utf8')) as Tally[])
  : [];
const cols = ['tried', 'completed', 'clearError', 'crashed', 'silentlyWrong', 'dataLost'] as const;
const head = ['case', 'tried', 'completed', 'handled with a clear error', 'crashed', 'silently wrong', 'data lost'];
const rows = tallies.map((t) => [t.name, ...cols.map((c) => String(t[c]))]);
const total = ['total', ...cols.map((c) => String(tallies.reduce((s, t) => s + t[c], 0)))];
console.log(`\nFault suite (npm run test:faults), ${((Date.now() - t0) / 1000).toFixed(0)} s:\n`);
console.log(`| ${head.join(' | ')} |`);
console.log(`|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`);
for (const r of [...rows, total]) console.log(`| ${r.join(' | ')} |`);
const bad = tallies.filter((t) => t.crashed + t.silentlyWrong + t.dataLost > 0);
for (const t of tallies) if (t.notes.length && !bad.includes(t)) for (const n of t.notes.filter((x) => x.startsWith('faults injected'))) console.log(`\n${t.name}: ${n}`);
for (const t of bad) {
  console.log(`\n${t.name}:`);
  for (const n of t.notes) console.log(`  ${n}`);
  for (const c of t.counterexamples) console.log(`  shrunk counterexample: ${c}`);
}
const ok = v.status === 0 && x.status === 0 && tallies.length > 0 && bad.length === 0;
console.log(`\n${ok ? 'fault suite: zero crashed, zero silently wrong, zero data lost' : `fault suite FAILED${v.status !== 0 ? ` (vitest exited ${v.status})` : ''}${x.status !== 0 ? ` (the Chromium campaigns exited ${x.status})` : ''}`}`);
process.exit(ok ? 0 : 1);
