/**
 * Deterministic demo data for the emulator (browser demo mode, tests, the standalone server's `--seed demo`).
 *
 * Same call ⇒ same buckets, keys, bodies and metadata. Object times come from the store clock (inject `now`
 * for fixed times) except in the bulk bucket, whose times are fixed. Upload ids are random by design.
 *
 * Demo buckets (owner: the first user, normally DEMO_USER):
 * - pek3a `demo-photos`     nested folders (`photos/2024/06/...`), folder markers, images with rich metadata
 * - pek3a `demo-documents`  hostile and international keys: CJK, Korean, RTL Arabic/Hebrew, emoji, quote runs,
 *                           `<img src=x onerror=alert(1)>`, punctuation runs; all five standard headers and custom
 *                           metadata incl. RFC 2047 and percent-encoded non-ASCII values
 * - pek3a `demo-public`     public-read (QS_ALL_USERS READ) with a stored bucket policy; anonymous GET works,
 *                           anonymous ListObjects does not (ref §10)
 * - sh1a  `demo-archive`    100,000 objects under `logs/<year>/<month>/<day>/` (bulk-loaded, fixed times)
 * - sh1a  `demo-uploads`    in-progress multipart uploads: one with gaps (parts 1, 2, 5), one with 2,500 tiny parts,
 *                           one plain; plus a few finished objects
 *
 * The 2,500-part upload uses 16-byte parts. Completing it only works when the store's `minPartSize` is at most
 * DEMO_MIN_PART_SIZE, which createEmulator() uses by default for the demo seed (the real minimum is 4 MiB, ref §8).
 * Every demo bucket gets a permissive CORS rule so a real browser can use the standalone server too.
 */
import { DEMO_CREDENTIALS } from '../src/api/connection.ts';
import { CONSOLE_READ_HEADERS } from '../src/api/cors/rule.ts';
import { encodePercent, encodeRfc2047B, encodeRfc2047Q } from '../src/api/metadata/encoding.ts';
import type { MockUser } from './auth/signature.ts';
import { gif, jpeg, pdf, png, scene, svg, wav, webp, type Rgb } from './seed-media.ts';
import { introWebm } from './seed-video.ts';
import type { CorsConfiguration, LazyObjectSource, MetadataInput, Store } from './store/index.ts';

/** The documented demo user; its key pair is public and only the emulator accepts it. */
export const DEMO_USER: MockUser = Object.freeze({
  id: 'usr-demo0001',
  name: 'demo',
  accessKeyId: DEMO_CREDENTIALS.accessKeyId,
  secretAccessKey: DEMO_CREDENTIALS.secretAccessKey,
});


export const DEMO_BUCKETS = {
  photos: 'demo-photos',
  documents: 'demo-documents',
  public: 'demo-public',
  archive: 'demo-archive',
  uploads: 'demo-uploads',
} as const;

export const DEMO_ARCHIVE_OBJECTS = 100_000;
export const DEMO_TINY_PARTS = 2_500;

/** Lets a browser console reach every demo bucket over real HTTP (ref §9.9 requirements). */
export const DEMO_CORS: CorsConfiguration = {
  cors_rules: [
    {
      allowed_origin: '*',
      allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
      allowed_headers: ['*'],
      expose_headers: [
        ...CONSOLE_READ_HEADERS,
        'x-qs-meta-author',
        'x-qs-meta-title',
        'x-qs-meta-camera',
        'x-qs-meta-project',
      ],
      max_age_seconds: 600,
    },
  ],
  resp_vary: 'enabled',
};

const encoder = new TextEncoder();
const text = (s: string): Uint8Array => encoder.encode(s);

/** Deterministic pseudo-random bytes (xorshift32), so "images" have stable ETags. */
function pseudoBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function meta(standard: MetadataInput['standard'], custom: Record<string, string> = {}): MetadataInput {
  return { standard, custom };
}

function ownerOf(users: readonly MockUser[]): MockUser {
  const owner = users[0];
  if (!owner) throw new Error('seedDemo needs at least one user (the bucket owner)');
  return owner;
}

