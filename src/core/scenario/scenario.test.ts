import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario, ScenarioError, scenarioJsonSchema } from './index';
import { MINI_PATH } from '../../testing/fixtures';

const good = readFileSync(MINI_PATH, 'utf8');

function issuesOf(text: string, file = 'broken.yaml') {
  try {
    parseScenario(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioError);
    return (e as ScenarioError).issues.map((i) => ({ path: i.path, line: i.line, message: i.message }));
  }
  throw new Error('expected the scenario to be rejected');
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('scenario validation', () => {
  it('accepts the fixture and the default scenario, filling defaults', () => {
    const s = parseScenario(good, 'mini.yaml');
    expect(s.id).toBe('mini-3day');
    expect(s.tutor.wakeOn.length).toBeGreaterThan(0);
    expect(s.probes.days).toBe('all');
  });

  it('names file, field path and line for a wrong type', () => {
    const text = good.replace('helpProbAfterWrong: 0.9', 'helpProbAfterWrong: "often"');
    const [iss] = issuesOf(text);
    expect(iss!.path).toBe('learner.persona.helpProbAfterWrong');
    expect(iss!.line).toBe(lineOf(text, 'helpProbAfterWrong'));
  });

  it('reports out-of-range values inside arrays with their index', () => {
    const text = good.replace('start: "16:00"', 'start: "25:00"');
    const [iss] = issuesOf(text);
    expect(iss!.path).toBe('schedule.blocks[0].start');
    expect(iss!.line).toBe(lineOf(text, 'start: "25:00"'));
  });

  it('reports a missing required field at its parent', () => {
    const text = good.replace(/^seed: 7\n/m, '');
    const iss = issuesOf(text);
    expect(iss.map((i) => i.path)).toContain('seed');
  });

  it('rejects unknown fields (typos)', () => {
    const text = good.replace('  ability: low', '  abilty: low');
    const iss = issuesOf(text);
    // The key itself, at its own line (issue 36: it was the map holding it, at the map's line).
    expect(iss[0]).toMatchObject({ path: 'learner.abilty', line: text.split('\n').findIndex((l) => l.includes('abilty')) + 1 });
    expect(iss[0]!.message).toMatch(/abilty/);
  });

  it('rejects unknown skills and skills without items, pointing at the list entry', () => {
    const text = good.replace('skills: [68, 87]', 'skills: [68, 999]');
    const [iss] = issuesOf(text);
    expect(iss!.path).toBe('course.skills[1]');
    expect(iss!.message).toMatch(/unknown skill id 999/);
    expect(iss!.line).toBe(lineOf(text, 'skills: [68, 999]'));
  });

  it('rejects probe days after the horizon', () => {
    const text = good.replace('blocks:', 'blocks:').replace('schedule:', 'probes:\n  days: [1, 9]\nschedule:');
    const [iss] = issuesOf(text);
    expect(iss!.path).toBe('probes.days[1]');
  });

  it('gives a parse error with a line for broken YAML', () => {
    const text = good.replace('title: Mini (3 days, tests)', 'title: [unclosed');
    const iss = issuesOf(text, 'bad.yaml');
    expect(iss[0]!.line).toBeGreaterThan(0);
    expect(() => parseScenario(text, 'bad.yaml')).toThrow(/bad\.yaml:\d+:\d+/);
  });

  it('rejects duplicate keys', () => {
    const text = good.replace('seed: 7', 'seed: 7\nseed: 8');
    expect(issuesOf(text).length).toBeGreaterThan(0);
  });

  it('the committed JSON Schema matches the zod schema (run `npm run schema` after changing it)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
  });
});
