import type { ReactNode } from 'react';
import { visibleText } from '../../lib/visible-text.ts';
import { Crumbs } from '../../components/ui/crumbs.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { browseHref } from '../../hooks/browse-location.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { lazyView } from '../../components/lazy-view.tsx';
import { partsLimitOf, uploadsHref, useUploadsLocation } from './location.ts';
import type { ResumeContext } from './upload-detail.tsx';
import { UploadsList } from './uploads-list.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './multipart.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

export type { ResumeContext } from './upload-detail.tsx';

/**
 * One upload's view (parts table, totals, Complete/Abort) loads with its own chunk: the list of uploads,
 * the screen most visits start on, does not carry the virtualized parts table.
 */
const UploadDetail = lazyView(() => import('./upload-detail.tsx').then((module) => module.UploadDetail));

/**
 * The multipart inspector: a bucket's in-progress uploads, and for one upload its parts page by page,
 * totals over all pages, a part map, and Complete / Abort / Resume. The app passes `renderResume`
 * (the uploads feature's resume-from-file control); features do not import each other.
 */
export function MultipartInspector({ renderResume }: { renderResume?: (context: ResumeContext) => ReactNode }) {
  const { t } = useI18n();
  const location = useUploadsLocation();
  const { zone, bucket, prefix, upload, key } = location;
  const inUpload = upload !== null && key !== null;
  return (
    <div className="inspector">
      <PageHeader
        title={t('multipart.title', { bucket })}
        crumbs={
          <Crumbs
            label={t('multipart.crumbs')}
            items={[
              { id: 'buckets', label: t('multipart.crumbBuckets'), to: '/' },
              { id: 'bucket', label: visibleText(bucket), to: browseHref({ zone, bucket }), title: t('multipart.backToBucket', { bucket }), detail: `(${zone})` },
              inUpload ? { id: 'uploads', label: t('multipart.crumbUploads'), to: uploadsHref({ zone, bucket, prefix }) } : { id: 'uploads', label: t('multipart.crumbUploads') },
              ...(inUpload ? [{ id: 'upload', label: visibleText(key) }] : []),
            ]}
          />
        }
      />
      {upload !== null && key !== null ? (
        <UploadDetail
          key={`${key}\u0000${upload}`}
          zone={zone}
          bucket={bucket}
          objectKey={key}
          uploadId={upload}
          limit={partsLimitOf(location)}
          after={location.after}
          prefix={prefix}
          renderResume={renderResume}
        />
      ) : (
        <UploadsList zone={zone} bucket={bucket} prefix={prefix} />
      )}
    </div>
  );
}
