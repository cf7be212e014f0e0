import Ellipsis from 'lucide-react/icons/ellipsis';
import FolderOpen from 'lucide-react/icons/folder-open';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import SearchX from 'lucide-react/icons/search-x';
import Settings from 'lucide-react/icons/settings';
import Upload from 'lucide-react/icons/upload';
import { useState, type ReactNode } from 'react';
import { Dialog } from '../../components/dialog.tsx';
import { toast } from '../../components/toast.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Banner } from '../../components/ui/banner.tsx';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { DataTable, type SortState } from '../../components/ui/data-table.tsx';
import { useTableWindow } from '../../components/ui/data-table-window.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Field } from '../../components/ui/field.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { KeyValueList } from '../../components/ui/key-value.tsx';
import { Menu } from '../../components/ui/menu.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { ProgressBar } from '../../components/ui/progress.tsx';
import { SidePanel } from '../../components/ui/side-panel.tsx';
import { Status } from '../../components/ui/status.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { TypedConfirm } from '../../components/ui/typed-confirm.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { samples, type Samples } from './samples.ts';

interface Row {
  name: string;
  zone: string;
  public: boolean;
  created: string;
}

const ROWS: readonly Row[] = [
  { name: 'demo-documents', zone: 'pek3a', public: false, created: '2024-03-02' },
  { name: 'demo-photos', zone: 'pek3a', public: true, created: '2024-03-05' },
  { name: 'demo-uploads', zone: 'sh1a', public: false, created: '2024-04-11' },
];

function Specimen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="catalogue__specimen">
      <h2 className="catalogue__name">{title}</h2>
      <div className="catalogue__body">{children}</div>
    </section>
  );
}

export function CatalogueSections({ scheme }: { scheme: 'light' | 'dark' }) {
  const { locale } = useI18n();
  const s = samples(locale);
  return (
    <>
      <Specimen title="PageHeader">
        <PageHeader
          level={2}
          title={s.pageTitle}
          count={s.count}
          actions={
            <>
              <IconButton label={s.refresh} icon={<RefreshCw aria-hidden="true" size={16} />} bordered />
              <Button variant="primary">{s.create}</Button>
            </>
          }
        />
      </Specimen>
      <Specimen title="Button · ActionRow">
        <div className="catalogue__row">
          <Button variant="primary">{s.save}</Button>
          <Button>{s.cancel}</Button>
          <Button variant="quiet">{s.clear}</Button>
          <Button variant="danger">{s.delete}</Button>
          <Button variant="primary" disabled>
            {s.save}
          </Button>
          <Button size="sm" icon={<Upload aria-hidden="true" size={14} />}>
            {s.upload}
          </Button>
        </div>
        <ActionRow>
          <Button>{s.cancel}</Button>
          <Button variant="primary">{s.save}</Button>
        </ActionRow>
      </Specimen>
      <Specimen title="IconButton (tooltip)">
        <div className="catalogue__row catalogue__row--tips">
          <IconButton label={s.settings} icon={<Settings aria-hidden="true" size={16} />} bordered tipSide="start" data-tip-shown="" />
          <IconButton label={s.refresh} icon={<RefreshCw aria-hidden="true" size={16} />} />
        </div>
      </Specimen>
      <Specimen title="Badge · Status">
        <div className="catalogue__row">
          <Badge tone="public">{s.public}</Badge>
          <Badge tone="demo">{s.demo}</Badge>
          <Badge>{s.zone}</Badge>
        </div>
        <div className="catalogue__row">
          <Status tone="busy">{s.uploading}</Status>
          <Status tone="ok">{s.done}</Status>
          <Status tone="danger">{s.failed}</Status>
          <Status tone="neutral">{s.waiting}</Status>
          <Status tone="warn">{s.paused}</Status>
        </div>
      </Specimen>
      <Specimen title="ProgressBar">
        <ProgressBar label={s.progress} value={0.62} />
        <ProgressBar label={s.progress} value={1} tone="ok" />
        <ProgressBar label={s.progress} />
      </Specimen>
      <Specimen title="KeyValueList">
        <KeyValueList
          items={[
            { key: 'size', label: s.size, value: '41 B' },
            { key: 'type', label: s.type, value: 'text/markdown' },
            { key: 'modified', label: s.modified, value: '2024-03-02 10:41' },
            { key: 'etag', label: s.etag, value: '"9b2cf535f27731c974343645a3985328"', mono: true },
          ]}
        />
      </Specimen>
      <Specimen title="EmptyState">
        <EmptyState icon={<FolderOpen size={28} />} title={s.emptyTitle} body={s.emptyBody} action={<Button variant="primary">{s.upload}</Button>} />
        <EmptyState icon={<SearchX size={28} />} title={s.noMatchTitle} body={s.noMatchBody} action={<Button>{s.clear}</Button>} />
      </Specimen>
      <Specimen title="Banner">
        <Banner tone="warn" title={s.bannerTitle} actions={<Button size="sm">{s.makePrivate}</Button>}>
          <p>{s.bannerBody}</p>
        </Banner>
        <Banner tone="danger" title={s.errorTitle} actions={<Button size="sm">{s.reload}</Button>}>
          <p>{s.errorBody}</p>
        </Banner>
      </Specimen>
      <Specimen title="Toast">
        <div className="toast toast--success catalogue__toast">
          <p className="toast__message">{s.saved}</p>
          <button type="button" className="button button--small toast__action">
            {s.undo}
          </button>
        </div>
        <Button onClick={() => toast(s.saved, { action: { label: s.undo, run: () => toast(s.done) } })}>{s.showToast}</Button>
      </Specimen>
      <Specimen title="Field">
        <Field label={s.fieldLabel} description={s.fieldDescription} constraint={s.fieldRule}>
          {(control) => <input {...control} defaultValue="public, max-age=3600" />}
        </Field>
        <Field label={s.fieldLabel} description={s.fieldDescription} constraint={s.fieldRule} error={s.fieldError}>
          {(control) => <input {...control} defaultValue="max-age=3600 ✓" />}
        </Field>
      </Specimen>
      <Specimen title="DataTable">
        <TableSpecimen s={s} />
      </Specimen>
      <Specimen title="DataTable (virtual, 5,000 rows)">
        <VirtualTableSpecimen s={s} />
      </Specimen>
      <Specimen title="Tabs · SidePanel">
        <PanelSpecimen s={s} />
      </Specimen>
      <Specimen title="Menu">
        <Menu
          label={s.more}
          trigger={<IconButton label={s.more} icon={<Ellipsis aria-hidden="true" size={16} />} bordered />}
          items={[
            { id: 'download', label: s.menuDownload, onSelect: () => {} },
            { id: 'copy', label: s.menuCopy, onSelect: () => {} },
            { id: 'move', label: s.menuMove, onSelect: () => {} },
            { id: 'delete', label: s.menuDelete, danger: true, onSelect: () => {} },
          ]}
        />
      </Specimen>
      <Specimen title="Dialog · TypedConfirm">
        <DialogSpecimen s={s} scheme={scheme} />
      </Specimen>
    </>
  );
}

