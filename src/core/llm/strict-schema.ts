/**
 * OpenAI's strict function calling (`strict: true`, issue 35): a tool's parameters must then be a
 * JSON Schema of a restricted form (every object `additionalProperties: false` and every property
 * `required`; no `anyOf` at the root; a small set of keywords). `toStrictSchema` writes a tool's
 * schema in that form: an optional property becomes required and nullable (`null` = not given),
 * and the keywords outside the form (`default`, bounds, lengths) move into the description, so the
 * model still reads them while the run checks them. `fromStrictArgs` undoes the nulls: a call made
 * against the strict form becomes the call the tool's own schema takes (a `null` for an optional
 * property is left out, so its default applies).
 *
 * The LMS tools' own schemas (`toolSpecs()`) stay as they are: they are what traces of HTTP agents
 * digest and what MCP agents list. A provider configured with `strictTools` and `serve-mcp
 * --strict-schemas` use this form.
 */

/** The keywords the strict form keeps (OpenAI's supported subset, conservatively). */
const KEEP = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description']);

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => !!x && typeof x === 'object' && !Array.isArray(x);

/** The schema with `null` allowed as well (for a property that was optional). */
function nullable(s: Json): Json {
  if (Array.isArray(s.anyOf)) return { ...s, anyOf: [...s.anyOf, { type: 'null' }] };
  const out: Json = { ...s };
  if (typeof s.type === 'string') out.type = [s.type, 'null'];
  else if (Array.isArray(s.type) && !s.type.includes('null')) out.type = [...s.type, 'null'];
  if (Array.isArray(s.enum) && !s.enum.includes(null)) out.enum = [...s.enum, null];
  return out;
}

function strictNode(x: unknown, root: boolean): unknown {
  if (Array.isArray(x)) return x.map((y) => strictNode(y, false));
  if (!isObj(x)) return x;
  const out: Json = {};
  const notes: string[] = [];
  for (const [k, v] of Object.entries(x)) {
    if (k === 'properties' || k === 'required' || k === 'additionalProperties') continue;
    if (k === 'anyOf') {
      // At the root (assign_items: "item_ids or skill_id") the form has no place for it: the run checks it.
      if (!root) out.anyOf = (v as unknown[]).map((y) => strictNode(y, false));
    } else if (k === 'items') out.items = strictNode(v, false);
    else if (KEEP.has(k)) out[k] = v;
    else if (k === 'default') notes.push(`null for the default, ${JSON.stringify(v)}`);
    else if (k !== '$schema') notes.push(`${k} ${JSON.stringify(v)}`);
  }
  if (x.type === 'object' || isObj(x.properties)) {
    const props = isObj(x.properties) ? x.properties : {};
    const required = new Set(Array.isArray(x.required) ? (x.required as string[]) : []);
    out.properties = Object.fromEntries(Object.entries(props).map(([name, p]) => {
      const s = strictNode(p, false) as Json;
      return [name, required.has(name) ? s : nullable(s)];
    }));
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (notes.length) out.description = [typeof x.description === 'string' ? x.description : '', `(${notes.join('; ')})`].filter(Boolean).join(' ');
  return out;
}

/** A tool's parameters in OpenAI's strict form. */
export function toStrictSchema(schema: object): Json {
  return strictNode(schema, true) as Json;
}

/**
 * A call made against the strict form of `schema`, as the tool's own schema takes it: top-level
 * properties that `schema` does not require and that are `null` are left out. Arguments as text
 * (a model's) come back as text, rewritten only when something was left out; text that is not a
 * JSON object is returned as it is (the tool refuses it with its own error).
 */
export function fromStrictArgs<A>(schema: object, args: A): A {
  const required = new Set(Array.isArray((schema as Json).required) ? ((schema as Json).required as string[]) : []);
  let obj: unknown = args;
  if (typeof args === 'string') {
    try {
      obj = JSON.parse(args);
    } catch {
      return args;
    }
  }
  if (!isObj(obj)) return args;
  const drop = Object.keys(obj).filter((k) => obj[k] === null && !required.has(k));
  if (!drop.length) return args;
  const kept = Object.fromEntries(Object.entries(obj).filter(([k]) => !drop.includes(k)));
  return (typeof args === 'string' ? JSON.stringify(kept) : kept) as A;
}

/**
 * Why a schema is not in OpenAI's strict form (empty: it is). The rules `toStrictSchema` writes
 * to: objects with `additionalProperties: false` and every property required, no root `anyOf`,
 * `oneOf`, `allOf` or `not`, only the kept keywords.
 */
export function strictSchemaProblems(schema: unknown, path = '$'): string[] {
  if (!isObj(schema)) return [];
  const out: string[] = [];
  if (path === '$') for (const k of ['anyOf', 'oneOf', 'allOf', 'not']) if (k in schema) out.push(`${path}: "${k}" at the root`);
  for (const k of Object.keys(schema)) if (!KEEP.has(k)) out.push(`${path}: keyword "${k}"`);
  if (schema.type === 'object' || isObj(schema.properties)) {
    if (schema.additionalProperties !== false) out.push(`${path}: additionalProperties is not false`);
    const props = isObj(schema.properties) ? Object.keys(schema.properties) : [];
    const req = Array.isArray(schema.required) ? schema.required : [];
    for (const p of props) if (!req.includes(p)) out.push(`${path}.${p}: not required`);
  }
  if (isObj(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) out.push(...strictSchemaProblems(v, `${path}.${k}`));
  if (schema.items !== undefined) out.push(...strictSchemaProblems(schema.items, `${path}[]`));
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((s, i) => out.push(...strictSchemaProblems(s, `${path}|${i}`)));
  return out;
}
