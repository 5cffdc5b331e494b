/**
 * Property-based fuzzing of the scenario parser, the trace reader and the tool-argument
 * validation (fast-check, fixed seeds; issue 16), a few hundred cases each so that `npm test`
 * stays fast. `npm run test:faults` runs the same campaigns with thousands of cases and prints
 * the table in docs/reliability.md.
 */
import { describe, expect, it } from 'vitest';
import { fuzzScenarios, fuzzToolArgs, fuzzTraces, type Tally } from './fuzz';

const clean = (t: Tally) => {
  expect({ crashed: t.crashed, silentlyWrong: t.silentlyWrong, dataLost: t.dataLost, notes: t.notes, counterexamples: t.counterexamples }).toEqual({ crashed: 0, silentlyWrong: 0, dataLost: 0, notes: [], counterexamples: [] });
  expect(t.completed + t.clearError).toBe(t.tried);
};

describe('fuzzing (fixed seeds)', () => {
  it('the scenario parser: every file is accepted within bounds or refused naming file, line and field', async () => {
    const t = await fuzzScenarios(300);
    clean(t);
    expect(t.clearError).toBeGreaterThan(50); // the mutations do reach the refusals
    expect(t.completed).toBeGreaterThan(10);
  });

  it('the trace reader: every mutated trace is refused with file and line, or scores within every bound and reads back unchanged', async () => {
    const t = await fuzzTraces(300);
    clean(t);
    expect(t.clearError).toBeGreaterThan(100);
  });

  it('tool arguments: every call gets a result; nothing is accepted that its schema refuses; the trace still reads', async () => {
    const t = await fuzzToolArgs(300);
    clean(t);
    expect(t.completed).toBeGreaterThan(10);
  });
});

describe('shrunk counterexamples the fuzzing found, kept as regression tests', () => {
  it('an empty scenario file (and one of only comments) is refused at line 1, not "?:?"', async () => {
    const { judgeScenario } = await import('./fuzz');
    const { parseScenario } = await import('../core/index');
    for (const text of ['', '# nothing here\n', '\n\n']) {
      expect(judgeScenario(text)).toEqual({ kind: 'clearError' });
      expect(() => parseScenario(text, 'empty.yaml')).toThrow(/^empty\.yaml: 1 problem\n {2}empty\.yaml:1:1 \(document\): /);
    }
  });
});

describe('more shrunk counterexamples', () => {
  it('a quote left open at the start of a line inside a mapping names the field before it (it gave "(document)")', async () => {
    const { judgeScenario } = await import('./fuzz');
    const { readFileSync } = await import('node:fs');
    const { MINI_PATH } = await import('./fixtures');
    const good = readFileSync(MINI_PATH, 'utf8');
    const text = good.replace('    name: help-seeker\n', '    name: help-seeker\n"\n');
    expect(judgeScenario(text)).toEqual({ kind: 'clearError' });
  });
});

describe('a key that is a list or a map (found by the fuzzing: it was stringified with only a process warning)', () => {
  it('is refused with its line and field', async () => {
    const { parseScenario, ScenarioError } = await import('../core/index');
    const { readFileSync } = await import('node:fs');
    const { MINI_PATH } = await import('./fixtures');
    const text = readFileSync(MINI_PATH, 'utf8').replace('seed: 7\n', 'seed: 7\n? [a, b]\n: 1\n');
    const e = (() => {
      try {
        parseScenario(text, 'keys.yaml');
      } catch (x) {
        return x as InstanceType<typeof ScenarioError>;
      }
      throw new Error('accepted');
    })();
    expect(e).toBeInstanceOf(ScenarioError);
    expect(e.issues[0]).toMatchObject({ line: text.split('\n').indexOf('? [a, b]') + 1, message: 'YAML: a key must be a plain name, not a list or a map' });
    expect(e.issues[0]!.path).not.toBe('');
  });
});
