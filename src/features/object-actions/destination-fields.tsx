import { useId, useRef, useState } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';
import { DestinationPicker, type PickedFolder } from './destination-picker.tsx';
import type { KeyProblem } from './keys.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/picker.ts';

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

export function DestinationFields({ zone, bucket, setBucket, destKey: key, setKey, problem }: {
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

