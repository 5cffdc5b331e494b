/** The tutors of `sweep` from its flags (in process; the spawned CLI is in sweep-cli.test.ts). */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectTutor, sweepTutors } from './commands/llm-options';

const cfg = join(mkdtempSync(join(tmpdir(), 'educlaw-sweep-tutors-')), 'llm.yaml');
writeFileSync(cfg, 'providers:\n  - name: local\n    baseURL: http://127.0.0.1:9/v1\n');

describe('sweep tutors from flags', () => {
  it('built-in tutors as given; an LLM tutor once per model × harness (model-major), harness default reactive', () => {
    const { tutors, voice } = sweepTutors(['planner', 'llm', 'withholder'], { model: ['a', 'b'], harness: ['reactive', 'curriculum'], llmConfig: [cfg], temperature: 0.5 });
    expect(tutors.map((t) => [t.name, t.config.model, t.config.harness])).toEqual([
      ['planner', undefined, undefined],
      ['llm', 'a', 'reactive'],
      ['llm', 'a', 'curriculum'],
      ['llm', 'b', 'reactive'],
      ['llm', 'b', 'curriculum'],
      ['withholder', undefined, undefined],
    ]);
    expect(tutors[1]!.config).toMatchObject({ provider: 'local', temperature: 0.5, maxStepsPerWake: 8 });
    expect(voice).toEqual({ kind: 'templates' });
    expect(sweepTutors(['llm'], { model: ['a'], llmConfig: [cfg] }).tutors.map((t) => t.config.harness)).toEqual(['reactive']);
    expect(sweepTutors(['planner'], {})).toEqual({ tutors: [{ name: 'planner', config: {} }], voice: { kind: 'templates' }, voices: [{ kind: 'templates' }] });
  });

  it('the LLM voice: --voice-model, or the one --model; with several models it must be named', () => {
    expect(sweepTutors(['llm'], { model: ['a'], voice: 'llm', llmConfig: [cfg] }).voice).toEqual({ kind: 'llm', provider: 'local', model: 'a' });
    const v = { kind: 'llm', provider: 'local', model: 'v' } as const;
    expect(sweepTutors(['planner'], { voice: 'llm', voiceModel: ['v'], llmConfig: [cfg] })).toEqual({ tutors: [{ name: 'planner', config: {} }], voice: v, voices: [v] });
    expect(() => sweepTutors(['llm'], { model: ['a', 'b'], voice: 'llm', llmConfig: [cfg] })).toThrow(/several --model: choose the voice's with --voice-model/);
    expect(sweepTutors(['llm'], { model: ['a', 'b'], voice: 'llm', voiceModel: ['v'], llmConfig: [cfg] }).voice).toMatchObject({ model: 'v' });
  });

  it('several student models: one LLM voice per --voice-model, in order', () => {
    const r = sweepTutors(['planner'], { voice: 'llm', voiceModel: ['s1', 's2', 's3'], llmConfig: [cfg] });
    expect(r.voices.map((x) => (x.kind === 'llm' ? x.model : x.kind))).toEqual(['s1', 's2', 's3']);
    expect(r.voice).toEqual(r.voices[0]);
    expect(() => sweepTutors(['planner'], { voiceModel: ['s1'] })).toThrow(/--voice-model is for --voice llm/);
  });

  it('student models of mixed provenance: <model>@<provider>, an unknown provider named', () => {
    const two = join(mkdtempSync(join(tmpdir(), 'educlaw-sweep-voices-')), 'llm.yaml');
    writeFileSync(two, 'providers:\n  - name: local\n    baseURL: http://127.0.0.1:9/v1\n  - name: other\n    baseURL: http://127.0.0.1:10/v1\n');
    const r = sweepTutors(['planner'], { voice: 'llm', voiceModel: ['llama3.1:8b', 'meta/llama-3@other'], voiceProvider: 'local', llmConfig: [two] });
    expect(r.voices).toEqual([
      { kind: 'llm', provider: 'local', model: 'llama3.1:8b' },
      { kind: 'llm', provider: 'other', model: 'meta/llama-3' },
    ]);
    expect(() => sweepTutors(['planner'], { voice: 'llm', voiceModel: ['m@nowhere'], llmConfig: [two] })).toThrow(/nowhere/);
  });

  it('misplaced or missing flags, and repeated --tutor', () => {
    expect(() => sweepTutors(['planner', 'withholder'], { model: ['a'] })).toThrow(/are for LLM tutors \(planner, withholder are not\)/);
    expect(() => sweepTutors(['llm'], { llmConfig: [cfg] })).toThrow(/--tutor llm needs --model/);
    expect(collectTutor('llm', collectTutor('planner'))).toEqual(['planner', 'llm']);
    expect(collectTutor('planner', ['planner'])).toEqual(['planner']);
    expect(() => collectTutor('human')).toThrow(/Allowed choices/);
  });
});
