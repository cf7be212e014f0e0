import { expect, test } from './fixtures.ts';

// Every picture, sound and document of the demo seed is a real file (mocks/seed-media.ts): opened in the
// details panel's Preview tab, each one is decoded by the browser as its type says.

const open = (zone: string, bucket: string, key: string): string => {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? '' : `&prefix=${encodeURIComponent(key.slice(0, slash + 1))}`;
  return `/buckets/${zone}/${bucket}?object=${encodeURIComponent(key)}${prefix}`;
};

const IMAGES: ReadonlyArray<[string, string, string, string]> = [
  ['pek3a', 'demo-photos', 'photos/2024/06/beach.jpg', '160x120'],
  ['pek3a', 'demo-photos', 'photos/2024/06/sunset.jpg', '160x120'],
  ['pek3a', 'demo-photos', 'photos/2024/06/街景.png', '120x80'],
  ['pek3a', 'demo-photos', 'photos/2025/01/snow.webp', '120x80'],
  ['pek3a', 'demo-photos', 'photos/2025/01/new year 🎆.jpg', '160x120'],
  ['pek3a', 'demo-photos', 'albums/family/reunion.gif', '120x80'],
  ['pek3a', 'demo-public', 'assets/logo.png', '48x48'],
  ['pek3a', 'demo-documents', 'samples/chart.png', '240x160'],
];

test('every demo image previews: the browser decodes it (natural size known), none says it cannot show the file', async ({ page, consolePage }) => {
  test.setTimeout(120_000);
  for (const [zone, bucket, key, size] of IMAGES) {
    await page.goto(open(zone, bucket, key));
    const details = consolePage.details;
    await expect(details.getByTestId('details-key')).toHaveText(key);
    await details.getByRole('tab', { name: 'Preview' }).click();
    const name = key.slice(key.lastIndexOf('/') + 1);
    const image = details.getByRole('img', { name: `Preview of ${name}` });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? `${img.naturalWidth}x${img.naturalHeight}` : 'loading')), { message: key }).toBe(size);
    await expect(details.getByTestId('preview-failed')).toHaveCount(0);
  }
});

test('the demo SVG, PDFs and sound preview as their types say', async ({ page, consolePage }) => {
  const details = consolePage.details;
  // An SVG is shown as its source (markup never renders in the console), and that source is an SVG picture.
  await page.goto(open('pek3a', 'demo-photos', 'cover.svg'));
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-text')).toContainText('<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160"');

  // PDFs are served as PDFs and open in the browser's viewer.
  for (const [key, length] of [['reports/quarterly-report.pdf', 8192], ['samples/summary.pdf', undefined]] as const) {
    const served = page.waitForResponse((r) => r.url().includes('/demo-object/') && r.url().includes(encodeURIComponent(key.slice(key.lastIndexOf('/') + 1)).replaceAll('%2F', '/')));
    await page.goto(open('pek3a', 'demo-documents', key));
    await details.getByRole('tab', { name: 'Preview' }).click();
    expect((await served).headers()['content-type']).toBe('application/pdf');
    const frame = details.locator(`iframe[title="Preview of ${key.slice(key.lastIndexOf('/') + 1)}"]`);
    await expect(frame).toBeVisible();
    // The bytes behind the frame (the viewer shows them; read them again from the same link).
    const bytes = await frame.evaluate(async (element: HTMLIFrameElement) => {
      const text = new TextDecoder('latin1').decode(await (await fetch(element.src)).arrayBuffer());
      return { head: text.slice(0, 8), length: text.length, trailer: /startxref\n\d+\n%%EOF/.test(text) };
    });
    expect(bytes).toMatchObject({ head: '%PDF-1.4', trailer: true });
    expect(bytes.length).toBe(length ?? bytes.length);
  }

  // The sound is decoded: its metadata (duration) is known.
  await page.goto(open('pek3a', 'demo-documents', 'samples/tone.wav'));
  await details.getByRole('tab', { name: 'Preview' }).click();
  const audio = details.locator('audio[aria-label="Preview of tone.wav"]');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThanOrEqual(1);
  await expect(details.getByTestId('preview-failed')).toHaveCount(0);
});
