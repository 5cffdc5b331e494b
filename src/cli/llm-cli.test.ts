/** The CLI end to end with a local chat-completions server: run --tutor llm, then judge; no key anywhere. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAi, type MockServer } from '../testing/mock-openai-server';
import { parseJsonl, scoreTrace } from '../core/index';

const run = promisify(execFile);
const KEY = 'sk-cli-SHOULDNOTLEAK-9876543210';
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

describe('CLI with an LLM tutor and a judge panel', () => {
  it('runs an LLM tutor from OPENAI_BASE_URL/OPENAI_API_KEY, judges the trace offline, and never writes the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-llm-'));
    const trace = join(dir, 'llm.jsonl');
    const env = { ...process.env, OPENAI_BASE_URL: srv.url, OPENAI_API_KEY: KEY };
    const a = await run('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'llm', '--harness', 'curriculum', '--model', 'mock-tutor', '--voice', 'llm', '--voice-model', 'mock-student', '--out', trace], { env });
    expect(a.stdout).toMatch(/horizon_reached/);
    expect(a.stdout).toMatch(/LLM tokens in\/out \(tutor\)\s+\d+\/\d+ \(\d+ calls\)/);
    const t = parseJsonl(readFileSync(trace, 'utf8'));
    const start = t.events[0]!;
    expect(start.type === 'run_start' && start.tutor).toMatchObject({ name: 'llm', config: { harness: 'curriculum', model: 'mock-tutor', provider: 'default' } });
    expect(srv.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

    const panel = join(dir, 'panel.yaml');
    writeFileSync(
      panel,
      `providers:\n  - name: local\n    baseURL: ${srv.url}\n    apiKeyEnv: JUDGE_KEY\n    models:\n      judge-4: { input: 1, output: 2, family: alpha }\n      judge-2: { input: 1, output: 2, family: beta }\n      judge-3: { input: 1, output: 2, family: gamma }\njudges:\n  - { provider: local, model: judge-4 }\n  - { provider: local, model: judge-2 }\n  - { provider: local, model: judge-3 }\ndaysPerRun: 2\n`,
    );
    const b = await run('npx', ['tsx', 'src/cli/main.ts', 'judge', trace, '--panel', panel], { env: { ...process.env, JUDGE_KEY: KEY } });
    expect(b.stdout).toMatch(/IVa Gagné\s+3\.00/);
    expect(b.stdout).toMatch(/Judge agreement/);
    expect(b.stdout).toMatch(/Judge tokens: \d+ in, \d+ out; cost \$\d/);
    const judged = parseJsonl(readFileSync(trace, 'utf8'));
    const rep = scoreTrace(judged.events);
    expect(rep.judged.helpfulness).toBeCloseTo(3, 6);
    expect(rep.details.judged.panel!.days).toHaveLength(2);
    for (const text of [readFileSync(trace, 'utf8'), a.stdout, a.stderr, b.stdout, b.stderr]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('SHOULDNOTLEAK');
    }
  });

  it('names the problem when no provider is configured', async () => {
    const env = { ...process.env };
    delete env.OPENAI_BASE_URL;
    delete env.OPENAI_API_KEY;
    const e = await run('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'llm', '--model', 'x', '--out', join(tmpdir(), 'never.jsonl')], { env }).catch((x: { stderr: string; code: number }) => x);
    expect((e as { code: number }).code).toBe(1);
    expect((e as { stderr: string }).stderr).toMatch(/no LLM provider configured: set OPENAI_BASE_URL/);
  });
});
