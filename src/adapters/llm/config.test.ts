import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLlmConfig, pickProvider, keyFor, makeClient } from '../node/llm-config';
import { panelWarnings } from './config';

describe('LLM config', () => {
  it('reads the documented example: providers, prices, a three-family panel', () => {
    const cfg = loadLlmConfig(['docs/examples/llm.example.yaml'], {});
    expect(cfg.providers.map((p) => p.name)).toEqual(['ollama', 'llamacpp', 'openai', 'gemini', 'openrouter']);
    expect(cfg.providers.find((p) => p.name === 'openai')!.models['gpt-4.1-mini']).toEqual({ input: 0.4, output: 1.6 });
    expect(cfg.panel!.judges).toHaveLength(3);
    expect(cfg.panel!.temperature).toBe(0.3);
    expect(panelWarnings(cfg.panel!, cfg.providers)).toEqual([]);
  });

  it('OPENAI_BASE_URL / OPENAI_API_KEY make the "default" provider; keys come from the environment', () => {
    const env = { OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_API_KEY: 'sk-x-123456789' };
    const cfg = loadLlmConfig([], env);
    const p = pickProvider(cfg);
    expect(p).toMatchObject({ name: 'default', baseURL: 'http://localhost:11434/v1', apiKeyEnv: 'OPENAI_API_KEY' });
    expect(p.apiKey).toBeUndefined();
    expect(keyFor(p, env)).toBe('sk-x-123456789');
    expect(JSON.stringify(makeClient(p, 'm', { env }))).not.toContain('sk-x');
    expect(() => pickProvider(loadLlmConfig([], {}))).toThrow(/no LLM provider configured/);
  });

  it('names file, field and problem for a bad config; warns about a same-family panel; needs the key variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmcfg-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'providers:\n  - name: x\n    baseURL: not a url\n');
    expect(() => loadLlmConfig([bad], {})).toThrow(/bad\.yaml: providers\.0\.baseURL/);
    const panel = join(dir, 'panel.json');
    writeFileSync(panel, JSON.stringify({ providers: [{ name: 'o', baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'NOPE' }], judges: [{ provider: 'o', model: 'gpt-4.1-mini' }, { provider: 'o', model: 'gpt-4o' }] }));
    const cfg = loadLlmConfig([panel], {});
    expect(panelWarnings(cfg.panel!, cfg.providers).join('\n')).toMatch(/2 judges.*\n.*gpt-4.1-mini, gpt-4o are all of the openai family/);
    expect(() => makeClient(cfg.providers[0]!, 'gpt-4o', { env: {} })).toThrow(/NOPE is not set/);
  });
});
