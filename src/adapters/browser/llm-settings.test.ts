/**
 * Keys in the page (issue 16): the user chooses "remember on this device" (localStorage) or "this
 * session only" (sessionStorage); they used to be stored as plain text in localStorage with no
 * choice, where every page of the same origin can read them.
 */
import { describe, expect, it } from 'vitest';
import { SESSION_KEYS_KEY, SETTINGS_KEY, emptySettings, loadSettings, saveSettings, type LlmSettingsData } from './llm-settings';
import { ProviderSchema } from '../llm/config';

const store = () => {
  const m = new Map<string, string>();
  return { m, getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};
const KEY = 'sk-test-SESSIONSECRET-0123456789';
const withKey = (mode: LlmSettingsData['keyStorage']): LlmSettingsData => ({ ...emptySettings(), keyStorage: mode, providers: [ProviderSchema.parse({ name: 'p', baseURL: 'http://localhost:1/v1', apiKey: KEY }), ProviderSchema.parse({ name: 'local', baseURL: 'http://localhost:2/v1' })] });

describe('where the page keeps API keys', () => {
  it('new settings keep keys for this session only: never in localStorage, back from sessionStorage in the same tab, gone in a new one', () => {
    expect(emptySettings().keyStorage).toBe('session');
    const local = store();
    const session = store();
    saveSettings(withKey('session'), local, session);
    expect(local.m.get(SETTINGS_KEY)).not.toContain(KEY);
    expect(JSON.parse(session.m.get(SESSION_KEYS_KEY)!)).toEqual({ p: KEY });
    const back = loadSettings(local, session);
    expect(back.error).toBeNull();
    expect(back.data.providers.map((p) => p.apiKey)).toEqual([KEY, undefined]);
    // A new tab (a new session): the providers are there, their keys are not.
    const fresh = loadSettings(local, store());
    expect(fresh.data.providers.map((p) => [p.name, p.apiKey])).toEqual([['p', undefined], ['local', undefined]]);
  });

  it('"remember on this device" keeps them in localStorage; switching back to the session removes them from it', () => {
    const local = store();
    const session = store();
    saveSettings(withKey('device'), local, session);
    expect(local.m.get(SETTINGS_KEY)).toContain(KEY);
    expect(session.m.has(SESSION_KEYS_KEY)).toBe(false);
    expect(loadSettings(local, store()).data.providers[0]!.apiKey).toBe(KEY);
    saveSettings({ ...loadSettings(local, session).data, keyStorage: 'session' }, local, session);
    expect(local.m.get(SETTINGS_KEY)).not.toContain(KEY);
    expect(loadSettings(local, session).data.providers[0]!.apiKey).toBe(KEY);
  });

  it('settings saved before the choice existed (keys in localStorage) stay on the device until the user chooses', () => {
    const local = store();
    const { keyStorage: _k, ...old } = withKey('device');
    void _k;
    local.setItem(SETTINGS_KEY, JSON.stringify(old));
    const r = loadSettings(local, store());
    expect(r.data.keyStorage).toBe('device');
    expect(r.data.providers[0]!.apiKey).toBe(KEY);
  });
});
