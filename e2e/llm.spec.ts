/**
 * Journey: configure an LLM provider (a mock chat-completions server this test starts) and a judge
 * panel in the page's settings, run an LLM tutor with the LLM student voice, judge the stored run,
 * see the judged axes; the key stays out of the exported trace.
 */
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { startMockOpenAi, type MockServer } from '../src/testing/mock-openai-server';

const KEY = 'sk-e2e-PAGESECRET-0123456789';
let srv: MockServer;
test.beforeAll(async () => {
  srv = await startMockOpenAi();
});
test.afterAll(async () => {
  await srv.close();
});

test('configure a provider, run an LLM tutor briefly, judge the stored run, see judged axes', async ({ page }) => {
  await page.goto('/#settings');
  await expect(page.getByRole('heading', { name: 'LLM providers' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('mock');
  await page.getByLabel('Base URL', { exact: true }).fill(srv.url);
  await page.getByLabel('API key').fill(KEY);
  await page.getByLabel('Model to price (optional)').fill('mock-tutor');
  await page.getByLabel('$ per 1M input tokens').fill('1');
  await page.getByLabel('$ per 1M output tokens').fill('2');
  await page.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByRole('status')).toContainText('Saved provider mock');
  await expect(page.locator('tr[data-provider="mock"]')).toContainText('set');
  await expect(page.locator('tr[data-provider="mock"]')).not.toContainText(KEY);

  for (const [model, family] of [['judge-4', 'alpha'], ['judge-2', 'beta'], ['judge-3', 'gamma']] as const) {
    await page.getByLabel('Judge provider').selectOption('mock');
    await page.getByLabel('Judge model').fill(model);
    await page.getByLabel('Judge family (optional)').fill(family);
    await page.getByRole('button', { name: 'Add judge' }).click();
  }
  await expect(page.getByRole('table', { name: 'Judges' }).locator('tbody tr')).toHaveCount(3);
  await page.getByLabel('Days judged per run (empty: all)').fill('');
  await page.getByRole('button', { name: 'Save panel settings' }).click();
  await page.getByLabel('Voice provider').selectOption('mock');
  await page.getByLabel('Voice model').fill('mock-student');
  await page.getByRole('button', { name: 'Save voice' }).click();
  await expect(page.getByRole('status')).toContainText('mock-student');
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Run the LLM tutor (notes harness) on the 3-day fixture with the LLM student voice.
  await page.getByRole('link', { name: 'Lab' }).click();
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles('scenarios/fixtures/mini-3day.yaml');
  await expect(page.getByRole('status')).toContainText('Loaded scenario mini-3day');
  await page.getByLabel('Tutor', { exact: true }).selectOption('llm');
  await page.getByLabel('Harness').selectOption('notes');
  await page.getByLabel('Provider', { exact: true }).selectOption('mock');
  await page.getByLabel('Model', { exact: true }).fill('mock-tutor');
  await page.getByLabel('Student voice').selectOption('llm');
  const before = srv.requests.length;
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });
  expect(srv.requests.length).toBeGreaterThan(before);
  expect(srv.requests.slice(before).every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  await expect(page.getByTestId('llm-usage')).toContainText(/LLM: \d+ calls, \d+ tokens in, \d+ out; cost \$0\.\d+/);
  const row = page.locator('tr[data-run-key^="mini-3day__llm-notes-mock-tutor__s7__voice-mock-student@"]');
  await expect(row).toContainText('llm/notes/mock-tutor');
  const axes = page.getByRole('table', { name: 'Axis scores' });
  await expect(axes.locator('[data-axis="gagne"]')).toHaveText('unscored');
  await expect(page.getByTestId('voice-fidelity')).toContainText('LLM student voice');

  // Judge the stored run with the three judges (scripted to give 4, 2 and 3).
  await page.getByRole('button', { name: 'Judge this run' }).click();
  await expect(page.getByTestId('judge-progress')).toContainText('Judged:', { timeout: 60_000 });
  await expect(axes.locator('[data-axis="gagne"]')).toHaveText('3.00');
  await expect(axes.locator('[data-axis="helpfulness"]')).toHaveText('3.00');
  await expect(axes.locator('[data-axis="rosenshine"]')).toHaveText('3.00');
  await expect(axes.locator('[data-axis="answerHolding"]')).toHaveText('100.0% of days');
  await expect(page.getByRole('table', { name: 'Judge verdicts by judge' })).toContainText('judge-4@mock');
  await page.screenshot({ path: 'test-results/llm-judged.png', fullPage: true });

  // Verdicts survive a reload (stored with the trace) and the export carries them, without the key.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Axis scores' }).locator('[data-axis="gagne"]')).toHaveText('3.00');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('tr[data-run-key^="mini-3day__llm-notes-mock-tutor__s7__voice-mock-student@"]').getByRole('button', { name: /Export run/ }).click()]);
  const exported = readFileSync((await download.path())!, 'utf8');
  expect(exported).toContain('"type":"judge_verdict"');
  expect(exported).toContain('"type":"model_call"');
  expect(exported).not.toContain(KEY);
  expect(exported).not.toContain('PAGESECRET');
  await page.getByRole('button', { name: 'Judge agreement across stored runs' }).click();
  await expect(page.getByTestId('agreement')).toContainText('1 judged run');
  await expect(page.getByTestId('agreement')).toContainText('Judge agreement (Spearman rho');
  const a11yLab = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11yLab.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
