import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { dropFiles } from './uploads-drop.ts';

// The upload drawer's queue in demo mode: a staged file leaves the batch before it starts, a queued one
// leaves the queue before it is sent, and a running multipart transfer pauses and resumes.

const MiB = 1024 * 1024;

test('a staged file and a queued file can each be removed on their own; the rest uploads', async ({ page }) => {
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums/');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await panel.getByLabel('Target prefix').fill('albums/queue-e2e/');
  // One file at a time, so the small files wait behind the big one.
  await panel.getByText('Transfer settings').click();
  await panel.getByLabel('Files at once').fill('1');
  await panel.getByLabel('Part size (MiB)').fill('4');
  await panel.getByRole('button', { name: 'Apply settings' }).click();
  await expect(panel.getByText('Saved. New transfers use these settings.')).toBeVisible();

  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'big.bin', size: 64 * MiB, seed: 21 },
    { path: 'q1.txt', text: 'one\n', type: 'text/plain' },
    { path: 'q2.txt', text: 'two\n', type: 'text/plain' },
    { path: 'q3.txt', text: 'three\n', type: 'text/plain' },
  ]);
  await expect(panel.getByTestId('staged-summary')).toHaveText('4 files ready (64.0 MiB)');
  const stagedList = panel.getByRole('list', { name: 'Files ready to upload' });
  await stagedList.getByRole('button', { name: 'Remove q3.txt from this batch' }).click();
  await expect(panel.getByTestId('staged-summary')).toHaveText('3 files ready (64.0 MiB)');
  await expect(stagedList.getByRole('listitem')).toHaveCount(3);
  await expect(stagedList).not.toContainText('q3.txt');
  await expectNoAxeViolations(page, '.uploads-drawer');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, '.uploads-drawer');
  await page.emulateMedia({ colorScheme: 'light' });

  await panel.getByRole('button', { name: 'Upload 3 files', exact: true }).click();
  const transfers = panel.getByRole('table', { name: 'Transfers' });
  const big = transfers.getByRole('row', { name: 'albums/queue-e2e/big.bin', exact: true });
  const q1 = transfers.getByRole('row', { name: 'albums/queue-e2e/q1.txt', exact: true });
  const q2 = transfers.getByRole('row', { name: 'albums/queue-e2e/q2.txt', exact: true });
  await expect(big).toHaveAttribute('data-state', 'running');
  await expect(q1).toHaveAttribute('data-state', 'queued');
  // A waiting file is removed outright (no "Cancel" step, nothing was sent).
  await expect(q1.getByRole('button', { name: 'Cancel albums/queue-e2e/q1.txt' })).toHaveCount(0);
  await q1.getByRole('button', { name: 'Remove albums/queue-e2e/q1.txt from the list' }).click();
  await expect(transfers.locator('tr[data-state]')).toHaveCount(2);

  // Pausing the running multipart file frees its slot: the next queued file goes through meanwhile.
  await big.getByRole('button', { name: 'Pause albums/queue-e2e/big.bin' }).click();
  await expect(big).toHaveAttribute('data-state', 'paused');
  await expect(q2).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expectNoAxeViolations(page, '.uploads-drawer');
  await big.getByRole('button', { name: 'Resume albums/queue-e2e/big.bin' }).click();
  await expect(big).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(panel.getByTestId('uploads-totals')).toContainText('2 of 2 files done');

  await page.getByRole('button', { name: 'Close uploads' }).click();
  await page.getByRole('grid').getByRole('link', { name: 'queue-e2e/', exact: true }).click();
  const grid = page.getByRole('grid');
  await expect(grid.getByText('q2.txt', { exact: true })).toBeVisible();
  await expect(grid.getByText('big.bin', { exact: true })).toBeVisible();
  await expect(grid.getByText('q1.txt', { exact: true })).toHaveCount(0);
  await expect(grid.getByText('q3.txt', { exact: true })).toHaveCount(0);
});

