import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { cliTrace, exportedTrace } from './traces';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function runPlanner(page: Page, seed: string) {
  await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
  await page.getByLabel('Seed', { exact: true }).fill(seed);
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 90_000 });
}

test('run the default scenario with the planner, see chart and axes, reload, export the same trace as the CLI', async ({ page }) => {
  await page.goto('/#lab');
  await expect(page.getByRole('heading', { name: 'EduClaw Lab' })).toBeVisible();
  await page.getByRole('checkbox', { name: /Then run the same student with no tutor/ }).uncheck(); // this journey counts and reloads its own runs (the control: e2e/value-added.spec.ts)
  await runPlanner(page, '42');

  // The learner model (AKT) ran in the worker on onnxruntime-web; this first visit downloaded it.
  await expect(page.getByTestId('tracer-status')).toContainText(/akt .* on onnxruntime-web (wasm|webgpu)/);
  await expect(page.getByTestId('tracer-status')).toContainText('model downloaded');

  // The chart filled in: 31 probe points (day 0 and 30 days).
  await expect(page.locator('canvas[data-points="31"]')).toBeVisible();
  const table = page.getByRole('table', { name: 'Axis scores' });
  await expect(table).toBeVisible();
  await expect(table.locator('[data-axis="responsiveness"]')).toContainText('%');
  await expect(table.locator('[data-axis="leakage"]')).toHaveText('0.0%');
  await expect(table.locator('[data-axis="helpfulness"]')).toHaveText('unscored');
  // The trace viewer shows what tutor and learner did on a day (its own journey: e2e/trace-viewer.spec.ts).
  const viewer = page.getByRole('region', { name: 'Trace viewer' });
  // Day 1 of seed 42 has the learner skip the block; step forward to the first day with tutor messages.
  for (let i = 0; i < 5 && (await viewer.locator('.timeline .row.msg.tutor').count()) === 0; i++) await viewer.getByRole('button', { name: 'Next day ›' }).click();
  await expect(viewer.locator('.timeline .row.msg.tutor').first()).toBeVisible();
  await viewer.getByRole('checkbox', { name: /^Tool calls/ }).uncheck();
  await expect(viewer.locator('.timeline .row.tool')).toHaveCount(0);
  await viewer.getByRole('checkbox', { name: /^Tool calls/ }).check();
  await expect(viewer.locator('.timeline .row.tool').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/lab-after-run.png', fullPage: true });

  // Still there after a reload.
  await page.reload();
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__planner__s42@"]');
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Axis scores' })).toBeVisible();
  await expect(page.locator('canvas[data-points="31"]')).toBeVisible();

  // A second run after the reload takes the model from the browser cache (no download); cancel it.
  await page.getByLabel('Seed', { exact: true }).fill('43');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('tracer-status')).toContainText('akt');
  await expect(page.getByTestId('tracer-status')).not.toContainText('downloaded');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Stopped: aborted');

  // Export: byte-identical to the trace the CLI writes for the same scenario, tutor and seed.
  const exported = await exportedTrace(page, row);
  const cli = cliTrace(['--tutor', 'planner', '--seed', '42']);
  expect(exported.length).toBe(cli.length);
  expect(exported === cli).toBe(true);

  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('a CLI trace imports into the page and a broken file gives a clear error', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-'));
  const out = join(dir, 'withholder.jsonl');
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'withholder', '--seed', '5', '--out', out, '--quiet'], { stdio: 'inherit' });
  await page.goto('/#lab');
  await page.getByTestId('import-trace').setInputFiles(out);
  await expect(page.getByRole('status')).toContainText('Imported withholder.jsonl');
  await expect(page.locator('tr[data-run-key^="mini-3day__withholder__s5@"]')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Axis scores' }).locator('[data-axis="leakage"]')).toHaveText('0.0%');

  // Library scenarios are in the Lab's scenario list, loaded on demand.
  await page.getByLabel('Scenario', { exact: true }).selectOption({ label: 'gamer · after-school' });
  await expect(page.locator('.setup')).toContainText('Games the system');

  await page.getByTestId('import-trace').setInputFiles({ name: 'broken.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"seq":0,"t":0,"type":"run_start"}\n') });
  await expect(page.getByRole('alert')).toContainText('broken.jsonl:1');
});

test('a learner model that cannot be loaded says why, and BKT is there by name as an ablation', async ({ page }) => {
  // A damaged AKT readout graph (not the bytes meta.json names): the run stops and says so.
  await page.route('**/models/akt/akt_readout.onnx', (route) => route.fulfill({ status: 200, body: 'not an onnx file' }));
  await page.goto('/#lab');
  await page.getByLabel('Tutor', { exact: true }).selectOption('withholder');
  await page.getByLabel('Seed', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Start run' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(/akt_readout\.onnx does not match the model's meta\.json/, { timeout: 60_000 });
  await expect(page.getByTestId('progress-text')).toHaveText('Failed');

  // The AKT readout graph is missing on this server: the run stops with an error naming the file.
  await page.unroute('**/models/akt/akt_readout.onnx');
  await page.route('**/models/akt/akt_readout.onnx', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(alert).toContainText('akt_readout.onnx', { timeout: 60_000 });
  await expect(alert).toContainText('404');
  await expect(page.getByTestId('progress-text')).toHaveText('Failed');
  // Nothing else was run in its place.
  await expect(page.getByTestId('tracer-status')).toHaveCount(0);

  // Choosing BKT by name runs the same scenario on the ablation tracer, and the run says so.
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 90_000 });
  await expect(page.getByTestId('tracer-status')).toContainText(/Learner model: bkt/);
  await expect(page.getByText(/tracer bkt · done/)).toBeVisible();

  // The same choice in the CLI (--tracer bkt) writes the same trace, byte for byte.
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__withholder__s3@"]').filter({ hasText: 'done' });
  expect((await exportedTrace(page, row)) === cliTrace(['--tutor', 'withholder', '--seed', '3', '--tracer', 'bkt'])).toBe(true);
});
