/**
 * LLM configuration for the CLI: a config file (JSON or YAML) naming providers and optionally a
 * judge panel, plus the SDK's usual environment variables. OPENAI_BASE_URL / OPENAI_API_KEY make
 * a provider named "default" (base URL defaulting to https://api.openai.com/v1). Keys come from
 * the environment (`apiKeyEnv`) or, discouraged, the file itself (`apiKey`); they are handed to
 * the client and nowhere else.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { LlmError, type ChatRequest, type ChatResponse, type LlmClient } from '../../core/index';
import { LlmConfigSchema, ProviderSchema, familyOf, findProvider, formatZodError, type LlmConfig, type PanelConfig, type ProviderConfig } from '../llm/config';
import type { OpenAiCompatClient } from '../llm/openai-compat';

export const DEFAULT_PROVIDER = 'default';

/**
 * Client settings from the environment, so that a provider made from OPENAI_BASE_URL /
 * OPENAI_API_KEY alone can be tuned too (a server that accepts a request and never answers would
 * otherwise cost timeoutMs × (1 + maxRetries), 8 minutes a call with the defaults). They set the
 * "default" provider's values, and fill the same fields of a config file's providers where the
 * file does not give them (a value in the file wins). Invalid values are an error naming the
 * variable. Documented in docs/llm.md ("Providers").
 */
export const LLM_ENV_SETTINGS = {
  EDUCLAW_LLM_TIMEOUT_MS: 'timeoutMs',
  EDUCLAW_LLM_MAX_RETRIES: 'maxRetries',
  EDUCLAW_LLM_MAX_CONCURRENCY: 'maxConcurrency',
  EDUCLAW_LLM_BACKOFF_MS: 'backoffMs',
  EDUCLAW_LLM_MAX_RETRY_AFTER_MS: 'maxRetryAfterMs',
  EDUCLAW_LLM_MAX_REQUESTS_PER_MINUTE: 'maxRequestsPerMinute',
} as const;

/** The provider fields the environment sets (see LLM_ENV_SETTINGS), checked like the config file's. */
export function envSettings(env: NodeJS.ProcessEnv = process.env): Partial<ProviderConfig> {
  const out: Record<string, number> = {};
  for (const [name, field] of Object.entries(LLM_ENV_SETTINGS)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const n = Number(raw);
    const r = ProviderSchema.shape[field].safeParse(n);
    if (!Number.isFinite(n) || !r.success) throw new LlmError('LLM_CONFIG', `${name}=${JSON.stringify(raw)}: ${r.success ? 'not a number' : (r.error.issues[0]?.message ?? 'invalid')} (it sets the providers' ${field})`);
    out[field] = n;
  }
  return out as Partial<ProviderConfig>;
}

function readStructured(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new LlmError('LLM_CONFIG', `cannot read LLM config ${path}: ${(e as Error).message}`);
  }
  try {
    return parseYaml(text) as unknown; // YAML is a superset of JSON
  } catch (e) {
    throw new LlmError('LLM_CONFIG', `${path}: not JSON or YAML (${(e as Error).message})`);
  }
}

