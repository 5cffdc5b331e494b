import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('the Calibration view shows the tracers on held-out students and the calibration of stored runs', async ({ page }) => {
  await page.goto('/#calibration');
  const real = page.getByRole('table', { name: 'Tracer quality on held-out students' });
  await expect(real).toBeVisible();
  await expect(real.getByRole('row', { name: /^akt/ })).toContainText(/0\.\d{4}/);
  await expect(real.getByRole('row', { name: /^bkt/ })).toBeVisible();
  await expect(page.locator('figure canvas').first()).toBeVisible();
  await expect(page.getByTestId('reference-sim-calibration')).toContainText(/\(akt akt-d\d+-b\d+-[^)]+\): 55 runs, \d+ \(run, day\) pairs, \d+ attempts: ECE 0\.\d{4}/);

  // No stored runs yet: nothing to calibrate, said plainly.
  await page.getByRole('button', { name: 'Compute from my stored runs' }).click();
  await expect(page.getByTestId('sim-calibration')).toContainText('0 runs');
  await expect(page.getByTestId('sim-calibration')).toContainText('ECE n/a');

  // Import a run made by the CLI, then compute again.
  const out = join(mkdtempSync(join(tmpdir(), 'educlaw-')), 'w.jsonl');
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'withholder', '--seed', '3', '--out', out, '--quiet'], { stdio: 'inherit' });
  await page.goto('/#lab');
  await page.getByTestId('import-trace').setInputFiles(out);
  await expect(page.getByRole('status')).toContainText('Imported w.jsonl');
  await page.goto('/#calibration');
  await page.getByRole('button', { name: 'Compute from my stored runs' }).click();
  await expect(page.getByTestId('sim-calibration')).toContainText(/1 runs \(bkt\), \d+ \(run, day\) pairs, \d+ attempts: ECE 0\.\d{4}, Brier 0\.\d{4}/);

  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
