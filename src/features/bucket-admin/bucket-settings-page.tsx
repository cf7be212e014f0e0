import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useId, useState, type FormEvent } from 'react';
import { bucketAclQuery, putBucketAclMutation } from '../../api/acl/queries.ts';
import { bucketStatisticsQuery, deleteBucketMutation } from '../../api/buckets/queries.ts';
import { bucketCorsQuery, deleteBucketCorsMutation, putBucketCorsMutation } from '../../api/cors/queries.ts';
import { buildCorsRule, mergeCorsRules } from '../../api/cors/rule.ts';
import type { CorsRule } from '../../api/cors/schemas.ts';
import { ApiError } from '../../api/errors.ts';
import { bucketPolicyQuery } from '../../api/policy/queries.ts';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Banner } from '../../components/ui/banner.tsx';
import { KeyValueList } from '../../components/ui/key-value.tsx';
import { Crumbs } from '../../components/ui/crumbs.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { TypedConfirm } from '../../components/ui/typed-confirm.tsx';
import { bucketPath } from '../../hooks/browse-location.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { useNavigate, useParams } from '../../lib/router.tsx';
import { isPublicRead, withPublicRead } from '../../api/acl/public-read.ts';
import { EMPTY_RULE_FORM, RULE_METHODS, ruleFromForm, sameRule, type RuleForm, type RuleProblems } from './cors-model.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './bucket-admin.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/admin.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/buckets.ts';

interface Ref {
  zone: string;
  bucket: string;
}

