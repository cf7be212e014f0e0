import { expect, expectNoAxeViolations, test, bucketsInZone } from './fixtures.ts';

test('switching to Simplified Chinese translates the console and is remembered', async ({ page, consolePage }) => {
  await consolePage.open('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await expect(page.getByRole('heading', { level: 1, name: '存储空间' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByText('演示数据 — 模拟后端')).toBeVisible();
  await expect(bucketsInZone(page, 'pek3a', '存储空间').first()).toBeVisible();
  await expectNoAxeViolations(page);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '存储空间' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  await page.getByRole('main').getByRole('link', { name: 'demo-photos' }).click();
  await expect(page.getByRole('searchbox', { name: '按前缀筛选' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '最后修改时间' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'photos/' })).toContainText('文件夹');

  await consolePage.open('/buckets/pek3a/no-such-bucket-here');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('该存储空间不存在');
  await expect(alert).toContainText('bucket_not_exists');
  await expect(alert.getByRole('button', { name: '复制请求 ID' })).toBeVisible();

  await page.getByRole('combobox', { name: '语言' }).selectOption({ label: 'English' });
  await expect(alert).toContainText('This bucket does not exist');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('axe finds no violations in the object browser with the details panel open', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos?prefix=photos/2024/06/&object=photos/2024/06/beach.jpg');
  await consolePage.details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(consolePage.details.getByTestId('custom-metadata')).toBeVisible();
  await consolePage.objectList.focus();
  await expectNoAxeViolations(page);
  await consolePage.details.getByRole('tab', { name: 'Share' }).click();
  await consolePage.details.getByRole('button', { name: 'Create download link' }).click();
  await expect(consolePage.details.getByTestId('download-link')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('every control in the object browser has an accessible name', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos');
  await consolePage.waitForList();
  const unnamed = await page.evaluate(() => {
    const controls = [...document.querySelectorAll('button, input, select, textarea, a[href], [role="grid"]')];
    return controls
      .filter((el) => {
        const labelled = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
        const text = (el.textContent ?? '').trim();
        const id = el.getAttribute('id');
        const label = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
        const wrapped = el.closest('label');
        return !labelled && !text && !label && !wrapped;
      })
      .map((el) => el.outerHTML.slice(0, 80));
  });
  expect(unnamed).toEqual([]);
});

test('the dark color scheme passes axe too (contrast)', async ({ page, consolePage }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await consolePage.open('/');
  await expect(consolePage.demoBadge).toBeVisible();
  await expectNoAxeViolations(page);
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/&object=reports/quarterly-report.pdf');
  await consolePage.details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(consolePage.details.getByTestId('custom-metadata')).toBeVisible();
  await consolePage.objectList.focus();
  await expectNoAxeViolations(page);
  await consolePage.open('/buckets/pek3a/no-such-bucket-here');
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoAxeViolations(page);
});