test('with the drawer closed the header shows overall progress, speed and time left', async ({ page }) => {
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums/');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await panel.getByLabel('Target prefix').fill('albums/indicator-e2e/');
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'big.bin', size: 64 * MiB, seed: 31 }]);
  await panel.getByRole('button', { name: 'Upload 1 file', exact: true }).click();
  const item = panel.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: 'albums/indicator-e2e/big.bin', exact: true });
  await expect(item).toHaveAttribute('data-state', 'running');
  // While the drawer is open it shows the rate itself; the header does not repeat it.
  await expect(page.getByRole('banner').getByTestId('upload-indicator-rate')).toHaveCount(0);
  await page.getByRole('button', { name: 'Close uploads' }).click();
  await expect(panel).toHaveCount(0);

  const banner = page.getByRole('banner');
  const indicator = banner.getByRole('button', { name: /^1 upload running, \d+% — show uploads$/ });
  await expect(indicator).toBeVisible();
  const rate = banner.getByTestId('upload-indicator-rate');
  // Either not measured yet ("—") or a real speed and time left; a measurement arrives while the file is sent.
  await expect(rate).toHaveText(/^(— \/s · — left|\d+(\.\d)?\s(B|KiB|MiB|GiB)\/s · .+ left)$/);
  await expect(rate).toHaveText(/^\d+(\.\d)?\s(B|KiB|MiB|GiB)\/s · \d+ (s|min \d+ s) left$/, { timeout: 20_000 });
  await expectNoAxeViolations(page, 'header');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, 'header');

  // When everything is done the indicator and its rate leave the header.
  await expect(banner.getByRole('button', { name: /upload running/ })).toHaveCount(0, { timeout: 60_000 });
  await expect(rate).toHaveCount(0);
});

test('files whose keys exist are asked about once per batch: keep both as "name (n).ext", skip, or overwrite', async ({ page }) => {
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums/');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await panel.getByLabel('Target prefix').fill('albums/conflict-e2e/');
  const transfers = panel.getByRole('table', { name: 'Transfers' });
  const key = (name: string) => `albums/conflict-e2e/${name}`;
  const expectDone = async (names: string[]) => {
    await expect(transfers.locator('tr[data-state]')).toHaveCount(names.length);
    for (const name of names) await expect(transfers.getByRole('row', { name: key(name), exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await panel.getByRole('button', { name: 'Clear finished' }).click();
    await expect(transfers).toHaveCount(0);
  };

  // New keys: no question.
  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'a.txt', text: 'a v1\n', type: 'text/plain' },
    { path: 'b.txt', text: 'b v1\n', type: 'text/plain' },
  ]);
  await panel.getByRole('button', { name: 'Upload 2 files', exact: true }).click();
  await expectDone(['a.txt', 'b.txt']);

  // Two of three exist: one question for the batch, listing them; nothing starts before the answer.
  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'a.txt', text: 'a v2\n', type: 'text/plain' },
    { path: 'b.txt', text: 'b v2\n', type: 'text/plain' },
    { path: 'c.txt', text: 'c v1\n', type: 'text/plain' },
  ]);
  await panel.getByRole('button', { name: 'Upload 3 files', exact: true }).click();
  const question = panel.getByRole('region', { name: '2 files already exist in demo-photos. What should happen to them?' });
  await expect(question.getByRole('list', { name: 'Files that already exist' }).getByRole('listitem')).toHaveText([key('a.txt'), key('b.txt')]);
  await expect(question).toBeFocused();
  await expect(transfers).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Upload 3 files', exact: true })).toBeDisabled();
  await expectNoAxeViolations(page, '.uploads-drawer');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, '.uploads-drawer');
  await page.emulateMedia({ colorScheme: 'light' });
  await question.getByRole('button', { name: 'Keep both (upload as “name (1).ext”)' }).click();
  await expect(question).toHaveCount(0);
  await expectDone(['a (1).txt', 'b (1).txt', 'c.txt']);

  // Skip: only the new file goes.
  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'a.txt', text: 'a v3\n', type: 'text/plain' },
    { path: 'd.txt', text: 'd v1\n', type: 'text/plain' },
  ]);
  await panel.getByRole('button', { name: 'Upload 2 files', exact: true }).click();
  await panel.getByRole('region', { name: '1 file already exists in demo-photos. What should happen to it?' }).getByRole('button', { name: 'Skip existing files' }).click();
  await expectDone(['d.txt']);

  // Keep both again: "a (1).txt" is taken on the server, so the next free name is used.
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'a.txt', text: 'a v4\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file', exact: true }).click();
  await panel.getByRole('button', { name: 'Keep both (upload as “name (1).ext”)' }).click();
  await expectDone(['a (2).txt']);

  // Overwrite: the same key again.
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'a.txt', text: 'a v5\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file', exact: true }).click();
  await panel.getByRole('button', { name: 'Overwrite' }).click();
  await expectDone(['a.txt']);

  await page.getByRole('button', { name: 'Close uploads' }).click();
  await page.getByRole('grid').getByRole('link', { name: 'conflict-e2e/', exact: true }).click();
  const grid = page.getByRole('grid');
  for (const name of ['a.txt', 'a (1).txt', 'a (2).txt', 'b.txt', 'b (1).txt', 'c.txt', 'd.txt']) await expect(grid.getByText(name, { exact: true })).toBeVisible();
  await expect(grid.getByText('a (3).txt', { exact: true })).toHaveCount(0);
});