/** /buckets/<zone>/<bucket>/settings: statistics, public read (ACL), CORS rules, policy, delete. */
export function BucketSettingsPage() {
  const { t } = useI18n();
  const params = useParams();
  const ref: Ref = { zone: params['zone'] ?? '', bucket: params['bucket'] ?? '' };
  return (
    <div className="settings">
      <PageHeader
        title={t('admin.settings.title', { bucket: ref.bucket })}
        crumbs={
          <Crumbs
            label={t('admin.settings.crumbs')}
            items={[
              { id: 'buckets', label: t('buckets.title'), to: '/' },
              { id: 'bucket', label: ref.bucket, to: bucketPath(ref.zone, ref.bucket), title: t('admin.settings.back', { bucket: ref.bucket }), detail: `(${ref.zone})` },
            ]}
          />
        }
      />
      <StatisticsSection {...ref} />
      <AccessSection {...ref} />
      <CorsSection {...ref} />
      <PolicySection {...ref} />
      <DeleteBucketSection {...ref} />
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function corsHelp(ref: Ref) {
  return <CorsHelp bucket={{ zone: ref.zone, name: ref.bucket }} />;
}

function StatisticsSection(ref: Ref) {
  const { t, formatNumber, formatDateTime } = useI18n();
  const client = useClient();
  const stats = useQuery(bucketStatisticsQuery(client, ref));
  return (
    <Section title={t('admin.stats.title')}>
      {stats.isPending ? <Loading label={t('app.loading')} /> : null}
      {stats.isError ? <ErrorNotice error={stats.error} onRetry={() => void stats.refetch()} corsHelp={corsHelp(ref)} /> : null}
      {stats.data ? (
        <div data-testid="bucket-stats">
          <KeyValueList
            label={t('admin.stats.title')}
            items={[
              { key: 'count', label: t('admin.stats.count'), value: formatNumber(stats.data.count) },
              { key: 'size', label: t('admin.stats.size'), value: t('admin.stats.sizeValue', { size: formatBytes(stats.data.size), bytes: stats.data.size }) },
              { key: 'zone', label: t('admin.stats.zone'), value: stats.data.location ?? ref.zone },
              ...(stats.data.created ? [{ key: 'created', label: t('admin.stats.created'), value: formatDateTime(new Date(stats.data.created)) }] : []),
            ]}
          />
        </div>
      ) : null}
      <p className="admin-hint">{t('admin.stats.hint')}</p>
    </Section>
  );
}

function AccessSection(ref: Ref) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const acl = useQuery(bucketAclQuery(client, ref));
  const put = useMutation(putBucketAclMutation(client, queryClient));
  const [asking, setAsking] = useState(false);
  const isPublic = acl.data ? isPublicRead(acl.data.acl) : false;
  const write = (on: boolean) => {
    if (!acl.data) return;
    put.mutate({ ...ref, acl: withPublicRead(acl.data.acl, on) }, { onSettled: () => setAsking(false) });
  };
  return (
    <Section title={t('admin.access.title')}>
      {acl.isPending ? <Loading label={t('app.loading')} /> : null}
      {acl.isError ? <ErrorNotice error={acl.error} onRetry={() => void acl.refetch()} corsHelp={corsHelp(ref)} /> : null}
      {acl.data ? (
        <>
          <p data-testid="public-read-state" className="settings__state">
            {isPublic ? <Badge tone="public">{t('buckets.public')}</Badge> : null}
            <strong>{isPublic ? t('admin.access.publicOn') : t('admin.access.publicOff')}</strong>
          </p>
          <p className="admin-hint">{t('admin.access.hint')}</p>
          <div className="admin-actions">
            {isPublic ? (
              <Button disabled={put.isPending} onClick={() => write(false)}>
                {t('admin.access.turnOff')}
              </Button>
            ) : (
              <Button disabled={put.isPending} onClick={() => {
                put.reset();
                setAsking(true);
              }}>
                {t('admin.access.turnOn')}
              </Button>
            )}
          </div>
        </>
      ) : null}
      {put.isError && !asking ? <ErrorNotice error={put.error} corsHelp={corsHelp(ref)} /> : null}
      {put.isSuccess ? <output className="admin-status">{t('admin.saved')}</output> : null}
      <Dialog open={asking} onClose={() => setAsking(false)} title={t('admin.access.confirmTitle', { bucket: ref.bucket })}>
        {put.isError ? <ErrorNotice error={put.error} corsHelp={corsHelp(ref)} /> : null}
        <TypedConfirm
          consequence={<p>{t('admin.access.confirmConsequence')}</p>}
          phrase={ref.bucket}
          confirmLabel={t('admin.access.confirmButton')}
          busy={put.isPending}
          onConfirm={() => write(true)}
          onCancel={() => setAsking(false)}
        />
      </Dialog>
    </Section>
  );
}

function CorsSection(ref: Ref) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const cors = useQuery(bucketCorsQuery(client, ref));
  const put = useMutation(putBucketCorsMutation(client, queryClient));
  const clear = useMutation(deleteBucketCorsMutation(client, queryClient));
  const origin = globalThis.location?.origin ?? '';
  const suggestion = buildCorsRule(origin);
  const rules: CorsRule[] = cors.data?.cors_rules ?? [];
  const hasSuggestion = rules.some((r) => sameRule(r, suggestion));
  const busy = put.isPending || clear.isPending;

  const save = (next: CorsRule[]) => {
    clear.reset();
    put.reset();
    if (next.length === 0) clear.mutate(ref);
    else put.mutate({ ...ref, config: { cors_rules: next } });
  };
  const lastWrite = put.isSuccess ? put.data.requestId : clear.isSuccess ? clear.data.requestId : null;

  return (
    <Section title={t('admin.cors.title')}>
      <p className="admin-hint">{t('admin.cors.hint')}</p>
      {cors.isPending ? <Loading label={t('app.loading')} /> : null}
      {cors.isError ? <ErrorNotice error={cors.error} onRetry={() => void cors.refetch()} corsHelp={corsHelp(ref)} /> : null}
      {cors.data ? (
        <>
          <DataTable
            label={t('admin.cors.title')}
            count={t('admin.cors.caption', { count: rules.length })}
            rows={rules.map((rule, index) => ({ rule, index }))}
            // Rules have no id; their position is what PUT ?cors replaces (the list is replaced as a whole).
            rowKey={({ index }) => String(index)}
            empty={<EmptyState title={t('admin.cors.none')} />}
            columns={[
              { id: 'origin', header: t('admin.cors.origin'), rowHeader: true, renderCell: ({ rule }) => <code>{rule.allowed_origin}</code> },
              { id: 'methods', header: t('admin.cors.methods'), renderCell: ({ rule }) => <Tokens items={rule.allowed_methods} /> },
              { id: 'allowed', header: t('admin.cors.allowedHeaders'), renderCell: ({ rule }) => <Tokens items={rule.allowed_headers ?? []} /> },
              { id: 'expose', header: t('admin.cors.exposeHeaders'), renderCell: ({ rule }) => <Tokens items={rule.expose_headers ?? []} /> },
              { id: 'maxAge', header: t('admin.cors.maxAge'), align: 'end', renderCell: ({ rule }) => rule.max_age_seconds ?? t('common.none') },
              {
                id: 'actions',
                header: <span className="visually-hidden">{t('admin.cors.actions')}</span>,
                align: 'end',
                renderCell: ({ rule, index }) => (
                  <Button size="sm" variant="quiet" disabled={busy} aria-label={t('admin.cors.removeLabel', { origin: rule.allowed_origin, n: index + 1 })} onClick={() => save(rules.filter((_, i) => i !== index))}>
                    {t('admin.cors.remove')}
                  </Button>
                ),
              },
            ]}
          />
          <Banner
            tone={hasSuggestion ? 'ok' : 'info'}
            title={t('admin.cors.suggestTitle')}
            actions={hasSuggestion ? null : (
              <Button variant="primary" disabled={busy} onClick={() => save(mergeCorsRules(rules, suggestion))}>
                {t('admin.cors.suggestApply')}
              </Button>
            )}
          >
            <p>{hasSuggestion ? t('admin.cors.suggestPresent') : t('admin.cors.suggestText', { origin })}</p>
          </Banner>
          <RuleEditor disabled={busy} onAdd={(rule) => save([...rules, rule])} />
        </>
      ) : null}
      {put.isError ? <ErrorNotice error={put.error} corsHelp={corsHelp(ref)} /> : null}
      {clear.isError ? <ErrorNotice error={clear.error} corsHelp={corsHelp(ref)} /> : null}
      {lastWrite !== null ? (
        <output className="admin-status">
          {t('admin.saved')}
        </output>
      ) : null}
    </Section>
  );
}

