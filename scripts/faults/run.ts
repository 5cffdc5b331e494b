/**
 * `npm run test:faults`: the fault, bad-input and quota suite (docs/reliability.md). Runs the
 * campaigns in scripts/faults/*.faults.ts under vitest (vitest.faults.config.ts), each writing its
 * tallies to FAULTS_OUT (a folder in the system's temp dir), the XSS corpus, the page kills and Chromium's real quota (e2e/xss.spec.ts, e2e/page-kills.spec.ts, e2e/quota.spec.ts, Playwright;
 * skipped when campaign files are given as arguments), then prints one table: tried, completed, handled with a clear
 * error, crashed, silently wrong, data lost. Exits non-zero when a campaign failed or any of the
 * last three columns is not zero (with the notes and shrunk counterexamples of those rows).
 *
 * Sizes (environment): FAULTS_FUZZ_RUNS (3000 cases per fuzzer), FAULTS_LLM_RUNS (60 runs),
 * FAULTS_KILL_TRIALS (10 run kills, half as many judge kills), FAULTS_PAGE_KILLS (6 page kills),
 * FAULTS_DOORS_SCALE (1: every case of doors.faults.ts; below 1, a share of them). Seeds are fixed.
 * It also fails when a campaign wrote no tallies, or a row's faults never fired (`fired`, or the
 * cases not completed): npm test runs it reduced (scripts/test-all.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Tally } from '../../src/testing/fuzz';
import { FAULTS_OUT } from './tally';

// FAULTS_KEEP_OUT=1: keep the tallies already in FAULTS_OUT (npm test's Playwright run wrote the Chromium campaigns' there).
if (process.env.FAULTS_KEEP_OUT !== '1') rmSync(FAULTS_OUT, { recursive: true, force: true });
const t0 = Date.now();
const files = process.argv.slice(2);
const campaigns = files.length ? files : readdirSync('scripts/faults').filter((f) => f.endsWith('.faults.ts'));
const CHROMIUM = ['e2e/xss.spec.ts', 'e2e/page-kills.spec.ts', 'e2e/quota.spec.ts'];
const v = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.faults.config.ts', ...files], { stdio: 'inherit', env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } });
// The XSS corpus, the page kills and the real quota run in Chromium (Playwright), and add their tallies (e2e/xss.spec.ts, e2e/page-kills.spec.ts, e2e/quota.spec.ts).
// FAULTS_SKIP_CHROMIUM=1: they ran already (npm test), their tallies are in FAULTS_OUT and are required.
const chromium = files.length === 0;
const x = !chromium || process.env.FAULTS_SKIP_CHROMIUM === '1' ? { status: 0 } : spawnSync('npx', ['playwright', 'test', ...CHROMIUM, '--reporter=line'], { stdio: 'inherit', env: { ...process.env, FAULTS_OUT } });
const tallyFiles = existsSync(FAULTS_OUT) ? readdirSync(FAULTS_OUT).filter((f) => f.endsWith('.json')).sort() : [];
const tallies: Tally[] = tallyFiles.flatMap((f) => JSON.parse(readFileSync(join(FAULTS_OUT, f), 'utf8')) as Tally[]);
const cols = ['tried', 'completed', 'clearError', 'crashed', 'silentlyWrong', 'dataLost'] as const;
const head = ['case', 'tried', 'completed', 'handled with a clear error', 'crashed', 'silently wrong', 'data lost'];
const rows = tallies.map((t) => [t.name, ...cols.map((c) => String(t[c]))]);
const total = ['total', ...cols.map((c) => String(tallies.reduce((s, t) => s + t[c], 0)))];
console.log(`\nFault suite (npm run test:faults), ${((Date.now() - t0) / 1000).toFixed(0)} s:\n`);
console.log(`| ${head.join(' | ')} |`);
console.log(`|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`);
for (const r of [...rows, total]) console.log(`| ${r.join(' | ')} |`);
const bad = tallies.filter((t) => t.crashed + t.silentlyWrong + t.dataLost > 0);
// Every campaign must have run and every row's faults must have fired: a row whose cases all finished before their fault landed proves nothing.
const expected = campaigns.length + (chromium ? CHROMIUM.length : 0);
const missing = tallyFiles.length < expected ? `${expected - tallyFiles.length} of ${expected} campaigns wrote no tallies (${tallyFiles.join(', ') || 'none'} written)` : null;
const firedOf = (t: Tally) => t.fired ?? t.tried - t.completed;
const unfired = tallies.filter((t) => t.tried === 0 || firedOf(t) === 0);
for (const t of unfired) console.log(`\n${t.name}: ${t.tried === 0 ? 'no case was tried' : `no fault fired in its ${t.tried} cases (every case finished before its fault landed)`}`);
if (missing) console.log(`\n${missing}`);
for (const t of tallies) if (t.notes.length && !bad.includes(t)) for (const n of t.notes.filter((x) => x.startsWith('faults injected'))) console.log(`\n${t.name}: ${n}`);
for (const t of bad) {
  console.log(`\n${t.name}:`);
  for (const n of t.notes) console.log(`  ${n}`);
  for (const c of t.counterexamples) console.log(`  shrunk counterexample: ${c}`);
}
const ok = v.status === 0 && x.status === 0 && tallies.length > 0 && bad.length === 0 && unfired.length === 0 && !missing;
const fired = tallies.reduce((s, t) => s + firedOf(t), 0);
console.log(
  `\n${ok ? `fault suite: ${tallyFiles.length} campaigns, ${tallies.length} rows, ${fired} faults fired; zero crashed, zero silently wrong, zero data lost` : `fault suite FAILED${v.status !== 0 ? ` (vitest exited ${v.status})` : ''}${x.status !== 0 ? ` (the Chromium campaigns exited ${x.status})` : ''}${unfired.length ? ` (${unfired.length} rows whose faults never fired)` : ''}${missing ? ` (${missing})` : ''}`}`,
);
process.exit(ok ? 0 : 1);
