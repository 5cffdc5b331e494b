/**
 * Tool calls written as text in a reply's content, in the formats open models use when the
 * server does not turn them into `tool_calls` (vLLM started without a tool parser, Ollama with a
 * model whose template has no tools, llama.cpp without `--jinja`), and the format our in-browser
 * provider's text protocol asks for. One parser for the CLI's and the page's clients, so a reply
 * reads the same wherever it came from.
 *
 *  - "hermes": `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (Hermes, Qwen2.5/3, and our
 *    text protocol); "parameters" is read as "arguments" (Llama 3.1 style JSON); the last block may
 *    be unclosed (a server that stops at `</tool_call>`).
 *  - "mistral": `[TOOL_CALLS] [{"name": …, "arguments": {…}}, …]`.
 *
 * A block that is not `{"name", "arguments"}` JSON is kept as a call named "" with its raw text,
 * so the engine reports it (UNKNOWN_TOOL) and the trace shows what the model wrote.
 */
import type { TextToolFormat, ToolCallRequest } from './types';

export type { TextToolFormat };

export interface TextToolCalls {
  /** The format found, or null when the text holds no tool call in a known format. */
  format: TextToolFormat | null;
  /** The text without the calls (null when nothing else was written). */
  content: string | null;
  toolCalls: ToolCallRequest[];
}

const HERMES = /<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g;
const MISTRAL = /\[TOOL_CALLS\]\s*(\[[\s\S]*\])/;

function oneCall(raw: unknown, rawText: string, id: string): ToolCallRequest {
  const o = raw as { name?: unknown; arguments?: unknown; parameters?: unknown } | null;
  if (o && typeof o === 'object' && !Array.isArray(o) && typeof o.name === 'string') {
    const a = o.arguments !== undefined ? o.arguments : o.parameters;
    return { id, name: o.name, arguments: typeof a === 'string' ? a : JSON.stringify(a ?? {}) };
  }
  return { id, name: '', arguments: rawText };
}

/** Whether the text looks like it holds tool calls in a known text format (cheap; no parsing). */
export function hasTextToolCalls(text: string | null | undefined): boolean {
  return !!text && (text.includes('<tool_call>') || text.includes('[TOOL_CALLS]'));
}

/**
 * Reads tool calls written as text. `idOf(i)` names the i-th call (0-based): the caller decides
 * (ids derived from the request for a remote provider, a counter in the page).
 */
export function parseTextToolCalls(text: string, idOf: (i: number) => string): TextToolCalls {
  const toolCalls: ToolCallRequest[] = [];
  if (text.includes('<tool_call>')) {
    for (const m of text.matchAll(HERMES)) {
      const raw = m[1] ?? '';
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(raw);
      } catch {
        // kept as a call with no name
      }
      toolCalls.push(oneCall(parsed, raw, idOf(toolCalls.length)));
    }
    const rest = text.replace(HERMES, '').trim();
    return { format: 'hermes', content: rest === '' && toolCalls.length ? null : rest, toolCalls };
  }
  const mm = MISTRAL.exec(text);
  if (mm) {
    const raw = mm[1] ?? '';
    let list: unknown = null;
    try {
      list = JSON.parse(raw);
    } catch {
      // one call with no name, holding the raw text
    }
    if (Array.isArray(list)) for (const c of list) toolCalls.push(oneCall(c, JSON.stringify(c), idOf(toolCalls.length)));
    else toolCalls.push({ id: idOf(0), name: '', arguments: raw });
    const rest = text.replace(/\[TOOL_CALLS\][\s\S]*$/, '').trim();
    return { format: 'mistral', content: rest === '' ? null : rest, toolCalls };
  }
  return { format: null, content: text, toolCalls };
}
