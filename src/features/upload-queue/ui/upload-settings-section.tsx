import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useI18n } from '../../../i18n/i18n.tsx';
import { MAX_CONCURRENCY, MAX_PART_CONCURRENCY, saveSettings, uploadSettingsSchema, type UploadSettings } from './settings.ts';
import type { UploadSession } from './upload-session.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';

/** The transfer settings (multipart threshold, part size, parallel files and parts), kept in this browser. */
export function SettingsSection({ session }: { session: UploadSession }) {
  const { t } = useI18n();
  const [saved, setSaved] = useState(false);
  const form = useForm<z.input<typeof uploadSettingsSchema>, unknown, UploadSettings>({
    resolver: zodResolver(uploadSettingsSchema),
    defaultValues: session.settings(),
  });
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), 2000);
    return () => clearTimeout(timer);
  }, [saved]);
  const ids = { threshold: useId(), part: useId(), concurrency: useId(), partConcurrency: useId() };
  const { errors } = form.formState;
  const field = (id: string, name: keyof UploadSettings, label: string, hint: string, min: number, max: number, step?: number) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={step ?? 1}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`${id}-hint${errors[name] ? ` ${id}-error` : ''}`}
        {...form.register(name)}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      {errors[name] ? (
        <p id={`${id}-error`} className="field-error">
          {t('uploads.settings.invalid', { min, max })}
        </p>
      ) : null}
    </div>
  );
  return (
    <details className="uploads__section">
      <summary>{t('uploads.settings')}</summary>
      <form
        noValidate
        onSubmit={(e) =>
          void form.handleSubmit((values) => {
            session.applySettings(values);
            saveSettings(values);
            setSaved(true);
          })(e)
        }
      >
        {field(ids.threshold, 'thresholdMb', t('uploads.settings.threshold'), t('uploads.settings.thresholdHint'), 1, 5_000_000, 0.1)}
        {field(ids.part, 'partSizeMib', t('uploads.settings.partSize'), t('uploads.settings.partSizeHint'), 4, 5120)}
        {field(ids.concurrency, 'concurrency', t('uploads.settings.concurrency'), t('uploads.settings.concurrencyHint'), 1, MAX_CONCURRENCY)}
        {field(ids.partConcurrency, 'partConcurrency', t('uploads.settings.partConcurrency'), t('uploads.settings.partConcurrencyHint'), 1, MAX_PART_CONCURRENCY)}
        <div className="notice__actions">
          <button type="submit" className="button">
            {t('uploads.settings.apply')}
          </button>
          {saved ? <output>{t('uploads.settings.saved')}</output> : null}
        </div>
      </form>
    </details>
  );
}
