/**
 * Reading JSON out of model replies. Models wrap JSON in prose or ``` fences; we take the first
 * balanced {...} object in the text. The caller validates it (zod) and decides what a failure means:
 * nothing here substitutes a default.
 */
import type { z } from 'zod';

/** The first balanced JSON object in the text, parsed; or an error saying why there is none. */
export function extractJsonObject(text: string | null): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text === null || text.trim() === '') return { ok: false, error: 'the reply was empty' };
  const t = text.replace(/```(?:json)?/gi, '');
  let start = t.indexOf('{');
  while (start >= 0) {
    let depth = 0;
    let inStr = false;
    let esc = false;
    for (let i = start; i < t.length; i++) {
      const c = t[i]!;
      if (inStr) {
        if (esc) esc = false;
        else if (c === '\\') esc = true;
        else if (c === '"') inStr = false;
        continue;
      }
      if (c === '"') inStr = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          try {
            return { ok: true, value: JSON.parse(t.slice(start, i + 1)) };
          } catch (e) {
            return { ok: false, error: `the JSON object is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
          }
        }
      }
    }
    return { ok: false, error: 'the JSON object is not closed' };
  }
  return { ok: false, error: 'the reply contains no JSON object' };
}

/** Extracts and validates; the error names the first problem in words a model can act on. */
export function parseJsonReply<S extends z.ZodType>(text: string | null, schema: S): { ok: true; value: z.infer<S> } | { ok: false; error: string } {
  const j = extractJsonObject(text);
  if (!j.ok) return j;
  const r = schema.safeParse(j.value);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : 'the object'}: ${i.message}`);
    return { ok: false, error: issues.join('; ') };
  }
  return { ok: true, value: r.data };
}