function TableSpecimen({ s }: { s: Samples }) {
  const [sort, setSort] = useState<SortState>({ column: 'name', direction: 'ascending' });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set(['demo-photos']));
  const rows = [...ROWS].sort((a, b) => (sort.direction === 'ascending' ? 1 : -1) * a.name.localeCompare(b.name));
  return (
    <DataTable
      label={s.pageTitle}
      title={s.pageTitle}
      count={s.count}
      actions={<Button variant="primary" size="sm">{s.create}</Button>}
      columns={[
        { id: 'name', header: s.name, renderCell: (row) => row.name, sortable: true, rowHeader: true },
        { id: 'zone', header: s.zoneHeader, renderCell: (row) => row.zone, width: '6rem' },
        { id: 'access', header: s.access, renderCell: (row) => (row.public ? <Badge tone="public">{s.public}</Badge> : s.private), width: '7rem' },
        { id: 'created', header: s.created, renderCell: (row) => row.created, align: 'end', width: '8rem' },
      ]}
      rows={rows}
      rowKey={(row) => row.name}
      sort={sort}
      onSort={setSort}
      selection={{ selected, onChange: setSelected }}
      empty={<EmptyState title={s.emptyTitle} />}
    />
  );
}

const MANY = Array.from({ length: 5_000 }, (_, i) => ({ key: `logs/2024/01/event-${String(i).padStart(4, '0')}.json`, size: 120 + ((i * 37) % 900) }));

function VirtualTableSpecimen({ s }: { s: Samples }) {
  const window = useTableWindow(MANY);
  return (
    <DataTable
      label={s.name}
      count="5,000"
      columns={[
        { id: 'key', header: s.name, rowHeader: true, renderCell: (row) => row.key },
        { id: 'size', header: s.size, align: 'end', width: '6rem', renderCell: (row) => `${row.size} B` },
      ]}
      rows={MANY}
      rowKey={(row) => row.key}
      window={window}
      empty={<EmptyState title={s.emptyTitle} />}
    />
  );
}

function PanelSpecimen({ s }: { s: Samples }) {
  const [tab, setTab] = useState<'overview' | 'metadata' | 'preview'>('overview');
  return (
    <SidePanel
      label={s.panelTitle}
      className="catalogue__panel"
      header={
        <>
          <strong>{s.panelTitle}</strong>
          <IconButton label={s.cancel} icon={<span aria-hidden="true">×</span>} className="dialog__close" />
        </>
      }
    >
      <Tabs
        label={s.panelTitle}
        tabs={[
          { id: 'overview', label: s.tabOverview },
          { id: 'metadata', label: s.tabMetadata },
          { id: 'preview', label: s.tabPreview },
        ]}
        selected={tab}
        onSelect={setTab}
        shown={new Set([tab])}
        render={() => <KeyValueList items={[{ key: 'size', label: s.size, value: '41 B' }, { key: 'type', label: s.type, value: 'text/markdown' }]} />}
      />
    </SidePanel>
  );
}

function DialogSpecimen({ s, scheme }: { s: Samples; scheme: 'light' | 'dark' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="dialog catalogue__dialog">
        <div className="dialog__header">
          <h3>{s.dialogTitle}</h3>
        </div>
        <div className="dialog__body">
          <TypedConfirm consequence={<p>{s.dialogBody}</p>} phrase="demo-photos" confirmLabel={s.dialogConfirm} tone="danger" onConfirm={() => {}} onCancel={() => {}} autoFocus={false} />
        </div>
      </div>
      <Button onClick={() => setOpen(true)}>{s.dialogOpen}</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={s.dialogTitle}>
        <div className={`theme-${scheme}`}>
          <TypedConfirm consequence={<p>{s.dialogBody}</p>} phrase="demo-photos" confirmLabel={s.dialogConfirm} onConfirm={() => setOpen(false)} onCancel={() => setOpen(false)} />
        </div>
      </Dialog>
    </>
  );
}
