#!/usr/bin/env node
// `npm test`: type-check, unit tests (vitest) and end-to-end journeys (Playwright, real Chromium).
// Installs Debian's chromium (and redis-server) first when they are missing and it can (root or passwordless sudo).
// Ends with one line "N passed, N failed" and a non-zero exit code when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

function ensureChromium() {
  if (process.env.CHROMIUM_PATH || existsSync('/usr/bin/chromium')) return true;
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? [] : spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo'] : null;
  if (!sudo) {
    console.error('No Chromium found at /usr/bin/chromium. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH.');
    return false;
  }
  console.log('Installing Debian chromium for the end-to-end tests…');
  const apt = (args) => run(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { DEBIAN_FRONTEND: 'noninteractive' });
  return apt(['update', '-qq']) === 0 && apt(['install', '-y', '-qq', 'chromium']) === 0 && existsSync('/usr/bin/chromium');
}

// redis-server for the queue-backed sweep's test (src/adapters/node/queue/queue-sweep.test.ts starts and stops its own):
// installed before the unit tests when it can be, in one apt-get with chromium when that is missing too.
function ensureRedis() {
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (has('redis-server')) return;
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? [] : spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo'] : null;
  if (!sudo) {
    console.error('No redis-server found: the queue-backed sweep test will fail. Install it (Debian/Ubuntu: sudo apt-get install -y redis-server).');
    return;
  }
  const pkgs = ['redis-server', ...(process.env.CHROMIUM_PATH || existsSync('/usr/bin/chromium') ? [] : ['chromium'])];
  console.log(`Installing Debian ${pkgs.join(' and ')} for the tests…`);
  const apt = (args) => run(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { DEBIAN_FRONTEND: 'noninteractive' });
  if (apt(['update', '-qq']) === 0) apt(['install', '-y', '-qq', ...pkgs]);
}

mkdirSync('test-results', { recursive: true });
ensureRedis();
let passed = 0;
let failed = 0;

console.log('\n== type-check (svelte-check) ==');
if (run('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--threshold', 'error', '--output', 'human']) === 0) passed++;
else failed++;

console.log('\n== unit tests (vitest) ==');
run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest.json']);
try {
  const v = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests + (v.numFailedTestSuites ?? 0) + (v.numTotalTests === 0 ? 1 : 0);
} catch {
  console.error('vitest wrote no results');
  failed++;
}

console.log('\n== end-to-end journeys (Playwright) ==');
if (!ensureChromium()) failed++;
else {
  run('npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json', CI: process.env.CI ?? '1' });
  try {
    const p = JSON.parse(readFileSync('test-results/playwright.json', 'utf8'));
    passed += p.stats.expected;
    failed += p.stats.unexpected + (p.stats.flaky ?? 0) + (p.errors?.length ?? 0) + (p.stats.expected + p.stats.unexpected === 0 ? 1 : 0);
  } catch {
    console.error('Playwright wrote no results');
    failed++;
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
