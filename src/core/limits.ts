/**
 * Bounds on what a tutor (an external agent, a model) may send into a run, checked before anything
 * is stored: a trace line stays far below the reader's 16 MiB limit and no reader recurses deeper
 * than it can. What is over a bound is never written; the run refuses it (a tool error for any
 * tutor, and for an external agent the end of the run, tutor_error AGENT_LIMIT, naming the agent).
 * docs/reliability.md ("Limits").
 */

/** Most bytes of one HTTP agent's reply (a reply of 50 calls at the tools' own limits is about 250 KB). */
export const MAX_AGENT_REPLY_BYTES = 1024 * 1024;
/** Most bytes of one LLM provider's reply (a completion of 100,000 characters with tool calls is well under 1 MB). */
export const MAX_PROVIDER_REPLY_BYTES = 4 * 1024 * 1024;
/** Deepest nesting of one tool call's arguments (the tools' own schemas go 3 levels deep). */
export const MAX_ARGS_DEPTH = 32;
/** Most characters of one tool call's arguments as JSON (the largest legal call, provide_content, is under 5,000). */
export const MAX_ARGS_CHARS = 64 * 1024;

/**
 * How deep a JSON-like value nests, counted without recursion (a value 100,000 levels deep is
 * measured, not a stack overflow), stopping as soon as it passes `stopAt`.
 */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (seen.has(v)) return Infinity; // a cycle: no JSON at all
    seen.add(v);
    if (d > max) max = d;
    if (max > stopAt) return max;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
  }
  return max;
}

/** Why a tool call's arguments are over the bounds (depth first, then size), or null. */
export function argsOverLimit(args: unknown): string | null {
  if (typeof args === 'string') return args.length > MAX_ARGS_CHARS ? `its arguments are ${args.length} characters of JSON text (at most ${MAX_ARGS_CHARS})` : null;
  const depth = jsonDepth(args, MAX_ARGS_DEPTH);
  if (depth > MAX_ARGS_DEPTH) return depth === Infinity ? 'its arguments refer to themselves (not JSON)' : `its arguments nest more than ${MAX_ARGS_DEPTH} levels deep`;
  let size: number;
  try {
    size = JSON.stringify(args ?? {})?.length ?? 0;
  } catch {
    return 'its arguments cannot be written as JSON';
  }
  return size > MAX_ARGS_CHARS ? `its arguments are ${size} characters as JSON (at most ${MAX_ARGS_CHARS})` : null;
}

/** What a refused call's arguments are recorded as (never the arguments themselves). */
export const refusedArgs = (why: string): { refused: string } => ({ refused: why });

/**
 * The recorded form of a refused call read back (a resumed run re-issues it): refused again with
 * the same reason, so the replay matches the trace. No tool takes `refused` as its only argument.
 */
export function refusedReason(args: unknown): string | null {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  const keys = Object.keys(args);
  const r = (args as { refused?: unknown }).refused;
  return keys.length === 1 && typeof r === 'string' && r.length <= 500 ? r : null;
}