function seedPhotos(store: Store, ownerId: string): void {
  const bucket = DEMO_BUCKETS.photos;
  store.createBucket({ name: bucket, zone: 'pek3a', ownerId });
  const folders = ['photos/', 'photos/2024/', 'photos/2024/06/', 'photos/2025/', 'photos/2025/01/', 'albums/', 'albums/family/'];
  for (const f of folders) store.putObject(bucket, f, { body: new Uint8Array(0) });
  // Real pictures, drawn in code (seed-media.ts): each previews as its type says.
  const photos: Array<[string, Uint8Array, string]> = [
    ['photos/2024/06/beach.jpg', jpeg(160, 120, scene([110, 170, 235], [30, 120, 170], [255, 225, 120], 160, 120)), 'image/jpeg'],
    ['photos/2024/06/sunset.jpg', jpeg(160, 120, scene([240, 140, 90], [70, 60, 120], [255, 200, 80], 160, 120)), 'image/jpeg'],
    ['photos/2024/06/街景.png', png(120, 80, (x, y) => (y > 55 ? [70, 70, 80] : x % 30 < 22 && y > 15 + (x % 60) / 3 ? [200, 120 + (x % 40), 90] : [150, 190, 230])), 'image/png'],
    ['photos/2025/01/snow.webp', webp(120, 80, [90, 110, 150], [240, 245, 250], (x, y) => [y > 40 || (x * 7 + y * 13) % 29 === 0, y > 40 || (x * 7 + y * 13) % 29 === 0, true]), 'image/webp'],
    ['photos/2025/01/new year 🎆.jpg', jpeg(160, 120, (x, y) => ((x - 80) ** 2 + (y - 50) ** 2 < 900 && (x + y) % 16 < 8 ? [250, 90 + (x % 80), 60] : [20, 20, 60])), 'image/jpeg'],
    ['albums/family/reunion.gif', gif(120, 80, [[240, 230, 210], [200, 80, 60], [60, 110, 180], [90, 150, 80]], (x, y) => (y > 60 ? 3 : Math.floor(x / 30) % 2 === 0 && y > 25 ? 1 + (Math.floor(x / 60) % 2) : 0)), 'image/gif'],
    // 512 bytes, as listings in the journeys expect.
    ['cover.svg', svg('demo-photos', ['#6aa6e8', '#fad250', '#1f6e9c'], 512), 'image/svg+xml'],
  ];
  photos.forEach(([key, body, type], i) => {
    store.putObject(bucket, key, {
      body,
      metadata: meta(
        { 'content-type': type, 'cache-control': 'public, max-age=86400' },
        { camera: 'QingCam X100', author: encodeRfc2047B('摄影师 王'), 'shot-at': `2024-06-0${(i % 9) + 1}T10:00:00Z` },
      ),
      storageClass: i % 3 === 2 ? 'STANDARD_IA' : 'STANDARD',
    });
  });
  store.putBucketCors(bucket, DEMO_CORS);
}

/** Keys that break naive HTML, URL and shell handling. */
export const HOSTILE_KEYS = [
  '报告/2024年度总结.txt',
  '한국어/문서.txt',
  'عربي/ملف.txt',
  'עברית/קובץ.txt',
  'emoji/😀🎉🚀.txt',
  `quotes/"double" and 'single' ""'' runs.txt`,
  '<img src=x onerror=alert(1)>.html',
  ",./;'[]\\-=.txt",
  '<>?:"{}|_+.txt',
  ' !@#$%^&*()`~.txt',
  'spaces in name/and  double  spaces.txt',
  'percent%20literal%2Fslash.txt',
] as const;

/** A 240×160 bar chart: four bars on a light ground. */
const BAR_COLOURS: ReadonlyArray<Rgb> = [[70, 130, 220], [90, 180, 120], [230, 160, 60], [200, 80, 90]];
const chart = (x: number, y: number): Rgb => {
  const bar = Math.floor((x - 20) / 55);
  const top = [110, 70, 90, 40][bar] ?? 160;
  if (x >= 20 && (x - 20) % 55 < 40 && y >= top && y < 150) return BAR_COLOURS[bar] ?? [0, 0, 0];
  return y === 150 ? [60, 60, 60] : [248, 248, 250];
};

