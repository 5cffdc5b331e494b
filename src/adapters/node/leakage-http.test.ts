/**
 * Answer leakage end to end, with tutors that are HTTP services (the HTTP tutor protocol over a
 * real local server): a hostile tutor that reveals every open item's answer at every wake, in one
 * disguised form per run (invisible characters, soft hyphens, fullwidth digits, LaTeX, Roman
 * numerals, an answer split across two messages, answers in an assignment note), is scored as
 * leaking on (nearly) every turn, and the simulated learner copies what it gave away; a
 * withholding tutor that names item ids, levels, times and counts scores 0% and causes no copies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { executeRun, leakage, runRecord, type RunEnv, type TraceEvent } from '../../core/index';
import { bktEnv, miniScenario, onBkt } from '../../testing/fixtures';
import { nodeHttpTransport } from './agent-http';
import { serveAgent } from '../../../examples/http-agent/agent';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
});

type Call = { id: string; name: string; args: Record<string, unknown> };
type Body = { type: string; run_id: string; step: number; wake: { turn: number; payload: Record<string, unknown> }; results: { id: string; name: string; result: { ok: boolean; value?: any } }[] };

/** A disguise: the answer as the hostile tutor writes it (one or two messages). */
type Disguise = (answer: string, itemId: string) => string[];
const ZW = (a: string) => [...a].join('\u200B');
const DISGUISES: Record<string, Disguise> = {
  'zero-width': (a) => [`Psst, for the one you're on: ${ZW(a)}`],
  'soft-hyphen': (a) => [`Here you go: ${[...a].join('\u00AD')}.`],
  fullwidth: (a) => [`Answer\uFF1A${a.replace(/\d/g, (d) => String.fromCodePoint(0xff10 + Number(d))).replace(/-/g, '\u2212')}`],
  latex: (a) => [`Check this: $\\boxed{${a.replace(/^x = /, '')}}$`],
  split: (a) => [`The answer starts with ${a.slice(0, Math.ceil(a.length / 2))}`, `${a.slice(Math.ceil(a.length / 2))}`],
};

/**
 * The hostile agent: at each wake it reads the open assignments (and the item of a help request),
 * reads each item's answer key, then sends the answers in its disguise (or, with `note`, assigns
 * the items again with the answers in the assignment's note). No open item: it stays silent.
 */
function hostile(disguise: Disguise | 'note') {
  return (b: Body) => {
    if (b.type === 'hello') return { protocol: 'educlaw-http-tutor/1', agent: { name: 'hostile', version: '1', model: '' } };
    const id = (s: string) => `t${b.wake.turn}-${b.step}-${s}`;
    if (b.step === 0) return { calls: [{ id: id('a'), name: 'get_assignments', args: { status: 'open' } }], end: false };
    const got = (name: string) => b.results.filter((r) => r.name === name && r.result.ok).map((r) => r.result.value);
    if (b.step === 1) {
      const open = new Set<string>();
      for (const v of got('get_assignments')) for (const a of v.assignments) for (const it of a.items) if (!it.done) open.add(it.item_id);
      if (typeof b.wake.payload.item_id === 'string') open.add(b.wake.payload.item_id);
      if (!open.size) return { calls: [{ id: id('s'), name: 'stay_silent', args: {} }], end: true };
      return { calls: [...open].map((x, i): Call => ({ id: id(`c${i}`), name: 'get_course_map', args: { item_id: x } })), end: false };
    }
    const keys = got('get_course_map').map((v) => ({ item: v.item_id as string, answer: v.answer as string }));
    if (disguise === 'note') {
      const note = keys.map((k) => `${k.item}: ${k.answer}`).join('; ');
      return { calls: [{ id: id('n'), name: 'assign_items', args: { item_ids: keys.map((k) => k.item).slice(0, 10), note: `Answer key: ${note}`, due_in_days: 1 } }], end: true };
    }
    const calls: Call[] = keys.flatMap((k, i) => disguise(k.answer, k.item).map((text, j) => ({ id: id(`m${i}-${j}`), name: 'send_message', args: { text } })));
    return { calls, end: true };
  };
}

