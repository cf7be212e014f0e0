import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { DestinationPicker, type PickedFolder } from './destination-picker.tsx';
import type { KeyProblem } from './keys.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/picker.ts';

/** `text` with `name` (a bucket/key) in it kept whole on its line: the line breaks before it, not at its hyphens. */
function WholeName({ text, name }: { text: string; name: string }) {
  const at = text.indexOf(name);
  if (at === -1) return text;
  return (
    <>
      {text.slice(0, at)}
      <span className="whole-name">{name}</span>
      {text.slice(at + name.length)}
    </>
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
      <Button ref={button} size="sm" className="picker__browse" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('picker.browse')}
      </Button>
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

/**
 * The destination of a copy or a move: its bucket (typed, or browsed to with the picker beside it) and its
 * key, with the key's rule broken as the field's error and, while the key is good, where it will be written.
 */
export function DestinationFields({ zone, bucket, setBucket, destKey: key, setKey, problem }: {
  zone: string;
  bucket: string;
  setBucket: (v: string) => void;
  destKey: string;
  setKey: (v: string) => void;
  problem: KeyProblem | null;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field
        label={t('actions.destBucket')}
        aside={
          <BrowseDestination
            zone={zone}
            initial={{ bucket, prefix: folderOf(key) }}
            onPick={(picked) => {
              setBucket(picked.bucket);
              // The name stays; the folder is the one chosen.
              setKey(`${picked.prefix}${key.slice(folderOf(key).length)}`);
            }}
          />
        }
      >
        {(control) => <input {...control} value={bucket} onChange={(e) => setBucket(e.target.value)} spellCheck={false} autoComplete="off" />}
      </Field>
      <Field
        label={t('actions.destKey')}
        error={problem ? t(`actions.keyProblem.${problem}`) : undefined}
        notice={
          !problem && bucket !== '' ? (
            <span data-testid="final-destination" dir="auto">
              <WholeName text={t('picker.finalKey', { location: `${bucket}/${key}` })} name={`${bucket}/${key}`} />
            </span>
          ) : undefined
        }
      >
        {(control) => <input {...control} value={key} onChange={(e) => setKey(e.target.value)} dir="auto" spellCheck={false} autoComplete="off" />}
      </Field>
    </>
  );
}
