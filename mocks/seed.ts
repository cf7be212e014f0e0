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
  const photos: Array<[string, number, string]> = [
    ['photos/2024/06/beach.jpg', 4096, 'image/jpeg'],
    ['photos/2024/06/sunset.jpg', 6144, 'image/jpeg'],
    ['photos/2024/06/街景.png', 3072, 'image/png'],
    ['photos/2025/01/snow.webp', 2048, 'image/webp'],
    ['photos/2025/01/new year 🎆.jpg', 5120, 'image/jpeg'],
    ['albums/family/reunion.gif', 1024, 'image/gif'],
    ['cover.svg', 512, 'image/svg+xml'],
  ];
  photos.forEach(([key, size, type], i) => {
    store.putObject(bucket, key, {
      body: pseudoBytes(size, 1000 + i),
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

/** A 240×160 bar chart (PNG) and a one-page PDF: real files, so the console's Preview tab has something to show. */
const SAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAPAAAACgCAIAAAC9uXYyAAACXklEQVR42u3dsa2FMBBFQecUScNOiYhoAiFHVECGsdkdafOjfz16+hnlvJpzYa6YwAHtHNDOAe0c0A5o54B2DmjngHYOaAe0c0A7B7RzQDsHtJvjlrW+fkA7oJ0D2jmgHdBAO6CBdkA7B7RzQDuggXZAA+2Adg5o54B2QAM97dAOaKDtDDTQQBsaaKANDTTQQNsZaKDtDDTQQBsa6ACgt/1Ifj2Gtuqonf1C+4X2L4ehgQYaaDsDDbSdgQYaaEMDDbShgQYaaDsDDbSdgQYaaEMnAD3q7wUaaKCBBhpooIEGGmiggfbAQAMNNNBAAw000EADDTTQQHtgoIEGGmiggQYaaKCBBhpooFMNbWeggbYz0EADbWiggTY00EADbWeggbYz0EADbWiggTY00EADbWeggbYz0EADbWig/wza9wKzfacw9s5+of1C+5fD0EADDbSdgQbazkADDbShdYEGWhdoD6wLtAfWBdoDAw20LtBA6wLtgXWB9sC6QOsCDbQu0EDrAu2BdYH2wLpA66YFbWhdoA2tC7SuLtC6ukDrAm1oXaANrQu0ri7QurpA6wJtaF2gDa0LtK4u0Lq6QOsCbWhdoA2tC7SuLtC6uo/fKewR9v083W+6fqF1/cthaF2gPbAu0Lq6QOsCbWhdoA2tC7QH1gVaVxdoXaANrQu0oXWB9sC6QOvqAq0LtKF1gTa0LtC6ukDr6gKtC7ShdYE2tC7QurpA6+oCrQu0oXWBNrQu0Lq6QOvqAq0LtKF1gTa0LtC6ukDr6gKtC7ShdYE2tC7QurpA6/pOoe/n6cbp3jS/XpBXWwpcAAAAAElFTkSuQmCC';
const SAMPLE_PDF = `%PDF-1.4
1 0 obj
<< /Type /Catalog /Pages 2 0 R >>
endobj
2 0 obj
<< /Type /Pages /Kids [3 0 R] /Count 1 >>
endobj
3 0 obj
<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>
endobj
4 0 obj
<< /Length 96 >>
stream
BT /F1 18 Tf 24 96 Td (Quarterly summary) Tj /F1 12 Tf 0 -28 Td (Demo PDF for the preview) Tj ET
endstream
endobj
5 0 obj
<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>
endobj
xref
0 6
0000000000 65535 f 
0000000009 00000 n 
0000000058 00000 n 
0000000115 00000 n 
0000000241 00000 n 
0000000387 00000 n 
trailer
<< /Size 6 /Root 1 0 R >>
startxref
457
%%EOF
`;

/** A quarter of a second of a 440 Hz tone: 8 kHz, 8-bit mono PCM WAV (2,044 bytes). */
function sampleWav(): Uint8Array {
  const rate = 8000;
  const samples = rate / 4;
  const out = new Uint8Array(44 + samples);
  const view = new DataView(out.buffer);
  const ascii = (at: number, tag: string) => [...tag].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true); // bytes per second
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, samples, true);
  for (let i = 0; i < samples; i += 1) out[44 + i] = 128 + Math.round(40 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return out;
}

/** `samples/`: one object of each previewable kind, and a name that hides its type behind U+202E. */
function seedSamples(store: Store, bucket: string): void {
  store.putObject(bucket, 'samples/chart.png', {
    body: Uint8Array.from(atob(SAMPLE_PNG), (c) => c.charCodeAt(0)),
    metadata: meta({ 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' }, { title: encodeRfc2047B('Quarterly revenue (€)'), source: 'demo' }),
  });
  store.putObject(bucket, 'samples/tone.wav', { body: sampleWav(), metadata: meta({ 'content-type': 'audio/wav' }) });
  store.putObject(bucket, 'samples/summary.pdf', { body: text(SAMPLE_PDF), metadata: meta({ 'content-type': 'application/pdf' }) });
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
    body: pseudoBytes(8192, 7),
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
  store.putObject(bucket, 'assets/logo.png', { body: pseudoBytes(1500, 3), metadata: meta({ 'content-type': 'image/png', 'cache-control': 'public, max-age=31536000' }) });
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
  store.putObject(bucket, 'videos/intro.mp4', { body: pseudoBytes(4096, 11), metadata: meta({ 'content-type': 'video/mp4; charset=utf8' }) });
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
