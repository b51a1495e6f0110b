// Ticks a DataGrid row's checkbox. Playwright's check() reads the box right after its click; on a loaded
// machine the grid may not have drawn the new state yet, or may have drawn the row again between the
// scroll and the click so that the click hit the row's previous element ("did not change its state").
// A user would wait a moment and, seeing the box still empty, click again; so does this, once.
import type { Page } from 'playwright-core';

export async function checkGridRow(page: Page, id: string): Promise<void> {
  const row = page.locator(`.MuiDataGrid-row[data-id="${id}"]`);
  try {
    await row.getByRole('checkbox').check();
  } catch (error) {
    if (!String(error).includes('did not change its state')) throw error;
    const ticked = await row
      .locator('input[type="checkbox"]:checked')
      .waitFor({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (!ticked) await row.getByRole('checkbox').check();
  }
}
