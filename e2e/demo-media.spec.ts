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

test('the demo SVG, PDFs, sound and video preview as their types say', async ({ page, consolePage }) => {
  const details = consolePage.details;
  // An SVG is shown as its source (markup never renders in the console), and that source is an SVG picture.
  await page.goto(open('pek3a', 'demo-photos', 'cover.svg'));
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-text')).toContainText('<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160"');

  // The demo PDFs are real PDFs: the console draws their first page (never framed, never the browser's viewer).
  for (const key of ['reports/quarterly-report.pdf', 'samples/summary.pdf']) {
    const name = key.slice(key.lastIndexOf('/') + 1);
    await page.goto(open('pek3a', 'demo-documents', key));
    await details.getByRole('tab', { name: 'Preview' }).click();
    const first = details.getByRole('figure', { name: new RegExp(`^Page 1 of \\d+ of ${name.replace('.', '\\.')}$`) });
    await expect(first).toHaveAttribute('data-state', 'drawn');
    await expect(first.locator('canvas')).toBeVisible();
    await expect(details.getByTestId('preview-failed')).toHaveCount(0);
  }

  // The sound is decoded: its metadata (duration) is known.
  await page.goto(open('pek3a', 'demo-documents', 'samples/tone.wav'));
  await details.getByRole('tab', { name: 'Preview' }).click();
  const audio = details.locator('audio[aria-label="Preview of tone.wav"]');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThanOrEqual(1);
  await expect(details.getByTestId('preview-failed')).toHaveCount(0);

  // The video is decoded: its frame size is known and its first frame is there to show.
  await page.goto(open('sh1a', 'demo-uploads', 'videos/intro.webm'));
  await details.getByRole('tab', { name: 'Preview' }).click();
  const video = details.locator('video[aria-label="Preview of intro.webm"]');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => `${v.videoWidth}x${v.videoHeight}`)).toBe('160x90');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  await expect(details.getByTestId('preview-failed')).toHaveCount(0);
});
