/**
 * Scenario validation of hostile or broken files (issue 16): every error names file, line and
 * field (YAML syntax errors, duplicate keys, alias bombs included); unknown tracer names are
 * refused at validate time; sizes and string lengths are bounded so a huge file is refused fast.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario, ScenarioError, MAX_SCENARIO_BYTES, SCENARIO_LIMITS } from '../index';
import { TRACER_NAMES } from '../tracers';
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
    expect(e.message).toMatch(new RegExp(`bad\\.yaml:\\d+:\\d+ learner\\.tracer: unknown tracer "dkt" \\(tracers: ${TRACER_NAMES.join(', ')}\\)`));
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

  // Issue 36, item 6: validate accepted what run could not build or should not run.
  it('a course whose item bank cannot be built is refused at validate, at the field, as run would fail', () => {
    const text = good.replace('skills: [68, 87]', 'skills: [107]').replace('itemsPerLevel: 4', 'itemsPerLevel: 60').replace('probesPerSkill: 3', 'probesPerSkill: 30');
    const e = refused(text);
    expect(e.issues).toHaveLength(1);
    expect(e.issues[0]).toMatchObject({ path: 'course.itemsPerLevel', line: lineOf(text, 'itemsPerLevel: 60') });
    expect(e.issues[0]!.message).toMatch(/^skill 107 \(Solving for a variable\) level \d: no valid new practice item .* lower course\.itemsPerLevel .*seed 7/);
    // The same course with the counts it can supply is fine, and so is the bank run builds from it.
    expect(() => parseScenario(good.replace('skills: [68, 87]', 'skills: [107]'))).not.toThrow();
  });

  it('probes before the end of the day\'s work are refused: "00:00" put the day-1 probe at t=0 and never measured the last day', () => {
    const text = good + 'probes:\n  time: "00:00"\n';
    const e = refused(text);
    expect(e.issues[0]).toMatchObject({ path: 'probes.time', line: lineOf(text, 'time: "00:00"') });
    expect(e.issues[0]!.message).toMatch(/before the day's work ends \(schedule\.blocks\[0\] ends at 16:45\).*use 16:45 or later/);
    expect(refused(good + 'probes:\n  time: "16:44"\n').issues[0]!.path).toBe('probes.time');
    expect(() => parseScenario(good + 'probes:\n  time: "16:45"\n')).not.toThrow();
    // Without probe days the time measures nothing and is not checked.
    expect(() => parseScenario(good + 'probes:\n  days: []\n  time: "00:00"\n')).not.toThrow();
  });

  it('the work a scenario asks for is bounded: overlapping blocks, minutes per day and horizon, bank size', () => {
    // The fault campaign's file: 48 overlapping 600-minute blocks over 60 days (over 300 s, 43 MB).
    const heavy = good.replace('horizonDays: 3', 'horizonDays: 60') + '    - {days: [mon, tue, wed, thu, fri, sat, sun], start: "08:00", minutes: 600}\n'.repeat(48);
    const t0 = performance.now();
    const e = refused(heavy);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(e.issues[0]).toMatchObject({ path: 'schedule.blocks[2].start', line: lineOf(heavy, '{days: [mon') + 1 });
    expect(e.issues[0]!.message).toMatch(/overlaps schedule\.blocks\[1\] on mon .*may not overlap/);
    expect(e.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['schedule.blocks', 'horizonDays']));
    // Two blocks that touch do not overlap; one that starts inside another does, on the day they share.
    expect(() => parseScenario(good + '    - {days: [mon], start: "16:45", minutes: 30}\n')).not.toThrow();
    const overlap = refused(good + '    - {days: [sun, wed], start: "16:44", minutes: 30}\n');
    expect(overlap.issues[0]).toMatchObject({ path: 'schedule.blocks[1].start' });
    expect(overlap.issues[0]!.message).toMatch(/on wed/);
    // Minutes per day, without overlaps.
    const day = refused(good.replace('start: "16:00"', 'start: "12:00"').replace('minutes: 45', 'minutes: 600') + '    - {days: [mon], start: "00:30", minutes: 300}\n' + 'probes:\n  time: "23:00"\n');
    expect(day.issues[0]!.path).toBe('schedule.blocks');
    expect(day.issues[0]!.message).toMatch(new RegExp(`900 minutes are scheduled on mon; a day has at most ${SCENARIO_LIMITS.minutesPerDay}`));
    // Minutes over the horizon: 3 days a week × 600 minutes × 60 days.
    const long = refused(good.replace('horizonDays: 3', 'horizonDays: 60').replace('minutes: 45', 'minutes: 600').replace('start: "16:00"', 'start: "08:00"'));
    expect(long.issues[0]).toMatchObject({ path: 'horizonDays', line: lineOf(good, 'horizonDays') });
    expect(long.issues[0]!.message).toMatch(new RegExp(`16200 minutes over 60 days; a scenario has at most ${SCENARIO_LIMITS.scheduledMinutes}`));
    // The bank's size.
    const big = refused(good.replace('itemsPerLevel: 4', 'itemsPerLevel: 60').replace('skills: [68, 87]', `skills: [${[68, 87, 1, 15, 52, 53, 91, 29, 17, 14, 50, 103].join(', ')}]`));
    expect(big.issues[0]).toMatchObject({ path: 'course.itemsPerLevel', line: lineOf(good, 'itemsPerLevel') });
    expect(big.issues[0]!.message).toMatch(new RegExp(`2196 items .*at most ${SCENARIO_LIMITS.bankItems}`));
  });

  it('a second YAML document is refused as such, at its line, not at the field before it', () => {
    for (const text of [good + '---\nfoo: 1\n', good.replace('horizonDays: 3\n', 'horizonDays: 3\n---\n'), good + '...\nid: other\n']) {
      const e = refused(text);
      expect(e.issues).toHaveLength(1);
      expect(e.issues[0]!.path).toBe('(document)');
      const marker = text.split('\n').findIndex((l) => l === '---' || l === '...') + 1;
      expect(e.issues[0]!.line, e.message).toBe(text.includes('\n...\n') ? marker + 1 : marker);
      expect(e.issues[0]!.message).toMatch(/one YAML document, but a second one starts here/);
    }
  });

  it('an unknown key (a prototype key too) is refused at its own line, with its name in the path', () => {
    const ls = good.split('\n');
    for (const key of ['__proto__', 'constructor', '"__proto__"', 'toString', 'extra']) {
      const text = [...ls.slice(0, 6), `${key}: {x: 1}`, ...ls.slice(6)].join('\n');
      const e = refused(text);
      const name = key.replaceAll('"', '');
      expect(e.issues[0]).toMatchObject({ path: name, line: 7, col: 1 });
      expect(e.issues[0]!.message).toBe(`unknown field "${name}" (unknown fields are errors)`);
    }
    // An empty key (found by the fuzzing: a "? " before the first line) still has a field in its path.
    const empty = refused('? # c\n' + good);
    expect(empty.issues[0]!.path).toBe('""');
    const nested = good.replace('  ability: low', '  ability: low\n  __proto__:\n    a: 1');
    expect(refused(nested).issues[0]).toMatchObject({ path: 'learner.__proto__', line: lineOf(nested, '__proto__') });
    const two = refused(good.replace('  ability: low', '  ability: low\n  foo: 1\n  bar: 2'));
    expect(two.issues.map((i) => `${i.path}@${i.line}`)).toEqual([`learner.foo@${lineOf(good, 'ability: low') + 1}`, `learner.bar@${lineOf(good, 'ability: low') + 2}`]);
  });
});
