/**
 * The Python side of bring-your-own-tutor (issue 35), run where Python has the packages and
 * skipped with the reason otherwise: the example agent on the official Python MCP SDK
 * (examples/python-mcp-agent/agent.py) tutors a run over stdio and over Streamable HTTP (naming
 * itself and its model with headers), and a mixed export (built-in, LLM and MCP tutors) loads
 * with Hugging Face `datasets` as one table, concatenates, keeps each simulated student on one side
 * of the split, and (with `transformers`) renders through a tool-aware chat template.
 *
 * Python: $EDUCLAW_PYTHON, else python3. The packages: `pip install mcp datasets transformers`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonl, toJsonl, llmTutorConfig, type TraceEvent } from '../core/index';
import { MINI_PATH, miniScenario, runWith } from '../testing/fixtures';
import { startMockOpenAi, policyReply, type MockServer } from '../testing/mock-openai-server';
import { OpenAiCompatClient } from '../adapters/llm/openai-compat';
import { ProviderSchema } from '../adapters/llm/config';

const PY = process.env.EDUCLAW_PYTHON || 'python3';
const has = (mods: string) => spawnSync(PY, ['-c', `import ${mods}`], { stdio: 'ignore' }).status === 0;
const hasMcp = has('mcp');
const hasDatasets = has('datasets');
const hasTransformers = hasDatasets && has('transformers, jinja2');
const hasTrl = hasTransformers && has('trl.data_utils');
const why = (ok: boolean, pkg: string) => (ok ? '' : ` (skipped: ${PY} cannot import ${pkg}; pip install ${pkg}, or set EDUCLAW_PYTHON)`);
if (!hasMcp || !hasDatasets || !hasTransformers) console.warn(`python-examples: ${[!hasMcp && 'mcp', !hasDatasets && 'datasets', !hasTransformers && 'transformers (with jinja2)'].filter(Boolean).join(', ')} not importable by ${PY}: those checks are skipped`);

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const AGENT = 'examples/python-mcp-agent/agent.py';
const dir = mkdtempSync(join(tmpdir(), 'educlaw-py-'));
const mcpTrace = join(dir, 'mcp.jsonl');

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi(policyReply);
});
afterAll(() => srv.close());

describe('the Python example agent on the official MCP SDK', () => {
  it.skipIf(!hasMcp)(`tutors a run over stdio to its end; the trace names it${why(hasMcp, 'mcp')}`, () => {
    const out = execFileSync(PY, [AGENT, '--stdio', '--', process.execPath, ...CLI, 'serve-mcp', '--scenario', MINI_PATH, '--tracer', 'bkt', '--seed', '9', '--out', mcpTrace, '--quiet'], { encoding: 'utf8', timeout: 120_000 });
    const stats = JSON.parse(out.trim().split('\n').pop()!) as { runs: string[]; turns: number; errors: Record<string, number>; ends: { reason: string }[] };
    expect(stats.runs).toEqual(['mini-3day__mcp-python-example-tutor__s9']);
    expect(stats.ends).toEqual([{ run_id: 'mini-3day__mcp-python-example-tutor__s9', reason: 'horizon_reached' }]);
    expect(stats.errors).toEqual({});
    const t = parseJsonl(readFileSync(mcpTrace, 'utf8'));
    expect(t.events[0]).toMatchObject({ type: 'run_start', tutor: { name: 'mcp', config: { agent: 'python-example-tutor', version: '1.0.0' } } });
    expect(t.events.filter((e) => e.type === 'tool_call' && e.result.ok).length).toBeGreaterThan(20);
  });

  it.skipIf(!hasMcp)(`over Streamable HTTP, naming itself and its model with headers${why(hasMcp, 'mcp')}`, async () => {
    const out = join(dir, 'http.jsonl');
    const proc = spawn(process.execPath, [...CLI, 'serve-mcp', '--scenario', MINI_PATH, '--tracer', 'bkt', '--seed', '4', '--out', out, '--transport', 'http', '--port', '0'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        proc.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          const m = /listening on (\S+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        proc.once('exit', (code) => reject(new Error(`serve-mcp exited (${code}): ${stderr}`)));
      });
      const res = spawnSync(PY, [AGENT, '--url', url, '--model', 'qwen2.5-7b'], { encoding: 'utf8', timeout: 120_000 });
      expect(res.status, res.stderr).toBe(0);
      const t = parseJsonl(readFileSync(out, 'utf8'));
      expect(t.events[0]).toMatchObject({ type: 'run_start', runId: 'mini-3day__mcp-python-example-tutor-qwen2.5-7b__s4' });
      expect(t.events.find((e) => e.type === 'run_end')).toMatchObject({ reason: 'horizon_reached' });
    } finally {
      proc.kill();
    }
  });
});

/** A tool-aware chat template (Hermes style), written for this test: the tools in the system turn, calls as <tool_call>, results as <tool_response>. */
const TEMPLATE = [
  "{%- if tools %}<|system|>Tools:{% for t in tools %}\n{{ t['function'] | tojson }}{% endfor %}<|end|>{% endif -%}",
  "{%- for m in messages -%}",
  "{%- if m['role'] == 'tool' %}<|user|><tool_response>{{ m['content'] }}</tool_response><|end|>",
  "{%- elif m['role'] == 'assistant' %}<|assistant|>{{ m['content'] or '' }}{% for c in m.get('tool_calls') or [] %}<tool_call>{{ {'name': c['function']['name'], 'arguments': c['function']['arguments']} | tojson }}</tool_call>{% endfor %}<|end|>",
  "{%- else %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endif -%}",
  '{%- endfor -%}',
].join('');