test('files dropped on the object list with an existing key open the drawer with the same one question', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await expect(consolePage.row('readme.md')).toBeVisible();
  await dropFiles(consolePage.objectList, [
    { path: 'readme.md', text: '# dropped again\n', type: 'text/markdown' },
    { path: 'new-drop.txt', text: 'new\n', type: 'text/plain' },
  ]);
  const panel = page.getByRole('region', { name: 'Upload to demo-documents' });
  const question = panel.getByRole('region', { name: '1 file already exists in demo-documents. What should happen to it?' });
  await expect(question).toContainText('reports/readme.md');
  // Nothing started before the answer.
  await expect(panel.getByRole('table', { name: 'Transfers' })).toHaveCount(0);
  await question.getByRole('button', { name: 'Keep both (upload as “name (1).ext”)' }).click();
  const transfers = panel.getByRole('table', { name: 'Transfers' });
  await expect(transfers.getByRole('row', { name: 'reports/readme (1).md', exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(transfers.getByRole('row', { name: 'reports/new-drop.txt', exact: true })).toHaveAttribute('data-state', 'done');
  await page.getByRole('button', { name: 'Close uploads' }).click();
  await expect(consolePage.row('readme (1).md')).toBeVisible();
  await expect(consolePage.row('new-drop.txt')).toBeVisible();
});

test('50 files dropped into a folder with the drawer closed: the header indicator counts them down and reaches 100 %', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos?prefix=albums/');
  await consolePage.waitForList();
  // Every text the indicator shows is recorded in the page, so none is missed between two polls.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { indicatorTexts: seen });
    const banner = document.querySelector('header') ?? document.body;
    new MutationObserver(() => {
      const text = banner.querySelector('.upload-indicator')?.textContent ?? '';
      if (text !== '' && seen.at(-1) !== text) seen.push(text);
    }).observe(banner, { subtree: true, childList: true, characterData: true });
  });
  const folder = `drop50-${Date.now().toString(36)}`;
  const files = Array.from({ length: 50 }, (_, i) => ({ path: `${folder}/f-${String(i + 1).padStart(2, '0')}.bin`, size: 256 * 1024, seed: i + 1 }));
  await dropFiles(consolePage.objectList, files);
  // The drawer stays closed; the header counts the batch.
  await expect(page.getByRole('banner').getByRole('button', { name: /^\d+ uploads? running, \d+% — show uploads$/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Upload to demo-photos' })).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Uploaded 50 files to demo-photos/albums/.' })).toBeVisible({ timeout: 60_000 });
  // At the end it stays, finished at 100 %, until it is clicked (which opens the drawer with the batch).
  const finished = page.getByRole('banner').getByRole('button', { name: 'Uploads finished, 100% — show uploads' });
  await expect(finished).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: /upload.* running/ })).toHaveCount(0);

  const texts = await page.evaluate(() => (window as unknown as { indicatorTexts: string[] }).indicatorTexts);
  const running = texts.slice(0, -1).map((text) => {
    const match = /^(\d+) uploads? running, (\d+)% — show uploads$/.exec(text);
    expect(match, text).not.toBeNull();
    return { active: Number(match?.[1]), percent: Number(match?.[2]) };
  });
  const readings = [...running, texts.at(-1) === 'Uploads finished, 100% — show uploads' ? { done: true } : { text: texts.at(-1) }];
  expect(running[0]?.active).toBe(50);
  // Progress never goes back, the count never goes up, and the last reading is "finished, 100 %".
  for (let i = 1; i < running.length; i++) {
    expect(running[i]?.percent ?? 0).toBeGreaterThanOrEqual(running[i - 1]?.percent ?? 0);
    expect(running[i]?.active ?? 0).toBeLessThanOrEqual(running[i - 1]?.active ?? 0);
  }
  expect(readings.at(-1)).toEqual({ done: true });
  await finished.click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await expect(panel.getByRole('table', { name: 'Transfers' }).locator('[data-state="done"]')).toHaveCount(50);
  await expect(finished).toHaveCount(0);
  await page.getByRole('button', { name: 'Close uploads' }).click();
  await consolePage.row(`${folder}/`).getByRole('link').click();
  await expect(page.getByTestId('listing-status')).toHaveText(/^50 items loaded/);
});
