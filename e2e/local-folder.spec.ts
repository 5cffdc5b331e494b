/**
 * A model folder from disk for the "In this browser" provider: the project's test model
 * (e2e/fixtures/tiny-lm/educlaw/tiny-voice-lm) is picked as a folder, checked, written into the
 * browser cache, shown as a row "from disk", loaded, used as the student voice for a 3-day run and
 * removed, with no request to any hub (the test hub counts its requests, and the browser's requests
 * are watched). A folder without tokenizer.json, and the fixture's parent folder, give clear errors;
 * one without the optional generation_config.json loads.
 */
import { test, expect, type Page } from '@playwright/test';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTinyHub, type TinyHub } from './tiny-hub';
import { cacheKeys, runThreeDays } from './local-run';

const HUB_PORT = Number(process.env.E2E_HUB_PORT ?? (Number(process.env.E2E_PORT ?? 4173) + 1));
const FOLDER = 'e2e/fixtures/tiny-lm/educlaw/tiny-voice-lm';
const MODEL = 'folder/tiny-voice-lm';
let hub: TinyHub;
let tmp: string;

test.beforeAll(async () => {
  hub = await startTinyHub(HUB_PORT);
  tmp = mkdtempSync(join(tmpdir(), 'educlaw-folder-'));
});
test.afterAll(async () => {
  await hub?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});


test('a model folder from disk: checked, cached, loaded and used as the student voice for a 3-day run with no request to any hub, then removed', async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  const outside: string[] = [];
  // Every http(s) request that leaves the app's own origin (blob: URLs of the page's workers are not requests to anyone).
  context.on('request', (r) => {
    if (/^https?:/.test(r.url()) && !r.url().startsWith(baseURL!)) outside.push(r.url());
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto('/#settings');
  const panel = page.locator('section[aria-labelledby="local-title"]');
  await panel.getByLabel('Model hub address').fill(hub.url);
  await panel.getByRole('button', { name: 'Save hub and device' }).click();
  const picker = panel.getByLabel('Load a model folder from disk');
  const err = panel.locator('[data-local-error]');
  const status = panel.locator('[data-local-status]');

  // The fixture's parent folder is not a model folder: the error says where config.json is.
  await picker.setInputFiles('e2e/fixtures/tiny-lm');
  await expect(err).toContainText('config.json is missing from the folder "tiny-lm"');
  await expect(err).toContainText('there is one in educlaw/tiny-voice-lm/: pick that folder');

  // A folder without tokenizer.json: a clear error naming it, and nothing kept.
  const broken = join(tmp, 'broken-lm');
  cpSync(FOLDER, broken, { recursive: true });
  rmSync(join(broken, 'tokenizer.json'));
  await picker.setInputFiles(broken);
  await expect(err).toContainText('The model folder "broken-lm" was not loaded: tokenizer.json is missing from the folder "broken-lm"');
  await expect(err).toContainText('Nothing falls back to the templates');
  await expect(panel.locator('tr[data-from-disk]')).toHaveCount(0);
  expect(await cacheKeys(page)).toEqual([]);

  // The good folder: a row "from disk", what was checked said in the status line.
  await picker.setInputFiles(FOLDER);
  await expect(status).toContainText(`Loaded the folder "tiny-voice-lm" as ${MODEL} (fp32, onnx/model.onnx): 5 files`);
  await expect(status).toContainText('checked by their sizes as read from disk; there is no hub hash to check them against');
  const row = panel.locator(`tr[data-local-model="${MODEL}"]`);
  await expect(row).toContainText('from disk');
  await expect(row.locator('[data-cache-state]')).toContainText('cached: 5 files');
  expect((await cacheKeys(page)).sort()).toEqual(['config.json', 'generation_config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json'].map((f) => `${hub.url}${MODEL}/resolve/main/${f}`));

  // Load: from the cache only.
  await row.getByRole('button', { name: `Load ${MODEL}` }).click();
  await expect(status).toContainText(`${MODEL} is ready on wasm`, { timeout: 60_000 });
  await expect(status).toContainText('0 requests to any hub');
  console.log(`[local-folder] load: ${await status.textContent()}`);

  // The student voice of a 3-day run.
  await row.getByRole('button', { name: `Use ${MODEL} as the student voice` }).click();
  await expect(page.getByRole('status').first()).toContainText(MODEL);
  const fidelity = await runThreeDays(page);
  console.log(`[local-folder] run: ${fidelity.replace(/\s+/g, ' ').trim()}`);

  // Remove: the row and the cache entries go.
  await page.getByRole('link', { name: 'LLM settings' }).click();
  await expect(row.locator('[data-cache-state]')).toContainText('cached: 5 files');
  await row.getByRole('button', { name: `Remove ${MODEL} from this browser` }).click();
  await expect(status).toContainText(`Removed ${MODEL} (from disk) from this browser (5 files in the cache)`);
  await expect(row).toHaveCount(0);
  expect(await cacheKeys(page)).toEqual([]);

  // generation_config.json is optional: a folder without it loads (the worker answers the missing file 404 itself).
  const bare = join(tmp, 'bare-lm');
  cpSync(FOLDER, bare, { recursive: true });
  rmSync(join(bare, 'generation_config.json'));
  await picker.setInputFiles(bare);
  await expect(status).toContainText('as folder/bare-lm (fp32, onnx/model.onnx): 4 files');
  const bareRow = panel.locator('tr[data-local-model="folder/bare-lm"]');
  await bareRow.getByRole('button', { name: 'Load folder/bare-lm' }).click();
  await expect(status).toContainText('folder/bare-lm is ready on wasm', { timeout: 60_000 });
  await expect(status).toContainText('0 requests to any hub');
  await bareRow.getByRole('button', { name: 'Remove folder/bare-lm from this browser' }).click();
  await expect(bareRow).toHaveCount(0);
  expect(await cacheKeys(page)).toEqual([]);

  expect(hub.requests).toEqual([]);
  expect(outside).toEqual([]);
  expect(pageErrors).toEqual([]);
});
