/**
 * The Settings steps most LLM journeys start with: a provider named "mock" at the scripted server's
 * address, and a judge panel on it (model and family per judge), saved.
 */
import { expect, type Page } from '@playwright/test';

export async function mockProviderAndPanel(page: Page, url: string, key: string, judges: readonly (readonly [model: string, family: string])[]): Promise<void> {
  await page.goto('/#settings');
  await page.getByLabel('Name', { exact: true }).fill('mock');
  await page.getByLabel('Base URL', { exact: true }).fill(url);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByRole('status')).toContainText('Saved provider mock');
  for (const [model, family] of judges) {
    await page.getByLabel('Judge provider').selectOption('mock');
    await page.getByLabel('Judge model').fill(model);
    await page.getByLabel('Judge family (optional)').fill(family);
    await page.getByRole('button', { name: 'Add judge' }).click();
  }
  await page.getByRole('button', { name: 'Save panel settings' }).click();
}
