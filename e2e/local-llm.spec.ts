/**
 * The "In this browser" provider end to end, on the project's own test model (the machines that
 * run this have no model hub): a test hub serves it (e2e/tiny-hub.ts); a damaged download gives a
 * clear error and keeps nothing; a good one shows a progress bar (bytes and files), is checked
 * against the hub's sizes and sha256, and is cached; a 3-day run speaks with the local student
 * voice in a worker; after a reload the run needs no download; removal empties the cache.
 */
import { test, expect, type Page } from '@playwright/test';
import { startTinyHub, type TinyHub } from './tiny-hub';
import { cacheKeys, runThreeDays } from './local-run';

const HUB_PORT = Number(process.env.E2E_HUB_PORT ?? (Number(process.env.E2E_PORT ?? 4173) + 1));
const MODEL = 'educlaw/tiny-voice-lm';
let hub: TinyHub;

test.beforeAll(async () => {
  hub = await startTinyHub(HUB_PORT);
});
test.afterAll(async () => {
  await hub?.close();
});

const row = (page: Page) => page.locator(`tr[data-local-model="${MODEL}"]`);

test('the in-browser model: damaged download, download with progress, a run with the local voice, cached reload, removal', async ({ page }) => {
  test.setTimeout(240_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto('/#settings');
  const panel = page.locator('section[aria-labelledby="local-title"]');
  await expect(panel.getByRole('heading', { name: 'In this browser' })).toBeVisible();
  await panel.getByLabel('Model hub address').fill(hub.url);
  await panel.getByLabel('Device for in-browser models').selectOption('auto');
  await panel.getByRole('button', { name: 'Save hub and device' }).click();
  await expect(row(page).locator('[data-cache-state]')).toHaveText('not downloaded');

  // 1. A damaged ONNX file: a clear error naming the file and the cause; nothing kept in the cache.
  hub.damaged = true;
  await row(page).getByRole('button', { name: `Download ${MODEL}` }).click();
  const consent = page.getByRole('dialog', { name: 'Agree to the download' });
  await expect(consent).toContainText(/\d+ kB in 5 files \(the hub's file list\)/);
  await consent.getByRole('button', { name: 'Agree and download' }).click();
  const err = panel.locator('[data-local-error]');
  await expect(err).toContainText(`Download of ${MODEL} failed`, { timeout: 60_000 });
  await expect(err).toContainText('onnx/model.onnx');
  await expect(err).toContainText(/bytes in the cache, the hub lists \d+/);
  await expect(err).toContainText('removed from the browser cache');
  await expect(err).toContainText('Nothing falls back to the templates');
  expect(await cacheKeys(page)).toEqual([]);
  await expect(row(page).locator('[data-cache-state]')).toHaveText('not downloaded');

  // 2. A good download: the progress bar with bytes and files, checked against the hub's list, cached.
  hub.damaged = false;
  await row(page).getByRole('button', { name: `Download ${MODEL}` }).click();
  await consent.getByRole('button', { name: 'Agree and download' }).click();
  await expect(panel.getByRole('progressbar', { name: 'Model download' })).toBeVisible();
  await expect(panel.locator('[data-download-progress]')).toContainText(/ of \d+ kB; files \d+ of \d+/);
  const status = panel.locator('[data-local-status]');
  await expect(status).toContainText(`${MODEL} is ready on wasm`, { timeout: 60_000 });
  await expect(status).toContainText(/[1-9]\d* requests to the hub/);
  await expect(status).toContainText(/5 files checked against the hub's sizes, 1 against its sha256/);
  await expect(row(page).locator('[data-cache-state]')).toContainText('cached: 5 files');
  console.log(`[local-llm] download: ${await status.textContent()}`);

  // Streaming: a test message to the voice model, its reply streamed into the page.
  await row(page).getByRole('button', { name: `Use ${MODEL} as the student voice` }).click();
  await expect(page.getByRole('status').first()).toContainText(MODEL);
  await panel.getByRole('button', { name: 'Send to the voice model' }).click();
  // (the test model's reply to an unfamiliar prompt is gibberish: only the streaming is checked)
  await expect(status).toContainText('answered in', { timeout: 60_000 });
  await expect(panel.getByLabel('Streamed reply')).toHaveText(/\S/);

  // 3. A 3-day run with the local student voice (the model is loaded from the cache in a worker).
  const first = await runThreeDays(page);
  console.log(`[local-llm] first run: ${first.replace(/\s+/g, ' ').trim()}`);

  // 4. Reload and run again: nothing is fetched from the hub.
  const before = hub.requests.length;
  await page.reload();
  const second = await runThreeDays(page);
  console.log(`[local-llm] second run: ${second.replace(/\s+/g, ' ').trim()}`);
  expect(hub.requests.slice(before)).toEqual([]);

  // 5. Remove the model from the cache.
  await page.getByRole('link', { name: 'LLM settings' }).click();
  await expect(row(page).locator('[data-cache-state]')).toContainText('cached: 5 files');
  await row(page).getByRole('button', { name: `Remove ${MODEL} from this browser` }).click();
  await expect(panel.locator('[data-local-status]')).toContainText(`Removed ${MODEL} from this browser's cache (5 files)`);
  await expect(row(page).locator('[data-cache-state]')).toHaveText('not downloaded');
  expect(await cacheKeys(page)).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('a run with the local voice and no downloaded model stops with a clear error (no template fallback, no download)', async ({ page }) => {
  await page.goto('/#settings');
  const panel = page.locator('section[aria-labelledby="local-title"]');
  await panel.getByLabel('Model hub address').fill(hub.url);
  await panel.getByRole('button', { name: 'Save hub and device' }).click();
  await row(page).getByRole('button', { name: `Use ${MODEL} as the student voice` }).click();
  // An in-browser judge is allowed, with the warning that it is not a panel member.
  await page.getByLabel('Judge provider').selectOption('in-browser');
  await page.getByLabel('Judge model').fill(MODEL);
  await page.getByRole('button', { name: 'Add judge' }).click();
  await expect(page.locator('[data-local-judge-warning]')).toContainText('not a judge the paper would accept');
  const before = hub.requests.length;
  await page.getByRole('link', { name: 'Lab' }).click();
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles('scenarios/fixtures/mini-3day.yaml');
  await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
  await page.getByLabel('Student voice').selectOption('llm');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByText(/the model is not downloaded in this browser/).first()).toBeVisible({ timeout: 60_000 });
  expect(hub.requests.slice(before)).toEqual([]);
});

test('the in-browser model as the tutor (text protocol: its template has no tools) runs a 3-day run through the same port', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#settings');
  const panel = page.locator('section[aria-labelledby="local-title"]');
  await panel.getByLabel('Model hub address').fill(hub.url);
  await panel.getByRole('button', { name: 'Save hub and device' }).click();
  await row(page).getByRole('button', { name: `Download ${MODEL}` }).click();
  await page.getByRole('dialog', { name: 'Agree to the download' }).getByRole('button', { name: 'Agree and download' }).click();
  await expect(panel.locator('[data-local-status]')).toContainText('is ready on wasm', { timeout: 60_000 });
  await page.getByRole('link', { name: 'Lab' }).click();
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles('scenarios/fixtures/mini-3day.yaml');
  await page.getByLabel('Tutor', { exact: true }).selectOption('llm');
  await page.getByLabel('Harness').selectOption('reactive');
  await page.getByLabel('Provider', { exact: true }).selectOption('in-browser');
  await page.getByLabel('Model', { exact: true }).fill(MODEL);
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 120_000 });
  // The tutor's calls are counted like a remote provider's (cost 0: nothing is billed).
  await expect(page.getByRole('row', { name: /^Tutor \d+/ })).toContainText(`in-browser/${MODEL}`);
});