describe('a mixed export loads with Hugging Face datasets', () => {
  it.skipIf(!hasDatasets || !hasMcp)(`built-in, LLM and MCP tutors: one table, concatenated, each student on one side of the split, rendered with tools${why(hasDatasets, 'datasets')}${why(hasMcp, 'mcp')}`, async () => {
    const traces = join(dir, 'traces');
    mkdirSync(traces, { recursive: true });
    const write = (name: string, ev: readonly TraceEvent[]) => writeFileSync(join(traces, name), toJsonl(ev));
    write('planner.jsonl', (await runWith(miniScenario(), 'planner', { seed: 9 })).events);
    const p = ProviderSchema.parse({ name: 'local', baseURL: srv.url, backoffMs: 1 });
    const llm = await runWith(miniScenario(), 'llm', { seed: 9, tutorConfig: llmTutorConfig({ harness: 'reactive', model: 'tutor-m', provider: 'local' }), env: { llm: ({ model }) => new OpenAiCompatClient(p, model) } });
    write('llm.jsonl', llm.events);
    copyFileSync(mcpTrace, join(traces, 'mcp.jsonl'));
    const files = ['planner', 'llm', 'mcp'].map((n) => join(dir, `${n}.traj.jsonl`));
    for (const [i, n] of ['planner', 'llm', 'mcp'].entries()) execFileSync(process.execPath, [...CLI, 'export-trajectories', join(traces, `${n}.jsonl`), '--out', files[i]!], { stdio: 'ignore' });
    const args = [join('examples/python-mcp-agent/load_trajectories.py'), ...files];
    if (hasTransformers) {
      const tok = join(dir, 'tokenizer');
      mkdirSync(tok, { recursive: true });
      copyFileSync('e2e/fixtures/tiny-lm/educlaw/tiny-voice-lm/tokenizer.json', join(tok, 'tokenizer.json'));
      const cfg = JSON.parse(readFileSync('e2e/fixtures/tiny-lm/educlaw/tiny-voice-lm/tokenizer_config.json', 'utf8')) as Record<string, unknown>;
      writeFileSync(join(tok, 'tokenizer_config.json'), JSON.stringify({ ...cfg, chat_template: TEMPLATE }));
      args.push('--template', tok);
    }
    const res = spawnSync(PY, args, { encoding: 'utf8', timeout: 300_000 });
    expect(res.status, res.stderr.slice(-3000)).toBe(0);
    const o = JSON.parse(res.stdout.trim().split('\n').pop()!) as { rows: number; tutors: Record<string, number>; tutor_names: string[]; splits: Record<string, number>; samples: number; groups_crossing_splits: string[]; formats: string[]; rendered?: number };
    const lines = files.map((f) => readFileSync(f, 'utf8').trim().split('\n').length);
    expect(o.rows).toBe(lines.reduce((a, b) => a + b, 0));
    expect(o.tutor_names).toEqual(['llm', 'mcp', 'planner']);
    expect(o.samples).toBe(3);
    expect(o.formats).toEqual(['educlaw-trajectory/3']);
    expect(o.groups_crossing_splits).toEqual([]);
    if (hasTransformers) expect(o.rendered).toBe(o.rows);
  });

  it.skipIf(!hasTrl || !hasMcp)(`the prompt/completion form of the same mixed export, exported together (advantages across tutors), renders through TRL's apply_chat_template${why(hasTrl, 'trl')}${why(hasMcp, 'mcp')}`, () => {
    const traces = join(dir, 'traces');
    const pc = join(dir, 'mixed.pc.jsonl');
    const msgs = join(dir, 'mixed.jsonl');
    // Run after the test above (vitest runs a file's tests in order): its traces are there.
    execFileSync(process.execPath, [...CLI, 'export-trajectories', traces, '--form', 'prompt-completion', '--out', pc], { stdio: 'ignore' });
    execFileSync(process.execPath, [...CLI, 'export-trajectories', traces, '--out', msgs], { stdio: 'ignore' });
    const tok = join(dir, 'tokenizer');
    for (const f of [pc, msgs]) {
      const res = spawnSync(PY, ['examples/python-mcp-agent/load_trajectories.py', f, '--template', tok, '--trl'], { encoding: 'utf8', timeout: 300_000 });
      expect(res.status, res.stderr.slice(-3000)).toBe(0);
      const o = JSON.parse(res.stdout.trim().split('\n').pop()!) as { rows: number; columns: string[]; tutor_names: string[]; rendered: number; renderer: string; formats: string[] };
      expect(o).toMatchObject({ tutor_names: ['llm', 'mcp', 'planner'], renderer: 'trl', formats: ['educlaw-trajectory/3'] });
      expect(o.rendered).toBe(o.rows);
      expect(o.columns).toEqual(expect.arrayContaining(f === pc ? ['prompt', 'completion', 'label', 'advantage', 'return', 'reward'] : ['messages', 'advantage', 'group_size']));
    }
    // The three tutors tutored one simulated student: their runs are compared (group of 3).
    const rows = readFileSync(pc, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { group_size: number; advantage: number; sample_id: string });
    expect(new Set(rows.map((r) => r.group_size))).toEqual(new Set([3]));
    expect(new Set(rows.map((r) => r.sample_id)).size).toBe(3);
  });
});
