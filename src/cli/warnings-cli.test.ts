/**
 * Set-up warnings in the CLI (issue 35): `run` against a provider that returns tool calls as text
 * (vLLM without a tool parser) says so on stderr by name; `score` says it again for the stored
 * trace, and in --json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAi, chat, type MockServer, type WireRequest } from '../testing/mock-openai-server';
import { MINI_PATH } from '../testing/fixtures';

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi((body: WireRequest) => {
    const last = body.messages[body.messages.length - 1]!;
    return last.role === 'tool' ? chat('Done.') : chat('<tool_call>\n{"name": "send_message", "arguments": {"text": "What is the first step?"}}\n</tool_call>');
  });
});
afterAll(() => srv.close());

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

/** Runs the CLI without blocking this process (the mock provider answers from it). */
function cli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('set-up warnings in the CLI', () => {
  it('run prints TEXT_TOOL_CALLS on stderr (exit 0: the run reached its horizon); score prints it again, and --json carries it', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'educlaw-warn-')), 'run.jsonl');
    const env = { ...process.env, OPENAI_BASE_URL: srv.url, OPENAI_API_KEY: 'none', EDUCLAW_LLM_BACKOFF_MS: '1' };
    const run = await cli(['run', '--scenario', MINI_PATH, '--tracer', 'bkt', '--tutor', 'llm', '--model', 'qwen', '--out', out], env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^warning: mini-3day__llm-reactive-qwen__s\d+: TEXT_TOOL_CALLS: \d+ of \d+ tutor model replies \(default\/qwen\) returned their tool calls as text in the content \(hermes\)/m);
    const score = await cli(['score', out]);
    expect(score.status).toBe(0);
    expect(score.stderr).toMatch(/warning: .*TEXT_TOOL_CALLS/);
    const json = await cli(['score', '--json', out]);
    expect((JSON.parse(json.stdout) as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toEqual(['TEXT_TOOL_CALLS']);
  });
});
