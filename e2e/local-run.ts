/**
 * Shared by the in-browser model journeys (e2e/local-llm.spec.ts, e2e/local-folder.spec.ts): the
 * browser cache's model files, and a 3-day run of the planner with the LLM student voice that
 * fails with the run's LLM errors when it does not end "Done".
 */
import { expect, type Page } from '@playwright/test';

export const cacheKeys = (page: Page) => page.evaluate(async () => (await (await caches.open('transformers-cache')).keys()).map((r) => r.url).filter((u) => !u.endsWith('.wasm') && !u.endsWith('.mjs')));

export async function runThreeDays(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Lab' }).click();
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles('scenarios/fixtures/mini-3day.yaml');
  await expect(page.getByRole('status').first()).toContainText('Loaded scenario mini-3day');
  await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
  await page.getByLabel('Student voice').selectOption('llm');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText(/^(Done|Stopped.*)$/, { timeout: 90_000 });
  if ((await page.getByTestId('progress-text').textContent()) !== 'Done') {
    const body = (await page.locator('body').innerText()).split('\n').filter((l) => /llm error|LLM_|malformed|in-browser/.test(l));
    throw new Error(`the run stopped: ${body.slice(0, 6).join(' | ')}`);
  }
  const fidelity = page.getByTestId('voice-fidelity');
  await expect(fidelity).toContainText('LLM student voice');
  return (await fidelity.textContent()) ?? '';
}
