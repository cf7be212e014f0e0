import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ObjectMetadata } from '../../api/metadata/model.ts';
import type { ObjectHead } from '../../api/objects/operations.ts';
import { getObject, getObjectUrl } from '../../api/objects/operations.ts';
import { copyObjectMutation, deleteObjectMutation, headObjectQuery, moveObjectMutation } from '../../api/objects/queries.ts';
import type { QsClient } from '../../api/client.ts';
import { Dialog, useDialogClose } from '../../components/dialog.tsx';
import { useUnsavedGuard } from '../../components/unsaved-guard.tsx';
import { describeError, ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { toast } from '../../components/toast.tsx';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { checkDestination, type DestinationState } from './destination.ts';
import { DestinationPicker, type PickedFolder } from './destination-picker.tsx';
import { copyKeyFor, destinationKeyProblem, type KeyProblem } from './keys.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/picker.ts';
import { visibleText } from '../../lib/visible-text.ts';

/** A metadata form for a REPLACE copy, supplied by the app (the metadata feature owns the fields). */
export type ReplaceMetadataRenderer = (props: {
  /** The object being copied, as its HEAD read it (the form decides what it can safely resend). */
  source: { zone: string; bucket: string; head: ObjectHead };
  initial: ObjectMetadata;
  onChange: (metadata: ObjectMetadata | null) => void;
}) => ReactNode;

export interface ObjectActionsProps {
  zone: string;
  bucket: string;
  objectKey: string;
  head: ObjectHead;
  /** Show another object's details (after a copy/move), or close the panel (`null`, after delete). */
  onNavigate: (target: { bucket: string; key: string } | null) => void;
  renderReplaceMetadata?: ReplaceMetadataRenderer;
}

type Open = 'copy' | 'move' | 'delete' | null;

/** Copy, move/rename and delete for the object open in the details panel. */
export function ObjectActions(props: ObjectActionsProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  // Copy asks before Esc, Close or Cancel throws away a typed destination or REPLACE metadata edits.
  const guard = useUnsavedGuard(close);
  return (
    <section className="details__section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('actions.title')}</h3>
      <div className="inline-form__fields">
        <button type="button" className="button" onClick={() => setOpen('copy')}>
          {t('actions.copy')}
        </button>
        <button type="button" className="button" onClick={() => setOpen('move')}>
          {t('actions.move')}
        </button>
        <button type="button" className="button button--danger" onClick={() => setOpen('delete')}>
          {t('actions.delete')}
        </button>
      </div>
      <Dialog open={open === 'copy'} onClose={close} title={t('actions.copyTitle', { key: props.objectKey })} guard={guard}>
        <CopyForm {...props} onDone={close} onDirty={guard.setDirty} />
      </Dialog>
      <Dialog open={open === 'move'} onClose={close} title={t('actions.moveTitle', { key: props.objectKey })} guard={guard}>
        <MoveForm {...props} onDone={close} onDirty={guard.setDirty} />
      </Dialog>
      <Dialog open={open === 'delete'} onClose={close} title={t('actions.deleteTitle', { key: props.objectKey })}>
        <DeleteForm {...props} onCancel={close} />
      </Dialog>
    </section>
  );
}

function KeyProblemText({ id, problem }: { id: string; problem: KeyProblem | null }) {
  const { t } = useI18n();
  if (!problem) return null;
  return (
    <p id={id} className="field-error">
      {t(`actions.keyProblem.${problem}`)}
    </p>
  );
}

/** The folder a key is in ('' at the bucket's root). */
export function folderOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/') + 1);
}

/** "Browse…" beside a destination: opens the picker in place and hands back the bucket and folder chosen. */
export function BrowseDestination({ zone, initial, onPick }: { zone: string; initial: PickedFolder; onPick: (picked: PickedFolder) => void }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    // Back where the picker was opened from.
    requestAnimationFrame(() => button.current?.focus());
  };
  return (
    <>
      <button ref={button} type="button" className="button button--small picker__browse" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('picker.browse')}
      </button>
      {open ? (
        <DestinationPicker
          zone={zone}
          initial={initial}
          onCancel={close}
          onPick={(picked) => {
            onPick(picked);
            close();
          }}
        />
      ) : null}
    </>
  );
}