function RuleEditor({ disabled, onAdd }: { disabled: boolean; onAdd: (rule: CorsRule) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [form, setForm] = useState<RuleForm>(EMPTY_RULE_FORM);
  const [problems, setProblems] = useState<RuleProblems>({});
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = ruleFromForm(form);
    if ('problems' in result) {
      setProblems(result.problems);
      return;
    }
    setProblems({});
    onAdd(result.rule);
    setForm(EMPTY_RULE_FORM);
  };
  const field = (name: 'origin' | 'allowedHeaders' | 'exposeHeaders' | 'maxAge', label: string, hint?: string) => {
    const problem = problems[name];
    const fid = `${id}-${name}`;
    return (
      <div className="field">
        <label htmlFor={fid}>{label}</label>
        <input
          id={fid}
          value={form[name]}
          onChange={(e) => setForm({ ...form, [name]: e.target.value })}
          spellCheck={false}
          autoComplete="off"
          inputMode={name === 'maxAge' ? 'numeric' : undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={[hint ? `${fid}-h` : '', problem ? `${fid}-e` : ''].filter(Boolean).join(' ') || undefined}
        />
        {hint ? <p id={`${fid}-h`} className="field-hint">{hint}</p> : null}
        {problem ? <p id={`${fid}-e`} className="field-error">{t(problem)}</p> : null}
      </div>
    );
  };
  return (
    <form className="admin-form" onSubmit={onSubmit} noValidate aria-label={t('admin.cors.addTitle')}>
      <h3>{t('admin.cors.addTitle')}</h3>
      {field('origin', t('admin.cors.origin'), t('admin.cors.originHint'))}
      <fieldset aria-describedby={problems.methods ? `${id}-methods-e` : undefined}>
        <legend>{t('admin.cors.methods')}</legend>
        {RULE_METHODS.map((method) => (
          <label key={method}>
            <input
              type="checkbox"
              checked={form.methods.includes(method)}
              onChange={(e) => setForm({ ...form, methods: e.target.checked ? [...form.methods, method] : form.methods.filter((m) => m !== method) })}
            />
            {method}
          </label>
        ))}
        {problems.methods ? <p id={`${id}-methods-e`} className="field-error">{t(problems.methods)}</p> : null}
      </fieldset>
      {field('allowedHeaders', t('admin.cors.allowedHeaders'), t('admin.cors.listHint'))}
      {field('exposeHeaders', t('admin.cors.exposeHeaders'), t('admin.cors.listHint'))}
      {field('maxAge', t('admin.cors.maxAge'))}
      <div className="admin-actions">
        <Button type="submit" disabled={disabled}>{t('admin.cors.add')}</Button>
      </div>
    </form>
  );
}

/** A list of header names or methods: the line breaks between them, never inside one (x-qs-request-id stays whole). */
function Tokens({ items }: { items: readonly string[] }) {
  const { t } = useI18n();
  if (items.length === 0) return t('common.none');
  // The separator stays outside the unbreakable name: the line may break after its space.
  return items.map((item, i) => (
    <Fragment key={item}>
      <span className="cors-token">{item}</span>
      {i < items.length - 1 ? ', ' : ''}
    </Fragment>
  ));
}

function PolicySection(ref: Ref) {
  const { t } = useI18n();
  const client = useClient();
  const policy = useQuery(bucketPolicyQuery(client, ref));
  return (
    <Section title={t('admin.policy.title')}>
      {policy.isPending ? <Loading label={t('app.loading')} /> : null}
      {policy.isError ? <ErrorNotice error={policy.error} onRetry={() => void policy.refetch()} corsHelp={corsHelp(ref)} /> : null}
      {policy.data ? (
        policy.data.statement.length === 0 ? (
          <EmptyState title={t('admin.policy.none')} />
        ) : (
          <>
            <p className="admin-hint">{t('admin.policy.count', { count: policy.data.statement.length })}</p>
            <pre data-testid="bucket-policy">{JSON.stringify(policy.data, null, 2)}</pre>
          </>
        )
      ) : null}
      <p className="admin-hint">{t('admin.policy.hint')}</p>
    </Section>
  );
}

function DeleteBucketSection(ref: Ref) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [run, setRun] = useState(0);
  const remove = useMutation(deleteBucketMutation(client, queryClient));
  const stats = useQuery(bucketStatisticsQuery(client, ref));
  const notEmpty = remove.error instanceof ApiError && remove.error.code === 'bucket_not_empty';
  return (
    <Section title={t('admin.delete.title')}>
      <p className="admin-hint">{t('admin.delete.hint')}</p>
      <div className="admin-actions">
        <Button onClick={() => {
          remove.reset();
          setRun((n) => n + 1);
          setOpen(true);
        }}>
          {t('admin.delete.button', { bucket: ref.bucket })}
        </Button>
      </div>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('admin.delete.dialogTitle', { bucket: ref.bucket })}>
        {notEmpty ? (
          <>
            <Banner tone="danger">
              <p>
                {stats.data && !stats.isFetching
                  ? t('admin.delete.notEmptyCount', { bucket: ref.bucket, count: stats.data.count })
                  : t('admin.delete.notEmpty', { bucket: ref.bucket })}
              </p>
            </Banner>
          </>
        ) : (
          <>
            {remove.isError ? <ErrorNotice error={remove.error} corsHelp={corsHelp(ref)} /> : null}
            <TypedConfirm
              key={run}
              consequence={<p>{t('admin.delete.confirm', { bucket: ref.bucket })}</p>}
              phrase={ref.bucket}
              confirmLabel={remove.isPending ? t('admin.delete.deleting') : t('admin.delete.confirmButton')}
              busy={remove.isPending}
              onConfirm={() => remove.mutate(ref, {
                onSuccess: () => navigate('/'),
                // The figures shown may predate writes by other tools: say how many objects there are now.
                onError: () => void stats.refetch(),
              })}
              onCancel={() => setOpen(false)}
            />
          </>
        )}
      </Dialog>
    </Section>
  );
}