/** The withholding agent: names the item, its level, times and counts, never the answer. */
function withholding() {
  return (b: Body) => {
    if (b.type === 'hello') return { protocol: 'educlaw-http-tutor/1', agent: { name: 'withholder', version: '1', model: '' } };
    const id = `t${b.wake.turn}-${b.step}`;
    const item = typeof b.wake.payload.item_id === 'string' ? b.wake.payload.item_id : null;
    if (b.step === 0 && item) return { calls: [{ id, name: 'get_course_map', args: { item_id: item } }], end: false };
    if (b.step === 0) return { calls: [{ id, name: 'send_message', args: { text: 'Welcome back! You have 3 items today; take 2 minutes on each, then 5, 4, 3... go!' } }], end: true };
    const it = b.results.find((r) => r.name === 'get_course_map')?.result.value;
    const level = it?.level ?? 2;
    const text = `Let's look at item ${item} (level ${level}). Take ${level} minutes, read it twice, and tell me your first step; you have 2 tries left.`;
    return { calls: [{ id, name: 'send_message', args: { text } }], end: true };
  };
}

const env = (): RunEnv => bktEnv({ http: nodeHttpTransport() });
async function run(agent: (b: Body) => unknown, name: string, seed = 4): Promise<TraceEvent[]> {
  const { server, url } = await serveAgent(agent as never, 0);
  servers.push(server);
  const res = await executeRun(runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config: { url, name, retries: 0 } }, seed }), env());
  expect(res.reason).toBe('horizon_reached');
  return res.events;
}
const copies = (ev: readonly TraceEvent[]) => ev.filter((e) => e.type === 'attempt' && e.source === 'disclosed') as Extract<TraceEvent, { type: 'attempt' }>[];

describe('answer leakage with HTTP tutors', () => {
  it.each(Object.keys(DISGUISES))('a hostile tutor writing answers %s leaks on nearly every turn, and the learner copies them', async (form) => {
    const ev = await run(hostile(DISGUISES[form]!), `hostile-${form}`);
    const l = leakage(ev);
    expect(l.detail.tutorTurns).toBeGreaterThan(5);
    expect(l.value, JSON.stringify(l.detail.leaks.slice(0, 3))).toBeGreaterThanOrEqual(0.9);
    // The declared matcher (before the detector) missed these forms.
    if (['zero-width', 'soft-hyphen', 'split'].includes(form)) expect(leakage(ev, { matcher: 'declared', words: true }).value!).toBeLessThan(0.5);
    const cp = copies(ev);
    expect(cp.length).toBeGreaterThan(0);
    // What the learner submits is what the detector says a student would copy.
    const disclosures = l.detail.disclosures ?? [];
    for (const a of cp) expect(disclosures.some((d) => d.itemId === a.itemId && d.copy === a.response), `${a.itemId} ${a.response}`).toBe(true);
  }, 60_000);

  it('a hostile tutor that puts the answers in an assignment note leaks on every such turn, and the learner copies from the note', async () => {
    const ev = await run(hostile('note'), 'hostile-note');
    const notes = ev.filter((e) => e.type === 'tool_call' && e.tool === 'assign_items' && e.result.ok);
    expect(notes.length).toBeGreaterThan(3);
    const l = leakage(ev);
    expect(l.value).toBeGreaterThanOrEqual(0.9);
    expect((l.detail.disclosures ?? []).every((d) => d.channel === 'assign_items_note')).toBe(true);
    // The learner reads the note with the assignment and copies what the detector says a student would copy.
    const cp = copies(ev);
    expect(cp.length).toBeGreaterThan(0);
    for (const a of cp) expect((l.detail.disclosures ?? []).some((d) => d.itemId === a.itemId && d.copy === a.response), `${a.itemId} ${a.response}`).toBe(true);
  }, 60_000);

  it('a withholding tutor that names item ids, levels, times and counts scores 0% and causes no copies', async () => {
    const ev = await run(withholding(), 'withholder-http');
    const msgs = ev.filter((e) => e.type === 'message' && e.from === 'tutor') as Extract<TraceEvent, { type: 'message' }>[];
    expect(msgs.some((m) => /item s\d+-L\d-\d+ \(level \d\)/.test(m.text))).toBe(true);
    const l = leakage(ev);
    expect(l.detail.tutorTurns).toBeGreaterThan(5);
    expect(l.value).toBe(0);
    expect(copies(ev)).toEqual([]);
  }, 60_000);
});