function DestinationFields({ zone, bucket, setBucket, destKey: key, setKey, problem }: {
  zone: string;
  bucket: string;
  setBucket: (v: string) => void;
  destKey: string;
  setKey: (v: string) => void;
  problem: KeyProblem | null;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-b`}>{t('actions.destBucket')}</label>
        <input id={`${id}-b`} value={bucket} onChange={(e) => setBucket(e.target.value)} spellCheck={false} autoComplete="off" />
      </div>
      <BrowseDestination
        zone={zone}
        initial={{ bucket, prefix: folderOf(key) }}
        onPick={(picked) => {
          setBucket(picked.bucket);
          // The name stays; the folder is the one chosen.
          setKey(`${picked.prefix}${key.slice(folderOf(key).length)}`);
        }}
      />
      <div className="field">
        <label htmlFor={`${id}-k`}>{t('actions.destKey')}</label>
        <input
          id={`${id}-k`}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          dir="auto"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-e` : `${id}-f`}
        />
        <KeyProblemText id={`${id}-e`} problem={problem} />
        {!problem && bucket !== '' ? (
          <p id={`${id}-f`} className="field-hint" data-testid="final-destination" dir="auto">
            {t('picker.finalKey', { location: `${bucket}/${key}` })}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** The destination check of one form: remembered for the destination it was made for. */
function useDestinationCheck(zone: string, bucket: string, key: string) {
  const client = useClient();
  const queryClient = useQueryClient();
  const target = JSON.stringify([bucket, key]);
  const [result, setResult] = useState<{ target: string; state: DestinationState } | null>(null);
  const [checking, setChecking] = useState(false);
  const check = async (): Promise<DestinationState> => {
    setChecking(true);
    try {
      const state = await checkDestination(client, queryClient, { zone, bucket, key });
      setResult({ target, state });
      return state;
    } finally {
      setChecking(false);
    }
  };
  return { state: result?.target === target ? result.state : null, checking, check };
}

/** Says what already stands at the destination and asks before replacing it. */
function DestinationNotice({ state, zone, bucket, destKey, pending, onReplace }: {
  state: DestinationState | null;
  zone: string;
  bucket: string;
  destKey: string;
  pending: boolean;
  onReplace: () => void;
}) {
  const i18n = useI18n();
  const { t, formatDateTime } = i18n;
  if (state?.kind === 'other-zone') {
    return (
      <p className="field-error" role="alert">
        {t('actions.otherZone', { bucket, bucketZone: state.bucketZone, zone })}
      </p>
    );
  }
  if (state?.kind === 'unknown') {
    return (
      <div className="notice notice--warn" role="alert" data-testid="overwrite-confirm">
        <p dir="auto">{t('picker.unknownDestination', { key: destKey, reason: describeError(state.error, i18n).explanation })}</p>
        <div className="notice__actions">
          <button type="button" className="button button--danger" onClick={onReplace} disabled={pending}>
            {t('picker.writeAnyway')}
          </button>
        </div>
      </div>
    );
  }
  if (state?.kind !== 'exists') return null;
  return (
    <div className="notice notice--warn" role="alert" data-testid="overwrite-confirm">
      <p>
        {t('actions.exists', {
          key: destKey,
          size: formatBytes(state.head.size),
          modified: state.head.lastModified ? formatDateTime(state.head.lastModified) : t('common.none'),
        })}
      </p>
      <div className="notice__actions">
        <button type="button" className="button button--danger" onClick={onReplace} disabled={pending}>
          {t('actions.replaceExisting')}
        </button>
      </div>
    </div>
  );
}

/** Reports `dirty` to the dialog's guard while the form shows, and clean once it goes. */
function useReportDirty(dirty: boolean, onDirty: (dirty: boolean) => void) {
  useEffect(() => {
    onDirty(dirty);
  }, [dirty, onDirty]);
  useEffect(() => () => onDirty(false), [onDirty]);
}

type FormProps = ObjectActionsProps & { onDone: () => void; onDirty: (dirty: boolean) => void };

function CopyForm({ zone, bucket, objectKey, head, onNavigate, renderReplaceMetadata, onDone: closeNow, onDirty }: FormProps) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const id = useId();
  const [destBucket, setDestBucket] = useState(bucket);
  const [destKey, setDestKey] = useState(() => copyKeyFor(objectKey));
  const [directive, setDirective] = useState<'COPY' | 'REPLACE'>('COPY');
  const [replacement, setReplacement] = useState<ObjectMetadata | null>(head.metadata);
  const [submitted, setSubmitted] = useState(false);
  const copy = useMutation(copyObjectMutation(client, queryClient));
  // Cancel inside the form closes the way Esc does: through the guard, which asks first.
  const onDone = useDialogClose() ?? closeNow;
  const edited = destBucket !== bucket || destKey !== copyKeyFor(objectKey) || (directive === 'REPLACE' && JSON.stringify(replacement) !== JSON.stringify(head.metadata));
  useReportDirty(edited && !copy.isSuccess, onDirty);
  const problem = destinationKeyProblem(destKey);
  const selfCopy = destBucket === bucket && destKey === objectKey && directive === 'COPY';
  const blocked = problem !== null || destBucket === '' || (directive === 'REPLACE' && replacement === null) || selfCopy;

  const destination = useDestinationCheck(zone, destBucket, destKey);
  const write = () =>
    copy.mutate(
      {
        zone,
        bucket: destBucket,
        key: destKey,
        source: { bucket, key: objectKey },
        directive,
        ...(directive === 'REPLACE' && replacement ? { metadata: replacement } : {}),
      },
      { onSuccess: (result) => toast(t('toast.copied', { location: `${destBucket}/${destKey}` }), { requestId: result.requestId }) },
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (blocked) return;
    // A copy onto its own key (REPLACE) rewrites that object on purpose: nothing to ask.
    if (destBucket === bucket && destKey === objectKey) {
      write();
      return;
    }
    if ((await destination.check()).kind === 'free') write();
  };

  if (copy.isSuccess) {
    return (
      <div>
        <output className="status-line">{t('actions.copied', { key: destKey })}</output>
        <p>
          {t('error.requestId')}: <code>{copy.data.requestId || t('common.none')}</code>
        </p>
        <div className="dialog__actions">
          <button type="button" className="button button--primary" onClick={() => { onDone(); onNavigate({ bucket: destBucket, key: destKey }); }}>
            {t('actions.openCopy')}
          </button>
          <button type="button" className="button" onClick={onDone}>
            {t('common.close')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="object-actions-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <DestinationFields zone={zone} bucket={destBucket} setBucket={setDestBucket} destKey={destKey} setKey={setDestKey} problem={submitted || destKey !== '' ? problem : null} />
      <fieldset>
        <legend>{t('actions.metadataChoice')}</legend>
        <label>
          <input type="radio" name={`${id}-dir`} checked={directive === 'COPY'} onChange={() => setDirective('COPY')} /> {t('actions.keepMetadata')}
        </label>
        <label>
          <input type="radio" name={`${id}-dir`} checked={directive === 'REPLACE'} onChange={() => setDirective('REPLACE')} /> {t('actions.replaceMetadata')}
        </label>
      </fieldset>
      {directive === 'REPLACE' && renderReplaceMetadata ? renderReplaceMetadata({ source: { zone, bucket, head }, initial: head.metadata, onChange: setReplacement }) : null}
      {selfCopy ? <p className="field-error">{t('actions.selfCopy')}</p> : null}
      <DestinationNotice state={destination.state} zone={zone} bucket={destBucket} destKey={destKey} pending={copy.isPending} onReplace={write} />
      {copy.isError ? <ErrorNotice error={copy.error} /> : null}
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={copy.isPending || destination.checking || (submitted && blocked)}>
          {copy.isPending ? t('actions.copying') : t('actions.copySubmit')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function MoveForm({ zone, bucket, objectKey, onNavigate, onDone: closeNow, onDirty }: FormProps) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const [destBucket, setDestBucket] = useState(bucket);
  const [destKey, setDestKey] = useState(objectKey);
  const [submitted, setSubmitted] = useState(false);
  const move = useMutation(moveObjectMutation(client, queryClient));
  // Cancel closes through the guard (it asks while a typed destination would be lost); a move that was
  // written closes at once.
  const onCancel = useDialogClose() ?? closeNow;
  const onDone = closeNow;
  useReportDirty((destBucket !== bucket || destKey !== objectKey) && !move.isSuccess, onDirty);
  const problem = destinationKeyProblem(destKey);
  const same = destBucket === bucket && destKey === objectKey;

  const destination = useDestinationCheck(zone, destBucket, destKey);
  const write = () =>
    move.mutate(
      { zone, bucket: destBucket, key: destKey, source: { bucket, key: objectKey } },
      {
        onSuccess: (result) => {
          // Written: nothing is left to lose, so the navigation to the moved object must not be asked about.
          onDirty(false);
          toast(t('toast.moved', { location: `${destBucket}/${destKey}` }), { requestId: result.requestId });
          onDone();
          onNavigate({ bucket: destBucket, key: destKey });
        },
      },
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem || same || destBucket === '') return;
    if ((await destination.check()).kind === 'free') write();
  };

  return (
    <form className="object-actions-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p className="field-hint">{t('actions.moveHint')}</p>
      <DestinationFields zone={zone} bucket={destBucket} setBucket={setDestBucket} destKey={destKey} setKey={setDestKey} problem={submitted || destKey !== '' ? problem : null} />
      {submitted && same ? <p className="field-error">{t('actions.moveSame')}</p> : null}
      <DestinationNotice state={destination.state} zone={zone} bucket={destBucket} destKey={destKey} pending={move.isPending} onReplace={write} />
      {move.isError ? <ErrorNotice error={move.error} /> : null}
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={move.isPending || destination.checking}>
          {move.isPending ? t('actions.moving') : t('actions.moveSubmit')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function DeleteForm({ zone, bucket, objectKey, onNavigate, onCancel }: Pick<ObjectActionsProps, 'zone' | 'bucket' | 'objectKey' | 'onNavigate'> & { onCancel: () => void }) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const remove = useMutation(deleteObjectMutation(client, queryClient));
  return (
    <div>
      <p>{t('actions.deleteConfirm')}</p>
      <p dir="auto" className="mono">
        {visibleText(objectKey)}
      </p>
      {remove.isError ? <ErrorNotice error={remove.error} /> : null}
      <div className="dialog__actions">
        <button
          type="button"
          className="button button--danger"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { zone, bucket, key: objectKey },
              {
                onSuccess: (result) => {
                  toast(t('toast.deletedKey', { key: `${bucket}/${objectKey}` }), { requestId: result.requestId });
                  onCancel();
                  onNavigate(null);
                },
              },
            )
          }
        >
          {t('actions.deleteConfirmButton')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}

/** An action on one object started outside the details panel (the table's row menu, the selection bar). */
export type ObjectAction = 'copy' | 'move' | 'delete';

/**
 * The copy, move or delete dialog of one object, open from the start; `onClose` when it closes. Copy and move
 * read the object's head first (the copy's metadata choice needs it).
 */
export function ObjectActionDialog({ action, zone, bucket, objectKey, onClose, onNavigate, renderReplaceMetadata }: {
  action: ObjectAction;
  zone: string;
  bucket: string;
  objectKey: string;
  onClose: () => void;
  onNavigate: ObjectActionsProps['onNavigate'];
  renderReplaceMetadata?: ReplaceMetadataRenderer | undefined;
}) {
  const { t } = useI18n();
  const title = t(action === 'copy' ? 'actions.copyTitle' : action === 'move' ? 'actions.moveTitle' : 'actions.deleteTitle', { key: objectKey });
  const guard = useUnsavedGuard(onClose);
  return (
    <Dialog open onClose={onClose} title={title} guard={guard}>
      {action === 'delete' ? (
        <DeleteForm zone={zone} bucket={bucket} objectKey={objectKey} onNavigate={onNavigate} onCancel={onClose} />
      ) : (
        <WithHead action={action} zone={zone} bucket={bucket} objectKey={objectKey} onClose={onClose} onDirty={guard.setDirty} onNavigate={onNavigate} renderReplaceMetadata={renderReplaceMetadata} />
      )}
    </Dialog>
  );
}

function WithHead({ action, zone, bucket, objectKey, onClose, onDirty, onNavigate, renderReplaceMetadata }: {
  action: 'copy' | 'move';
  zone: string;
  bucket: string;
  objectKey: string;
  onClose: () => void;
  onDirty: (dirty: boolean) => void;
  onNavigate: ObjectActionsProps['onNavigate'];
  renderReplaceMetadata?: ReplaceMetadataRenderer | undefined;
}) {
  const { t } = useI18n();
  const client = useClient();
  const head = useQuery(headObjectQuery(client, { zone, bucket, key: objectKey }));
  // Once read, the head stays: a move invalidates its source, whose refetch (404) must not replace the
  // form while the move's answer is being handled.
  if (!head.data) return head.isError ? <ErrorNotice error={head.error} onRetry={() => void head.refetch()} /> : <Loading label={t('app.loading')} />;
  const props = { zone, bucket, objectKey, head: head.data, onNavigate, ...(renderReplaceMetadata ? { renderReplaceMetadata } : {}) };
  return action === 'copy' ? <CopyForm {...props} onDone={onClose} onDirty={onDirty} /> : <MoveForm {...props} onDone={onClose} onDirty={onDirty} />;
}

/** Lifetime of the link behind a Download from the table: it is followed at once. */
const DOWNLOAD_LINK_SECONDS = 60;

/**
 * Downloads one object. Against an endpoint: a short-lived pre-signed link with an attachment disposition,
 * followed by a temporary link element (the browser saves the file; the console stays where it is). In the
 * demo the backend lives in this page's service worker and its host does not exist for the browser's
 * download manager, so the object is read through the worker and saved from a blob URL (demo objects are
 * small).
 */
export async function downloadObject(client: QsClient, ref: { zone: string; bucket: string; key: string }, demo: boolean): Promise<void> {
  const name = ref.key.slice(ref.key.lastIndexOf('/') + 1) || ref.key;
  const link = document.createElement('a');
  link.download = name;
  link.rel = 'noreferrer';
  link.hidden = true;
  let blobUrl: string | undefined;
  if (demo) {
    const { body } = await getObject(client, ref);
    blobUrl = URL.createObjectURL(body);
    link.href = blobUrl;
  } else {
    link.href = (await getObjectUrl(client, { ...ref, expiresIn: DOWNLOAD_LINK_SECONDS, downloadName: name })).href;
  }
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the time the click returns; the URL is let go a moment later.
  if (blobUrl !== undefined) setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
}

/** Starts one object's download when shown, then calls `onDone`; a link that cannot be made is said in a toast. */
export function DownloadObject({ zone, bucket, objectKey, onDone }: { zone: string; bucket: string; objectKey: string; onDone: () => void }) {
  const { t } = useI18n();
  const client = useClient();
  const demo = useConnectedSession().mode === 'demo';
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    downloadObject(client, { zone, bucket, key: objectKey }, demo)
      .catch(() => toast(t('menu.downloadFailed'), { tone: 'error' }))
      .finally(onDone);
  }, [client, zone, bucket, objectKey, onDone, t, demo]);
  return null;
}