/** `samples/`: one object of each previewable kind, and a name that hides its type behind U+202E. */
function seedSamples(store: Store, bucket: string): void {
  store.putObject(bucket, 'samples/chart.png', {
    body: png(240, 160, chart),
    metadata: meta({ 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' }, { title: encodeRfc2047B('Quarterly revenue (€)'), source: 'demo' }),
  });
  store.putObject(bucket, 'samples/tone.wav', { body: wav(440, 0.25), metadata: meta({ 'content-type': 'audio/wav' }) });
  store.putObject(bucket, 'samples/summary.pdf', { body: pdf(['Quarterly summary', 'Demo PDF for the preview']), metadata: meta({ 'content-type': 'application/pdf' }) });
  store.putObject(bucket, 'samples/notes.txt', {
    body: text('Release notes\n\n- Preview for images, PDF and text\n- Download stays in the console\n'),
    metadata: meta({ 'content-type': 'text/plain; charset=utf-8' }),
  });
  store.putObject(bucket, 'samples/settings.json', {
    body: text('{"theme":"system","languages":["en","zh-CN"],"preview":{"maxTextBytes":262144}}'),
    metadata: meta({ 'content-type': 'application/json' }),
  });
  // An SVG that would run script if it were ever rendered as a document: the preview shows its source.
  store.putObject(bucket, 'samples/hostile.svg', {
    body: text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><script>alert(1)</script></svg>\n'),
    metadata: meta({ 'content-type': 'image/svg+xml' }),
  });
  // Displayed naively, the right-to-left override makes "invoice\u202Efdp.exe" read as "invoiceexe.pdf".
  store.putObject(bucket, 'samples/invoice\u202efdp.exe', { body: text('not really a program\n'), metadata: meta({ 'content-type': 'application/octet-stream' }) });
}

function seedDocuments(store: Store, ownerId: string, otherUser: MockUser | undefined): void {
  const bucket = DEMO_BUCKETS.documents;
  store.createBucket({ name: bucket, zone: 'pek3a', ownerId });
  for (const key of HOSTILE_KEYS) {
    store.putObject(bucket, key, { body: text(`Content of ${key}\n`), metadata: meta({ 'content-type': 'text/plain; charset=utf-8' }) });
  }
  // All five storable standard headers (ref §6) plus custom metadata in every value form.
  store.putObject(bucket, 'reports/quarterly-report.pdf', {
    // 8 KiB, as listings in the journeys expect.
    body: pdf(['Quarterly report Q3', 'Revenue up 12 % on the quarter', 'Demo data of the QingStor console'], 8192),
    metadata: meta(
      {
        'content-type': 'application/pdf',
        'cache-control': 'private, max-age=600',
        'content-disposition': `attachment; filename="quarterly-report.pdf"; filename*=utf-8''${encodePercent('季度报告.pdf')}`,
        'content-encoding': 'identity',
        expires: 'Wed, 31 Dec 2031 23:59:59 GMT',
      },
      {
        author: 'Alice Example',
        title: encodeRfc2047B('季度报告 Q3'),
        'title-q': encodeRfc2047Q('Überblick – Q3'),
        project: encodePercent('项目/北京'),
        department: 'finance',
        'review_status': 'approved',
        'version.number': '3',
      },
    ),
  });
  store.putObject(bucket, 'reports/readme.md', {
    body: text('# Reports\n\nQuarterly and yearly reports.\n'),
    metadata: meta({ 'content-type': 'text/markdown; charset=utf-8' }, { author: encodeRfc2047B('مؤلف') }),
  });
  store.putObject(bucket, 'data/table.csv', {
    body: text('id,name\n1,Ada\n2,Grace\n'),
    metadata: meta({ 'content-type': 'text/csv', 'content-disposition': 'inline' }, { rows: '2' }),
  });
  store.putObject(bucket, 'data/page.html', {
    body: text('<!doctype html><title>x</title><script>alert(1)</script>'),
    metadata: meta({ 'content-type': 'text/html; charset=utf-8' }, { note: '<b>not bold</b>' }),
  });
  store.putObject(bucket, 'data/archive.tar.gz', {
    body: pseudoBytes(2048, 99),
    metadata: meta({ 'content-type': 'application/x-tar', 'content-encoding': 'gzip' }),
  });
  seedSamples(store, bucket);
  if (otherUser) store.putBucketAcl(bucket, [{ grantee: { type: 'user', id: otherUser.id }, permission: 'READ' }]);
  store.putBucketCors(bucket, DEMO_CORS);
}

function seedPublic(store: Store, ownerId: string): void {
  const bucket = DEMO_BUCKETS.public;
  store.createBucket({ name: bucket, zone: 'pek3a', ownerId });
  store.putObject(bucket, 'index.html', { body: text('<!doctype html><h1>Public bucket</h1>'), metadata: meta({ 'content-type': 'text/html; charset=utf-8' }) });
  store.putObject(bucket, 'assets/logo.png', { body: png(48, 48, (x, y) => ((x - 24) ** 2 + (y - 24) ** 2 < 400 ? [40, 120, 220] : [255, 255, 255])), metadata: meta({ 'content-type': 'image/png', 'cache-control': 'public, max-age=31536000' }) });
  store.putObject(bucket, 'downloads/manual.txt', {
    body: text('The public manual.\n'),
    metadata: meta({ 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="manual.txt"' }),
  });
  store.putBucketAcl(bucket, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }]);
  store.putBucketPolicy(bucket, {
    statement: [
      {
        id: 'allow-public-downloads',
        user: '*',
        action: ['get_object'],
        effect: 'allow',
        resource: [`${bucket}/downloads/*`],
        condition: { string_like: { Referer: ['*.example.com'] } },
      },
    ],
  });
  store.putBucketCors(bucket, DEMO_CORS);
}

/** Id prefix of the archive's generated source (LazyObjectSource.id). */
const ARCHIVE_SOURCE = 'demo-archive';
const ARCHIVE_BODY = text('{"event":"login","ok":true}\n');
const ARCHIVE_START = Date.UTC(2024, 0, 1);

/**
 * Entries generated lazily, already in key order: 400 events per day from 2024-01-01 (250 days for 100,000).
 * Day prefixes and event suffixes are built once, so the generator allocates little per object.
 */
const ARCHIVE_PER_DAY = 400;

/** `logs/YYYY/MM/DD` of archive day `day`. */
function archiveDayPrefix(day: number): string {
  const date = new Date(ARCHIVE_START + day * 86_400_000);
  return `logs/${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}`;
}

function archiveKeyAt(index: number): string {
  return `${archiveDayPrefix(Math.floor(index / ARCHIVE_PER_DAY))}/event-${String(index % ARCHIVE_PER_DAY).padStart(4, '0')}.json`;
}

/**
 * The archive bucket's objects by index, in key order: 400 a day from ARCHIVE_START, one a minute, every
 * seventh day STANDARD_IA. Indexable, so the store can build any page of it on demand.
 */
export function archiveSource(count: number = DEMO_ARCHIVE_OBJECTS): LazyObjectSource {
  return {
    id: `${ARCHIVE_SOURCE}:${count}`,
    count,
    keyAt: archiveKeyAt,
    entryAt: (index) => {
      const day = Math.floor(index / ARCHIVE_PER_DAY);
      const n = index % ARCHIVE_PER_DAY;
      return {
        key: archiveKeyAt(index),
        body: ARCHIVE_BODY,
        contentType: 'application/json',
        lastModified: new Date(ARCHIVE_START + day * 86_400_000 + n * 60_000),
        storageClass: day % 7 === 0 ? 'STANDARD_IA' : 'STANDARD',
      };
    },
  };
}

/** The generated source a LazyObjectSource id names (persistent journals regenerate it), or undefined. */
export function lazySourceById(id: string): LazyObjectSource | undefined {
  const match = /^([a-z-]+):(\d{1,7})$/.exec(id);
  if (match?.[1] !== ARCHIVE_SOURCE) return undefined;
  return archiveSource(Number(match[2]));
}

function seedArchive(store: Store, ownerId: string): void {
  const bucket = DEMO_BUCKETS.archive;
  store.createBucket({ name: bucket, zone: 'sh1a', ownerId });
  // Built page by page as it is listed: seeding costs nothing until someone browses the bucket.
  store.bulkLoadLazy(bucket, archiveSource());
  store.putBucketCors(bucket, DEMO_CORS);
}

function seedUploads(store: Store, ownerId: string): void {
  const bucket = DEMO_BUCKETS.uploads;
  store.createBucket({ name: bucket, zone: 'sh1a', ownerId });
  store.putObject(bucket, 'videos/intro.webm', { body: introWebm(), metadata: meta({ 'content-type': 'video/webm' }, { title: 'Intro' }) });
  store.putObject(bucket, 'videos/', { body: new Uint8Array(0) });

  const gaps = store.initiateMultipartUpload(bucket, 'videos/holiday-4k.mp4', {
    metadata: meta({ 'content-type': 'video/mp4' }, { camera: 'QingCam X100' }),
  });
  for (const n of [1, 2, 5]) store.uploadPart(bucket, 'videos/holiday-4k.mp4', gaps.uploadId, n, { body: pseudoBytes(64, 500 + n) });

  const tiny = store.initiateMultipartUpload(bucket, 'backups/db-dump.sql', { metadata: meta({ 'content-type': 'application/sql' }) });
  for (let n = 1; n <= DEMO_TINY_PARTS; n++) {
    store.uploadPart(bucket, 'backups/db-dump.sql', tiny.uploadId, n, { body: text(`-- part ${String(n).padStart(7, '0')}\n`) });
  }

  store.initiateMultipartUpload(bucket, 'backups/empty-start.bin', {});
  store.putBucketCors(bucket, DEMO_CORS);
}

/**
 * Seeds the demo data set. `users[0]` owns every bucket; `users[1]`, when present, gets READ on
 * demo-documents so the ACL editor has a grant to show.
 */
export function seedDemo(store: Store, users: readonly MockUser[]): void {
  const owner = ownerOf(users);
  seedPhotos(store, owner.id);
  seedDocuments(store, owner.id, users[1]);
  seedPublic(store, owner.id);
  seedArchive(store, owner.id);
  seedUploads(store, owner.id);
}

/**
 * The `empty` seed: no buckets at all (users still exist and can create buckets). Kept as a function so
 * adapters can pick a seed by name without special cases.
 */
export function seedEmpty(): void {
  // A new Store has no buckets, so there is nothing to add.
}

export type SeedName = 'demo' | 'empty';

export function applySeed(seed: SeedName, store: Store, users: readonly MockUser[]): void {
  if (seed === 'demo') seedDemo(store, users);
  else seedEmpty();
}
