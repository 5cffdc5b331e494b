/**
 * Run warnings: a set-up that is broken but still produces a run that scores (issue 35). A
 * provider that returns tool calls as text, or an agent that writes its arguments under the wrong
 * name, gives a run of silent or failed turns that ends `horizon_reached` with 0% responsiveness:
 * a result that is really a configuration error. These are computed from the trace alone (so every
 * stored trace, old ones included, gets them, and nothing in the engine changes), shown by `run`,
 * `score`, `sweep` and `report` in the CLI and beside the scores in the page. A warning never
 * changes a score: it says the score may measure the set-up rather than the tutor.
 */
import type { TraceEvent } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { hasTextToolCalls } from '../llm/text-tools';

export const RUN_WARNING_CODES = ['NO_VALID_ACTION', 'TOOL_CALLS_FAILING', 'TEXT_TOOL_CALLS', 'TEXT_TOOL_CALLS_UNREAD'] as const;
export type RunWarningCode = (typeof RUN_WARNING_CODES)[number];

export interface RunWarning {
  code: RunWarningCode;
  message: string;
}

/** TOOL_CALLS_FAILING: at least this many failed calls, and at least half of all calls failed. */
export const FAILING_MIN_CALLS = 3;

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The warnings of one run, in a fixed order; empty for a run with none. */
export function runWarnings(events: readonly TraceEvent[]): RunWarning[] {
  let turns = 0;
  let calls = 0;
  let actions = 0;
  const failed = new Map<string, { n: number; first: string; tool: string }>();
  let failedN = 0;
  let replies = 0;
  let textReplies = 0;
  const textFormats = new Set<string>();
  let unread = 0;
  let provider = '';
  for (const e of events) {
    if (e.type === 'turn_end') turns++;
    else if (e.type === 'tool_call') {
      calls++;
      if (e.result.ok) {
        if ((ACTION_KINDS as readonly string[]).includes(e.tool)) actions++;
      } else {
        failedN++;
        const f = failed.get(e.result.error.code) ?? { n: 0, first: e.result.error.message, tool: e.tool };
        f.n++;
        failed.set(e.result.error.code, f);
      }
    } else if (e.type === 'model_call' && e.role === 'tutor' && e.response) {
      replies++;
      provider ||= `${e.provider}/${e.model}`;
      if (e.response.textToolCalls) {
        textReplies++;
        textFormats.add(e.response.textToolCalls);
      } else if (e.response.toolCalls.length === 0 && e.provider !== 'http' && hasTextToolCalls(e.response.content)) unread++;
    }
  }
  const out: RunWarning[] = [];
  const top = [...failed.entries()].sort((a, b) => b[1].n - a[1].n)[0];
  const topText = top ? `most often ${top[0]} (${top[1].n}×, e.g. ${top[1].tool}: "${clip(top[1].first)}")` : '';
  if (turns > 0 && actions === 0) {
    const how = calls === 0 ? 'it made no tool call at all: every turn was an implicit silence' : failedN === calls ? `all ${plural(calls, 'tool call')} failed, ${topText}` : `${plural(calls, 'tool call')} (${failedN} failed${top ? `, ${topText}` : ''}), none of them an action`;
    out.push({ code: 'NO_VALID_ACTION', message: `the tutor made no valid action in ${plural(turns, 'turn')} (not even stay_silent): ${how}. The scores describe a tutor that never acted; check the tutor's set-up (docs/llm.md#providers, docs/bring-your-own-tutor.md).` });
  }
  if (failedN >= FAILING_MIN_CALLS && failedN * 2 >= calls) {
    out.push({ code: 'TOOL_CALLS_FAILING', message: `${failedN} of ${plural(calls, 'tool call')} failed, ${topText}.` });
  }
  if (textReplies > 0) {
    out.push({ code: 'TEXT_TOOL_CALLS', message: `${textReplies} of ${replies} tutor model replies (${provider}) returned their tool calls as text in the content (${[...textFormats].join(', ')}), not as tool_calls: they were read as tool calls, but the server is not parsing tool calls (vLLM: --enable-auto-tool-choice --tool-call-parser; Ollama: a model whose template supports tools; llama.cpp: --jinja; docs/llm.md#providers).` });
  }
  if (unread > 0) {
    out.push({ code: 'TEXT_TOOL_CALLS_UNREAD', message: `${unread} of ${replies} tutor model replies (${provider}) held tool calls as text in the content that were not run (recorded before the client read text tool calls); the server is not parsing tool calls (docs/llm.md#providers).` });
  }
  return out;
}

/** One line per warning, as the CLI prints them on stderr: `warning: <run id>: CODE: message`. */
export function warningLines(r: { runId: string; warnings?: readonly RunWarning[] }): string[] {
  return (r.warnings ?? []).map((w) => `warning: ${r.runId}: ${w.code}: ${w.message}`);
}
