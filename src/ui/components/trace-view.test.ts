/** The trace viewer's pure parts: days, search, the mastery grid and its colours. */
import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../testing/fixtures';
import type { TraceEvent } from '../../core/index';
import { cellColour, contrast, eventDay, firstActiveDay, masteryGrid, masterySkills, matches, searchText, detailText, toolKindShown } from './trace-view';

describe('trace view helpers', () => {
  it('days, search text and the mastery grid of a real run', async () => {
    const events = (await runWith(miniScenario(), 'answer-giver', { seed: 5 })).events;
    const start = events[0]!;
    if (start.type !== 'run_start') throw new Error('no run_start');
    expect(eventDay(start)).toBe(1);
    const end = events.find((e) => e.type === 'run_end')!;
    expect(eventDay(end)).toBe(3);
    const tool = events.find((e) => e.type === 'tool_call' && e.tool === 'send_message')!;
    expect(matches(tool, 'SEND_MESS')).toBe(true);
    expect(matches(tool, 'the answer is')).toBe(true); // its arguments
    expect(matches(tool, '')).toBe(true);
    expect(searchText(events.find((e) => e.type === 'probe')!)).toBe('');

    const skills = start.scenario.course.skills;
    expect(masterySkills(events).length).toBe(start.tracer.nSkills);
    const byDay = masteryGrid(events, skills, 3);
    expect(byDay.columns.map((c) => c.label)).toEqual(['1', '2', '3']);
    expect(byDay.skills.map((s) => s.id)).toEqual(skills);
    expect(byDay.skills[0]!.name).not.toMatch(/^skill /);
    // The end-of-day column is the day's last mastery event.
    const lastDay1 = events.filter((e): e is Extract<TraceEvent, { type: 'mastery' }> => e.type === 'mastery' && eventDay(e) === 1).at(-1)!;
    expect(byDay.columns[0]!.seq).toBe(lastDay1.seq);
    expect(byDay.values[0]![0]).toBe(lastDay1.values[lastDay1.skills.indexOf(skills[0]!)]);
    const updates = masteryGrid(events, skills, 3, 1);
    expect(updates.columns.length).toBe(events.filter((e) => e.type === 'mastery' && eventDay(e) === 1).length);
    // Engine 2: the day columns hold every skill (the day-end belief is over all of them); an
    // update after an answer holds the course's skills, and the other skills' rows are empty there.
    const all = masterySkills(events);
    const byDayAll = masteryGrid(events, all, 3);
    expect(byDayAll.columns.every((c) => c.scope === 'all')).toBe(true);
    expect(byDayAll.values.every((row) => row.every((v) => v !== null))).toBe(true);
    const updatesAll = masteryGrid(events, all, 3, 1);
    const perAnswer = updatesAll.columns.map((c, j) => [c, j] as const).filter(([c]) => c.scope === 'course');
    expect(perAnswer.length).toBe(updatesAll.columns.length - 1);
    for (const [, j] of perAnswer) all.forEach((s, i) => expect(updatesAll.values[i]![j] === null).toBe(!skills.includes(s)));
    // A day without mastery events (a run cut short) has empty cells.
    expect(masteryGrid(events, skills, 4).values[0]![3]).toBeNull();
  });

  it('cell colours keep the number readable (4.5:1) across the scale', () => {
    for (let i = 0; i <= 100; i++) {
      const c = cellColour(i / 100);
      const ink = c.ink === '#000000' ? [0, 0, 0] : [255, 255, 255];
      expect(contrast(c.rgb, ink), `at ${i}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(cellColour(0).ink).toBe('#000000');
    expect(cellColour(1).ink).toBe('#ffffff');
  });

  it('LMS details read as text', () => {
    expect(detailText({ assignmentId: 'A1', itemIds: ['a', 'b'], dueAt: 1260 })).toBe('assignmentId: A1 · itemIds: a, b · dueAt: day 1 21:00');
    expect(detailText(undefined)).toBe('');
  });

  it('opens on the first day the tutor acted, and filters tool calls by kind', async () => {
    const events = (await runWith(miniScenario(), 'planner', { seed: 5 })).events;
    const day = firstActiveDay(events);
    const acted = events.find((e) => (e.type === 'message' && e.from === 'tutor') || (e.type === 'tool_call' && e.tool !== 'stay_silent' && e.kind !== 'read'))!;
    expect(day).toBe(eventDay(acted));
    // A tutor that never acts: day 1.
    const silent = (await runWith(miniScenario(), 'silent', { seed: 5 })).events;
    expect(firstActiveDay(silent)).toBe(1);
    const read = events.find((e) => e.type === 'tool_call' && e.kind === 'read')!;
    const write = events.find((e) => e.type === 'tool_call' && e.kind === 'write')!;
    const writesOnly = { read: false, write: true, message: true };
    expect(toolKindShown(read, writesOnly)).toBe(false);
    expect(toolKindShown(write, writesOnly)).toBe(true);
    expect(toolKindShown(events.find((e) => e.type === 'probe')!, { read: false, write: false, message: false })).toBe(true);
  });
});
