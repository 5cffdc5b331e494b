import { describe, expect, it } from 'vitest';
import { EventQueue, at, dayOf, formatTime, minuteOfDay, parseHhmm, simMinutes, weekdayOf } from './index';

describe('virtual clock', () => {
  it('orders by time, then priority, then insertion', () => {
    const q = new EventQueue<string>();
    q.schedule(simMinutes(10), 'late');
    q.schedule(simMinutes(5), 'b-prio1', 1);
    q.schedule(simMinutes(5), 'a-prio0-first', 0);
    q.schedule(simMinutes(5), 'c-prio1-second', 1);
    q.schedule(simMinutes(5), 'a-prio0-second', 0);
    q.schedule(simMinutes(1), 'early', 9);
    const order: string[] = [];
    for (let e = q.pop(); e; e = q.pop()) order.push(e.event);
    expect(order).toEqual(['early', 'a-prio0-first', 'a-prio0-second', 'b-prio1', 'c-prio1-second', 'late']);
    expect(q.now).toBe(10);
    expect(q.peekTime()).toBe(Infinity);
  });
  it('keeps insertion order for many equal keys (heap stability)', () => {
    const q = new EventQueue<number>();
    for (let i = 0; i < 500; i++) q.schedule(simMinutes(3), i);
    const out: number[] = [];
    for (let e = q.pop(); e; e = q.pop()) out.push(e.event);
    expect(out).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });
  it('refuses to schedule in the past', () => {
    const q = new EventQueue<string>();
    q.schedule(simMinutes(100), 'x');
    q.pop();
    expect(() => q.schedule(simMinutes(99), 'y')).toThrow(/past/);
  });
  it('day and time helpers', () => {
    expect(at(2, '16:30')).toBe(2 * 1440 + 990);
    expect(dayOf(at(2, '23:59'))).toBe(2);
    expect(minuteOfDay(at(3, '00:01'))).toBe(1);
    expect(formatTime(at(1, '09:05'))).toBe('day 1 09:05');
    expect(weekdayOf(0)).toBe(0);
    expect(weekdayOf(6)).toBe(6);
    expect(weekdayOf(7)).toBe(0);
    expect(() => parseHhmm('24:00')).toThrow();
    expect(() => parseHhmm('7pm')).toThrow();
  });
});
