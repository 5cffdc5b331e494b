/**
 * `npm run test:fast`: the inner loop. The in-process unit tests of the core, the page (components
 * and state) and the browser's adapters, plus the architecture and docs-link checks: no
 * subprocesses, servers, Redis, pinned traces or sweeps on worker threads, no file over a few
 * seconds. `npm test` (scripts/test-all.mjs, vite.config.ts) still runs every test file, these
 * included; so does `npx vitest run`.
 *
 * What is in the fast tier: every `*.test.ts` under FAST, except the files in INTEGRATION. A new
 * test file under FAST is in the fast tier by default, and it is held to it:
 *  - starting a subprocess fails the test (src/testing/fast-tier.setup.ts);
 *  - a file whose tests take longer than FILE_BUDGET_S fails the run, naming the file.
 * Either way the fix is to list the file in INTEGRATION with why (or to make the test fast).
 * Measured times: docs/measurements/test-tiers.md.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import type { Reporter, TestModule } from 'vitest/node';
import base from './vite.config';

/** Folders (and single files) whose tests are unit tests of in-process code. */
const FAST = ['src/core', 'src/ui', 'src/adapters/browser', 'src/adapters/plot', 'src/adapters/ort', 'src/adapters/classroom', 'src/architecture.test.ts', 'scripts/docs'];

/**
 * Test files under FAST that belong to the integration tier, with why (the seconds are the file's
 * test time in a full `npx vitest run` on the shared 2-core machine, 2026-12-03). Everything
 * outside FAST is integration too: src/cli (the CLI as a subprocess), src/adapters/node (files,
 * ONNX Runtime, worker threads, Redis), src/adapters/llm (scripted provider servers), src/server,
 * scripts/pins (the 144 pinned traces), src/testing (the fuzzer), and src/integration (tests across
 * layers: the CLI as a subprocess, Redis-backed sweeps, the classroom service on a database),
 * which is excluded below whatever FAST says.
 */
export const INTEGRATION: Record<string, string> = {
  'src/core/course/course.test.ts': 'the whole item bank: 110 skills × 3 levels × 80 seeds (27.6 s); the per-domain generator files stay fast',
  'src/core/engine/resume.test.ts': 'resumes full 30-day runs from 20 cut points each (21.9 s)',
  'src/core/scenario/library-runs.test.ts': 'runs library scenarios to their horizon (5.6 s)',
  'src/adapters/browser/agent-http.test.ts': 'starts an HTTP server',
};

/** Most seconds one fast file's tests and hooks may take (FAST_FILE_BUDGET_S overrides it). */
const FILE_BUDGET_S = Number(process.env.FAST_FILE_BUDGET_S ?? 10);

/** Fails the run when a fast file takes longer than the budget, saying which and what to do. */
class FileBudget implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const slow = modules
      .map((m) => ({ file: m.relativeModuleId, s: m.diagnostic().duration / 1000 }))
      .filter((m) => m.s > FILE_BUDGET_S)
      .sort((a, b) => b.s - a.s);
    if (!slow.length) return;
    console.error(`\nThe fast tier allows ${FILE_BUDGET_S} s per test file; these took longer:`);
    for (const m of slow) console.error(`  ${m.file}: ${m.s.toFixed(1)} s`);
    console.error('Make the test faster, or list the file in INTEGRATION in vitest.fast.config.ts with why (npm test still runs it).\n');
    process.exitCode = 1;
  }
}

const test = base.test!;
export default defineConfig({
  ...base,
  test: {
    ...test,
    include: FAST.flatMap((p) => (p.endsWith('.ts') ? [p] : [`${p}/**/*.test.ts`])),
    exclude: [...configDefaults.exclude, 'src/integration/**', ...Object.keys(INTEGRATION)],
    setupFiles: ['src/testing/fast-tier.setup.ts'],
    // One module cache per worker for all its files: the fast files import the same core, and
    // re-importing it per file was half the tier's time (import 52.6 s of a 108 s run, load 1.4;
    // 33-35 s without, three runs, two of them shuffled with --sequence.shuffle). So a fast file must
    // leave no global state behind (no vi.mock, stubbed globals or fake timers; IndexedDB names of
    // its own); `npm test` still runs every file isolated, so a leak shows as a difference there.
    isolate: false,
    reporters: ['default', new FileBudget()],
  },
});
