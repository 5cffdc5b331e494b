import { describe, expect, it } from 'vitest';
import { LmsState, runTool, toolSpecs, TOOL_NAMES, actionKindOf, type ToolContext } from './index';
import { buildItemBank } from '../course/item-bank';
import { fromStrictArgs, strictSchemaProblems, toStrictSchema } from '../llm/strict-schema';
import { Rng } from '../rng';
import type { ToolResult } from '../trace/types';

function setup() {
  const bank = buildItemBank({ skills: [68, 87], itemsPerLevel: 4, probesPerSkill: 3 }, new Rng(3));
  const lms = new LmsState(bank, [68, 87], 2);
  const delivered: { text: string; via: string }[] = [];
  const ctx = (now = 16 * 60): ToolContext => ({
    lms,
    now,
    maxAttemptsPerItem: 2,
    learnerName: 'Ada',
    schedule: [{ days: ['mon'], start: '16:00', minutes: 60 }],
    effects: { delivered: (m) => delivered.push(m) },
  });
  return { lms, ctx, delivered, bank };
}

const ok = (r: ToolResult) => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value as Record<string, unknown>;
};
const err = (r: ToolResult) => {
  if (r.ok) throw new Error('expected an error');
  return r.error;
};

describe('tutor tools', () => {
  it('exposes 5 read, 3 write and 2 message tools with JSON-schema parameters', () => {
    const specs = toolSpecs();
    expect(specs.map((s) => s.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(specs).toHaveLength(10);
    for (const s of specs) {
      expect(s.description.length).toBeGreaterThan(20);
      expect((s.parameters as { type: string }).type).toBe('object');
    }
    expect(TOOL_NAMES.filter((n) => actionKindOf(n) === null)).toHaveLength(5);
    expect(TOOL_NAMES.filter((n) => actionKindOf(n) !== null).sort()).toEqual(['adjust_level', 'assign_items', 'provide_content', 'send_message', 'stay_silent']);
  });

  it('schemas are portable (issue 35): no ±MAX_SAFE_INTEGER bounds, integer enums not anyOf of const, and assign_items cannot be {} by its schema', () => {
    const specs = toolSpecs();
    const walk = (x: unknown, f: (o: Record<string, unknown>) => void): void => {
      if (Array.isArray(x)) x.forEach((y) => walk(y, f));
      else if (x && typeof x === 'object') {
        f(x as Record<string, unknown>);
        Object.values(x).forEach((y) => walk(y, f));
      }
    };
    for (const s of specs)
      walk(s.parameters, (o) => {
        expect([o.minimum, o.maximum], s.name).not.toContain(Number.MAX_SAFE_INTEGER);
        expect([o.minimum, o.maximum], s.name).not.toContain(Number.MIN_SAFE_INTEGER);
        if (Array.isArray(o.anyOf)) for (const m of o.anyOf) expect((m as { const?: unknown }).const, s.name).toBeUndefined();
      });
    const spec = (n: string) => specs.find((x) => x.name === n)!.parameters as { properties: Record<string, unknown>; anyOf?: unknown };
    expect(spec('adjust_level').properties.level).toEqual({ type: 'integer', enum: [1, 2, 3], description: 'Difficulty level: 1 easiest, 3 hardest.' });
    expect(spec('assign_items').anyOf).toEqual([{ required: ['item_ids'] }, { required: ['skill_id'] }]);
    // The schema's rule is the run's: {} is refused, either property alone is accepted.
    const { ctx } = setup();
    expect(err(runTool('assign_items', {}, ctx())).code).toBe('INVALID_ARGS');
  });

  it("OpenAI strict mode (issue 35): the tools' own schemas are not in its form; toStrictSchema's are, and fromStrictArgs turns a strict call (null = not given) into the call the tool takes", () => {
    const specs = toolSpecs();
    const loose = specs.filter((s) => strictSchemaProblems(s.parameters).length > 0).map((s) => s.name);
    expect(loose.length).toBeGreaterThanOrEqual(8);
    expect(strictSchemaProblems(specs.find((s) => s.name === 'assign_items')!.parameters)).toContain('$: "anyOf" at the root');
    for (const s of specs) expect(strictSchemaProblems(toStrictSchema(s.parameters)), s.name).toEqual([]);
    const strictOf = (n: string) => toStrictSchema(specs.find((s) => s.name === n)!.parameters) as { properties: Record<string, { type: unknown; description?: string; enum?: unknown[] }>; required: string[] };
    expect(strictOf('get_gradebook').properties.last_n).toEqual({ type: ['integer', 'null'], description: 'How many recent attempts to list. (null for the default, 10; minimum 1; maximum 100)' });
    expect(strictOf('get_assignments').properties.status!.enum).toEqual(['open', 'completed', 'missed', 'all', null]);
    expect(strictOf('assign_items').required).toEqual(['item_ids', 'skill_id', 'count', 'due_in_days', 'note']);
    expect(strictOf('adjust_level').properties.level).toEqual({ type: 'integer', enum: [1, 2, 3], description: 'Difficulty level: 1 easiest, 3 hardest.' });

    const calls: [string, Record<string, unknown>][] = [
      ['get_learner_profile', {}],
      ['get_course_map', { skill_id: 68 }],
      ['get_gradebook', { last_n: 2 }],
      ['get_assignments', {}],
      ['get_messages', {}],
      ['assign_items', { skill_id: 68, count: 2 }],
      ['adjust_level', { skill_id: 68, level: 3 }],
      ['provide_content', { skill_id: 68, kind: 'hint', title: 'A hint', body: 'Look at the sign.' }],
      ['send_message', { text: 'Hi' }],
      ['stay_silent', {}],
    ];
    expect(calls.map((c) => c[0]).sort()).toEqual([...TOOL_NAMES].sort());
    let nulled = 0;
    for (const [name, args] of calls) {
      const schema = specs.find((s) => s.name === name)!.parameters;
      // What a model in strict mode sends: every property, null for those it does not give.
      const strictCall = Object.fromEntries(strictOf(name).required.map((k) => [k, k in args ? args[k] : null]));
      if (Object.keys(strictCall).length > Object.keys(args).length) {
        nulled++;
        expect(runTool(name, strictCall, setup().ctx()).ok, name).toBe(false); // the nulls as such are refused
      }
      const want = runTool(name, args, setup().ctx());
      expect(want.ok, name).toBe(true);
      expect(runTool(name, fromStrictArgs(schema, strictCall), setup().ctx()), name).toEqual(want);
      expect(runTool(name, fromStrictArgs(schema, JSON.stringify(strictCall)), setup().ctx()), name).toEqual(want);
    }
    expect(nulled).toBeGreaterThanOrEqual(7);
    expect(fromStrictArgs({ required: ['text'] }, '{not json')).toBe('{not json');
    expect(fromStrictArgs({ required: ['text'] }, '{"text":null}')).toBe('{"text":null}'); // a required null is the model's error, left for the tool to refuse
  });

  it('unknown tools and non-object arguments are structured errors', () => {
    const { ctx } = setup();
    expect(err(runTool('delete_student', {}, ctx())).code).toBe('UNKNOWN_TOOL');
    expect(err(runTool('get_gradebook', 'all of it', ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('get_gradebook', { extra: 1 }, ctx())).code).toBe('INVALID_ARGS');
  });

  it('get_learner_profile', () => {
    const { ctx } = setup();
    const v = ok(runTool('get_learner_profile', {}, ctx()));
    expect(v.name).toBe('Ada');
    expect(v.online).toBe(false);
    expect(v.levels).toEqual([
      { skill_id: 68, name: 'Addition and Subtraction Integers', level: 2 },
      { skill_id: 87, name: 'Equation Solving Two or Fewer Steps', level: 2 },
    ]);
    expect(err(runTool('get_learner_profile', { who: 'x' }, ctx())).code).toBe('INVALID_ARGS');
  });

  it('get_course_map: overview, one skill, one item with its answer key; probes stay hidden', () => {
    const { ctx, bank } = setup();
    const all = ok(runTool('get_course_map', {}, ctx())) as { skills: { items?: unknown[]; items_per_level: Record<string, number> }[] };
    expect(all.skills).toHaveLength(2);
    expect(all.skills[0]!.items).toBeUndefined();
    expect(all.skills[0]!.items_per_level).toEqual({ 1: 4, 2: 4, 3: 4 });
    const one = ok(runTool('get_course_map', { skill_id: 87 }, ctx())) as { skills: { items: { item_id: string }[] }[] };
    expect(one.skills[0]!.items).toHaveLength(12);
    const id = one.skills[0]!.items[0]!.item_id;
    const item = ok(runTool('get_course_map', { item_id: id }, ctx()));
    expect(item.answer).toBe(bank.get(id)!.answer);
    expect(err(runTool('get_course_map', { item_id: bank.probes[0]!.id }, ctx())).code).toBe('NOT_FOUND');
    expect(err(runTool('get_course_map', { skill_id: 1 }, ctx())).code).toBe('NOT_FOUND');
    expect(err(runTool('get_course_map', { skill_id: 'algebra' }, ctx())).code).toBe('INVALID_ARGS');
  });

  it('get_gradebook summarises attempts', () => {
    const { ctx, lms, bank } = setup();
    const it68 = bank.practice(68, 2)[0]!;
    lms.gradebook.push({ at: 970, itemId: it68.id, skill: 68, level: 2, assignmentId: null, attemptNo: 1, response: 'x', correct: false });
    lms.gradebook.push({ at: 975, itemId: it68.id, skill: 68, level: 2, assignmentId: null, attemptNo: 2, response: it68.answer, correct: true });
    const v = ok(runTool('get_gradebook', { skill_id: 68 }, ctx())) as { per_skill: { attempts: number; accuracy: number; last_5: number[] }[]; recent_attempts: unknown[] };
    expect(v.per_skill[0]).toMatchObject({ attempts: 2, accuracy: 0.5, last_5: [0, 1] });
    expect(v.recent_attempts).toHaveLength(2);
    expect(err(runTool('get_gradebook', { last_n: 0 }, ctx())).code).toBe('INVALID_ARGS');
  });

  it('assign_items by ids or by skill, with errors for bad requests', () => {
    const { ctx, lms, bank } = setup();
    const ids = bank.practice(87, 1).slice(0, 2).map((i) => i.id);
    const a = ok(runTool('assign_items', { item_ids: ids, due_in_days: 1 }, ctx()));
    expect(a.item_ids).toEqual(ids);
    expect(a.due).toEqual({ day: 2, minute_of_day: 21 * 60 });
    const b = ok(runTool('assign_items', { skill_id: 68, count: 3 }, ctx()));
    expect((b.item_ids as string[]).every((id) => id.startsWith('s68-L2-'))).toBe(true);
    expect(lms.assignments).toHaveLength(2);
    expect(err(runTool('assign_items', {}, ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('assign_items', { item_ids: ids, skill_id: 68 }, ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('assign_items', { item_ids: ['s99-L1-01'] }, ctx())).code).toBe('NOT_FOUND');
    expect(err(runTool('assign_items', { item_ids: [bank.probes[0]!.id] }, ctx())).code).toBe('NOT_FOUND');
    expect(err(runTool('assign_items', { skill_id: 68, count: 11 }, ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('assign_items', { item_ids: ids, due_in_days: 0 }, ctx(22 * 60))).code).toBe('ILLEGAL');
    ok(runTool('assign_items', { skill_id: 68, count: 1 }, ctx()));
    expect(err(runTool('assign_items', { skill_id: 68, count: 3 }, ctx())).code).toBe('ILLEGAL');
    expect(lms.assignments).toHaveLength(3);
  });

  it('adjust_level changes the level used for new work', () => {
    const { ctx, lms } = setup();
    expect(ok(runTool('adjust_level', { skill_id: 68, level: 3 }, ctx()))).toMatchObject({ level_before: 2, level: 3, changed: true });
    expect(lms.levels.get(68)).toBe(3);
    const b = ok(runTool('assign_items', { skill_id: 68, count: 2 }, ctx()));
    expect((b.item_ids as string[]).every((id) => id.startsWith('s68-L3-'))).toBe(true);
    expect(err(runTool('adjust_level', { skill_id: 68, level: 4 }, ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('adjust_level', { skill_id: 5, level: 1 }, ctx())).code).toBe('NOT_FOUND');
  });

  it('provide_content and send_message deliver to the learner; validation errors deliver nothing', () => {
    const { ctx, delivered, bank } = setup();
    const item = bank.practice(68, 2)[0]!;
    ok(runTool('provide_content', { skill_id: 68, kind: 'worked_example', title: 'Adding integers', body: 'Step 1…', item_id: item.id }, ctx()));
    ok(runTool('send_message', { text: 'Keep going!' }, ctx()));
    expect(delivered.map((d) => d.via)).toEqual(['provide_content', 'send_message']);
    expect(err(runTool('provide_content', { skill_id: 87, kind: 'hint', title: 't', body: 'b', item_id: item.id }, ctx())).code).toBe('ILLEGAL');
    expect(err(runTool('provide_content', { skill_id: 68, kind: 'lecture', title: 't', body: 'b' }, ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('send_message', { text: '' }, ctx())).code).toBe('INVALID_ARGS');
    expect(err(runTool('send_message', {}, ctx())).code).toBe('INVALID_ARGS');
    expect(delivered).toHaveLength(2);
  });

  it('get_assignments and get_messages read back what was written', () => {
    const { ctx, lms } = setup();
    ok(runTool('assign_items', { skill_id: 87, count: 2 }, ctx()));
    lms.messages.push({ at: 970, from: 'learner', text: 'hi', via: 'learner', readAt: null });
    const a = ok(runTool('get_assignments', {}, ctx())) as { assignments: { items: unknown[]; status: string }[] };
    expect(a.assignments).toHaveLength(1);
    expect(a.assignments[0]!.status).toBe('open');
    expect(ok(runTool('get_assignments', { status: 'missed' }, ctx()))).toEqual({ assignments: [] });
    expect(err(runTool('get_assignments', { status: 'late' }, ctx())).code).toBe('INVALID_ARGS');
    const m = ok(runTool('get_messages', { last_n: 5 }, ctx())) as { messages: { text: string }[] };
    expect(m.messages.map((x) => x.text)).toEqual(['hi']);
  });

  it('stay_silent accepts an optional reason', () => {
    const { ctx } = setup();
    expect(ok(runTool('stay_silent', {}, ctx()))).toEqual({ silent: true });
    expect(err(runTool('stay_silent', { reason: 5 }, ctx())).code).toBe('INVALID_ARGS');
  });
});
