/**
 * Scenario validation of hostile or broken files (issue 16): every error names file, line and
 * field (YAML syntax errors, duplicate keys, alias bombs included); unknown tracer names are
 * refused at validate time; sizes and string lengths are bounded so a huge file is refused fast.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario, ScenarioError, MAX_SCENARIO_BYTES, SCENARIO_LIMITS } from '../index';
import { MINI_PATH } from '../../testing/fixtures';

const good = readFileSync(MINI_PATH, 'utf8');
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

function refused(text: string, file = 'bad.yaml'): ScenarioError {
  try {
    parseScenario(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioError);
    const se = e as ScenarioError;
    // Every issue has a field and a line.
    for (const i of se.issues) {
      expect(i.path, se.message).not.toBe('');
      expect(i.line, se.message).toBeGreaterThan(0);
    }
    expect(se.message).not.toContain('(root)');
    return se;
  }
  throw new Error('the scenario was accepted');
}

describe('scenario validation of hostile files', () => {
  it('an unknown tracer is refused at validate time, naming the field and line', () => {
    const text = good.replace('tracer: bkt', 'tracer: dkt');
    const e = refused(text);
    expect(e.issues[0]).toMatchObject({ path: 'learner.tracer', line: lineOf(text, 'tracer: dkt') });
    expect(e.message).toMatch(/bad\.yaml:\d+:\d+ learner\.tracer: unknown tracer "dkt" \(tracers: akt, bkt\)/);
  });

  it('duplicate keys name the key and its line, not "(root)"', () => {
    const text = good.replace('  ability: low', '  ability: low\n  ability: high');
    const e = refused(text);
    expect(e.issues[0]).toMatchObject({ path: 'learner.ability', line: lineOf(text, 'ability: high') });
    expect(e.issues[0]!.message).toMatch(/given twice/);
    const top = refused(good.replace('seed: 7', 'seed: 7\nseed: 8'));
    expect(top.issues[0]!.path).toBe('seed');
  });

  it('YAML syntax errors name the field where they are', () => {
    const text = good.replace('    helpProbAfterWrong: 0.9', '    helpProbAfterWrong: "0.9');
    const e = refused(text);
    expect(e.issues[0]!.path).toMatch(/^learner\.persona/);
    const flow = refused(good.replace('skills: [68, 87]', 'skills: [68, 87'));
    expect(flow.issues[0]!.path).toMatch(/^course/);
    // A quote left open on the first line: still a line and a field (the key the parser reads).
    expect(refused('"unclosed\n' + good).issues[0]!.line).toBeGreaterThan(0);
  });

  it('an alias bomb is stopped with the file, the line and the field of its first alias', () => {
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]', 'g: [*f,*f,*f,*f,*f,*f,*f,*f,*f]'].join('\n');
    const t0 = performance.now();
    const e = refused(bomb + '\n' + good, 'bomb.yaml');
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(e.issues[0]).toMatchObject({ path: 'b[0]', line: 2 });
    expect(e.message).toMatch(/^bomb\.yaml: 1 problem\n {2}bomb\.yaml:2:\d+ b\[0\]: YAML: aliases expand to too many nodes/);
    // Anchors and a few aliases are fine.
    expect(() => parseScenario(good.replace('    - days: [mon, tue, wed]', '    - days: &d [mon, tue, wed]') + '    - days: *d\n      start: "18:00"\n      minutes: 30\n')).not.toThrow();
    // An alias without its anchor names its line and field too.
    expect(refused(good + '    - days: *nowhere\n      start: "18:00"\n      minutes: 30\n').issues[0]).toMatchObject({ path: 'schedule.blocks[1].days' });
  });

  it('a file far over the size limit is refused at once, cheaply', () => {
    const huge = good + '\n# ' + 'x'.repeat(12 * 1024 * 1024);
    const t0 = performance.now();
    const e = refused(huge, 'huge.yaml');
    expect(performance.now() - t0).toBeLessThan(500);
    expect(e.issues[0]).toMatchObject({ path: '(file)', line: 1 });
    expect(e.message).toMatch(new RegExp(`at most ${MAX_SCENARIO_BYTES}`));
    // A list of 100,000 blocks (under the byte limit) is refused by the list bound.
    const many = good.replace('schedule:\n  name: afternoons\n  blocks:\n', `schedule:\n  name: afternoons\n  blocks:\n${'    - {days: [mon], start: "16:00", minutes: 5}\n'.repeat(3000)}`);
    expect(refused(many).issues[0]!.path).toBe('schedule.blocks');
  });

  it('string lengths are bounded: a 100,000-character id (it broke the sweep with ENAMETOOLONG), title or description', () => {
    const id = refused(good.replace('id: mini-3day', `id: ${'a'.repeat(100_000)}`));
    expect(id.issues[0]).toMatchObject({ path: 'id', line: 3 });
    expect(id.issues[0]!.message).toMatch(new RegExp(`at most ${SCENARIO_LIMITS.idChars} characters`));
    expect(() => parseScenario(good.replace('id: mini-3day', `id: ${'a'.repeat(SCENARIO_LIMITS.idChars)}`))).not.toThrow();
    expect(refused(good.replace('title: Mini (3 days, tests)', `title: ${'T'.repeat(5000)}`)).issues[0]!.path).toBe('title');
    expect(refused(good.replace('    name: help-seeker', `    name: help-seeker\n    description: ${'d'.repeat(SCENARIO_LIMITS.textChars + 1)}`)).issues[0]!.path).toBe('learner.persona.description');
  });

  it('a document that is not a mapping names the document', () => {
    expect(refused('- 1\n- 2\n').issues[0]!.path).toBe('(document)');
    expect(refused('just text\n').issues[0]!.path).toBe('(document)');
  });
});