/** Providers from the files given (later files add to earlier ones) and the environment. */
export function loadLlmConfig(paths: readonly string[], env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const providers: ProviderConfig[] = [];
  let panel: PanelConfig | undefined;
  const fromEnv = envSettings(env);
  for (const path of paths) {
    const raw = fillFromEnv(readStructured(path), fromEnv);
    // A panel file may be a bare panel ({ judges: [...] }) with or without providers.
    const obj = raw && typeof raw === 'object' && 'judges' in raw ? (() => {
      const { providers: ps, ...rest } = raw as { providers?: unknown };
      return { providers: ps ?? [], panel: rest };
    })() : raw;
    const r = LlmConfigSchema.safeParse(obj);
    if (!r.success) throw new LlmError('LLM_CONFIG', formatZodError(path, r.error));
    for (const p of r.data.providers) {
      if (providers.some((x) => x.name === p.name)) throw new LlmError('LLM_CONFIG', `${path}: provider "${p.name}" is defined twice`);
      providers.push(p);
    }
    if (r.data.panel) panel = r.data.panel;
  }
  if ((env.OPENAI_BASE_URL || env.OPENAI_API_KEY) && !providers.some((p) => p.name === DEFAULT_PROVIDER)) {
    const r = ProviderSchema.safeParse({ name: DEFAULT_PROVIDER, baseURL: env.OPENAI_BASE_URL || 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', ...fromEnv });
    if (!r.success) throw new LlmError('LLM_CONFIG', formatZodError('OPENAI_BASE_URL', r.error));
    providers.push(r.data);
  }
  return { providers, ...(panel ? { panel } : {}) };
}

/** A config file's providers with the environment's settings where the file gives none. */
function fillFromEnv(raw: unknown, fromEnv: Partial<ProviderConfig>): unknown {
  if (!Object.keys(fromEnv).length || !raw || typeof raw !== 'object') return raw;
  const o = raw as { providers?: unknown };
  if (!Array.isArray(o.providers)) return raw;
  return { ...o, providers: o.providers.map((p: unknown) => (p && typeof p === 'object' && !Array.isArray(p) ? { ...fromEnv, ...(p as object) } : p)) };
}

export function keyFor(p: ProviderConfig, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (p.apiKey) return p.apiKey;
  if (p.apiKeyEnv) {
    const k = env[p.apiKeyEnv];
    // The default provider may be keyless (e.g. OPENAI_BASE_URL pointing at a local server).
    if (!k && p.name !== DEFAULT_PROVIDER) throw new LlmError('LLM_CONFIG', `provider ${p.name}: environment variable ${p.apiKeyEnv} is not set`);
    return k || undefined;
  }
  return undefined;
}

/** The provider to use: the named one, else "default", else the only one configured. */
export function pickProvider(cfg: LlmConfig, name?: string): ProviderConfig {
  if (name) {
    try {
      return findProvider(cfg.providers, name);
    } catch (e) {
      throw new LlmError('LLM_CONFIG', (e as Error).message);
    }
  }
  const def = cfg.providers.find((p) => p.name === DEFAULT_PROVIDER);
  if (def) return def;
  if (cfg.providers.length === 1) return cfg.providers[0]!;
  if (cfg.providers.length === 0) throw new LlmError('LLM_CONFIG', 'no LLM provider configured: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server needs one), or pass --llm-config <file>');
  throw new LlmError('LLM_CONFIG', `several providers configured (${cfg.providers.map((p) => p.name).join(', ')}): choose one with --provider`);
}

/**
 * The OpenAI-compatible client (adapters/llm/openai-compat.ts) for a provider and model, made at
 * its first call: the SDK (openai) is imported then, not when the CLI or a sweep thread starts,
 * so runs that never call a model do not load it. The key and the model are checked at once.
 */
class LazyOpenAiClient implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly family: string | null;
  readonly #make: () => Promise<OpenAiCompatClient>;
  #client: Promise<OpenAiCompatClient> | null = null;

  constructor(p: ProviderConfig, model: string, opts: { apiKey?: string; family?: string }) {
    if (!model) throw new LlmError('LLM_CONFIG', `provider ${p.name}: no model given`);
    this.provider = p.name;
    this.model = model;
    this.family = familyOf(p, model, opts.family);
    this.#make = async () => new (await import('../llm/openai-compat')).OpenAiCompatClient(p, model, opts);
  }

  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    this.#client ??= this.#make();
    return this.#client.then((c) => c.chat(req, signal));
  }

  /** Keys never leave the object: not in JSON, not in console output. */
  toJSON(): object {
    return { provider: this.provider, model: this.model, family: this.family };
  }
}

export function makeClient(p: ProviderConfig, model: string, opts: { family?: string; env?: NodeJS.ProcessEnv } = {}): LlmClient {
  const key = keyFor(p, opts.env);
  return new LazyOpenAiClient(p, model, { ...(key ? { apiKey: key } : {}), ...(opts.family ? { family: opts.family } : {}) });
}

