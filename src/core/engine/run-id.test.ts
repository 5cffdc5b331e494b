/**
 * Run ids: "<scenario>__<tutor>__s<seed>". Built-in tutors keep their name there (their run ids,
 * and the pinned reference traces, never change); the LLM tutor puts a label of its harness and
 * model there, so that the LLM tutors of one sweep get different run ids and trace files; the run
 * id a run records in run_start is the one runIdOf gives for its record.
 */
import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../testing/fixtures';
import { MockLlm, TUTORS, llmRunLabel, llmTutorConfig, runIdFor, runIdOf, runRecord, tutorRunName } from '../index';

const rec = (name: string, config: Record<string, unknown> = {}, seed = 3) => runRecord({ scenario: miniScenario(), tutor: { name, config }, seed });

describe('run ids', () => {
  it('built-in tutors: the tutor name, as always', () => {
    for (const t of ['answer-giver', 'withholder', 'planner']) expect(runIdOf(rec(t))).toBe(`mini-3day__${t}__s3`);
    expect(runIdOf(runRecord({ scenario: miniScenario(), tutor: { name: 'planner', config: {} } }))).toBe('mini-3day__planner__s7');
    expect(runIdOf(rec('human'))).toBe('mini-3day__human__s3');
    expect(tutorRunName({ name: 'not-registered' })).toBe('not-registered');
    expect(runIdFor('a', 'b', 1)).toBe('a__b__s1');
  });

  it('the LLM tutor: "llm-<harness>-<model>", the model made file-name safe; defaults filled before labelling', () => {
    expect(runIdOf(rec('llm', { harness: 'reactive', model: 'gpt-4.1-mini', provider: 'openai' }))).toBe('mini-3day__llm-reactive-gpt-4.1-mini__s3');
    expect(runIdOf(rec('llm', { harness: 'notes', model: 'llama3.1:8b', provider: 'ollama' }))).toBe('mini-3day__llm-notes-llama3.1-8b__s3');
    expect(llmRunLabel({ harness: 'curriculum', model: 'meta-llama/Llama-3.1-8B__Instruct' })).toBe('llm-curriculum-meta-llama-llama-3.1-8b-instruct');
    expect(llmRunLabel({ harness: 'reactive', model: '///' })).toBe('llm-reactive-model');
    // Same model, other harness or model: other run ids; temperature and provider are not in the id.
    const ids = new Set([
      runIdOf(rec('llm', { harness: 'reactive', model: 'a', provider: 'p' })),
      runIdOf(rec('llm', { harness: 'notes', model: 'a', provider: 'p' })),
      runIdOf(rec('llm', { harness: 'reactive', model: 'b', provider: 'p' })),
    ]);
    expect(ids.size).toBe(3);
    expect(runIdOf(rec('llm', { harness: 'reactive', model: 'a', provider: 'q', temperature: 0.7 }))).toBe('mini-3day__llm-reactive-a__s3');
    // The label is the entry's: a registry without it uses the name.
    const plain = new Map([...TUTORS].map(([k, v]) => [k, { ...v, runLabel: undefined }]));
    expect(runIdOf(rec('llm', { harness: 'reactive', model: 'a', provider: 'p' }), plain)).toBe('mini-3day__llm__s3');
    expect(() => runIdOf(rec('llm', { harness: 'nope', model: 'a', provider: 'p' }))).toThrow(/harness/);
  });

  it('run_start records the run id runIdOf gives', async () => {
    const llm = new MockLlm(() => ({ content: 'Nothing to do.' }), { model: 'Org/M:1', provider: 'p1' });
    const config = llmTutorConfig({ harness: 'notes', model: llm.model, provider: llm.provider });
    const res = await runWith(miniScenario(), 'llm', { tutorConfig: config, seed: 5, horizonDays: 1, env: { llm: () => llm } });
    const start = res.events[0]!;
    expect(start.type === 'run_start' && start.runId).toBe('mini-3day__llm-notes-org-m-1__s5');
    expect(res.runId).toBe('mini-3day__llm-notes-org-m-1__s5');
    const planner = await runWith(miniScenario(), 'planner', { seed: 5, horizonDays: 1 });
    expect(planner.runId).toBe('mini-3day__planner__s5');
  });

  it('a resumed run keeps the run id of its trace (an LLM trace from before run ids held harness and model resumes as it is)', async () => {
    const policy = (req: { messages: { role: string; content: string | null }[] }) => ({ content: req.messages.length > 2 ? 'Done.' : 'Nothing to do.' });
    const make = () => new MockLlm(policy, { model: 'm', provider: 'p' });
    const config = llmTutorConfig({ harness: 'reactive', model: 'm', provider: 'p' });
    const full = await runWith(miniScenario(), 'llm', { tutorConfig: config, seed: 5, horizonDays: 2, env: { llm: make } });
    expect(full.runId).toBe('mini-3day__llm-reactive-m__s5');
    const old = full.events.map((e) => (e.type === 'run_start' ? { ...e, runId: 'mini-3day__llm__s5' } : e));
    const resumed = await runWith(miniScenario(), 'llm', { tutorConfig: config, seed: 5, horizonDays: 2, env: { llm: make }, resume: old.slice(0, Math.floor(old.length / 2)) });
    expect(resumed.reason).toBe('horizon_reached');
    expect(resumed.runId).toBe('mini-3day__llm__s5');
    expect(resumed.events).toEqual(old);
  });
});
