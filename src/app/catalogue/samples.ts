import type { Locale } from '../../i18n/i18n.tsx';

/**
 * The catalogue's sample content (development builds only, never in the production bundle): names, sizes and
 * sentences of the kind the console's screens show, in both languages, so each component is seen with real
 * lengths of English and Chinese text.
 */
const EN = {
    title: 'Component catalogue', note: 'Every component of the console, as each screen uses it. Development builds only.',
    pageTitle: 'Buckets', count: '7 buckets', create: 'Create bucket', search: 'Search buckets',
    cancel: 'Cancel', save: 'Save', delete: 'Delete bucket…', more: 'More actions', settings: 'Bucket settings', refresh: 'Refresh',
    public: 'Public', demo: 'Demo data', zone: 'pek3a', zoneHeader: 'Zone',
    uploading: 'Uploading', done: 'Done', failed: 'Failed', waiting: 'Waiting', paused: 'Paused',
    size: 'Size', modified: 'Last modified', type: 'Type', etag: 'ETag', name: 'Name', created: 'Created', access: 'Access', private: 'Private',
    progress: 'Upload progress of report-2024.pdf',
    emptyTitle: 'This folder is empty', emptyBody: 'Drop files here or upload them to add objects to reports/.', upload: 'Upload files',
    noMatchTitle: 'No objects match “rep”', noMatchBody: 'Nothing in this folder has a name containing “rep”.', clear: 'Clear filter',
    bannerTitle: 'This bucket is public', bannerBody: 'Anyone on the internet can list and download its objects.', makePrivate: 'Make private',
    errorTitle: 'The object could not be saved', errorBody: 'Someone changed it while you were editing. Reload to see their version.', reload: 'Reload',
    saved: 'Saved metadata of readme.md.', undo: 'Undo', showToast: 'Show a toast',
    fieldLabel: 'Cache-Control', fieldDescription: 'How long browsers and CDNs may keep a copy before asking again.',
    fieldRule: 'Printable ASCII, at most 1,024 characters.', fieldError: 'Use only printable ASCII characters.',
    panelTitle: 'readme.md', tabOverview: 'Overview', tabMetadata: 'Metadata', tabPreview: 'Preview',
    dialogOpen: 'Make public…', dialogTitle: 'Make demo-photos public?',
    dialogBody: 'Anyone who knows the bucket’s name will be able to list and download every object in it. Nothing asks them for a key.',
    dialogConfirm: 'Make public', menuCopy: 'Copy…', menuMove: 'Move…', menuDownload: 'Download', menuDelete: 'Delete…',
};

export type Samples = Readonly<Record<keyof typeof EN, string>>;

const ZH: Samples = {
    title: '组件目录', note: '控制台的全部组件，与各页面中的用法相同。仅在开发构建中提供。',
    pageTitle: '存储空间', count: '7 个存储空间', create: '创建存储空间', search: '搜索存储空间',
    cancel: '取消', save: '保存', delete: '删除存储空间…', more: '更多操作', settings: '存储空间设置', refresh: '刷新',
    public: '公开', demo: '演示数据', zone: 'pek3a', zoneHeader: '区域',
    uploading: '上传中', done: '已完成', failed: '失败', waiting: '等待中', paused: '已暂停',
    size: '大小', modified: '修改时间', type: '类型', etag: 'ETag', name: '名称', created: '创建时间', access: '访问权限', private: '私有',
    progress: 'report-2024.pdf 的上传进度',
    emptyTitle: '此文件夹为空', emptyBody: '把文件拖到这里，或上传文件，即可向 reports/ 添加对象。', upload: '上传文件',
    noMatchTitle: '没有名称包含“rep”的对象', noMatchBody: '此文件夹中没有名称包含“rep”的对象。', clear: '清除筛选',
    bannerTitle: '此存储空间是公开的', bannerBody: '互联网上的任何人都可以列出并下载其中的对象。', makePrivate: '设为私有',
    errorTitle: '未能保存对象', errorBody: '在你编辑期间有人修改了它。重新加载即可看到对方的版本。', reload: '重新加载',
    saved: '已保存 readme.md 的元数据。', undo: '撤销', showToast: '显示通知',
    fieldLabel: 'Cache-Control', fieldDescription: '浏览器和 CDN 在再次询问前可以保留副本多长时间。',
    fieldRule: '可打印 ASCII 字符，最多 1,024 个。', fieldError: '只能使用可打印的 ASCII 字符。',
    panelTitle: 'readme.md', tabOverview: '概览', tabMetadata: '元数据', tabPreview: '预览',
    dialogOpen: '设为公开…', dialogTitle: '将 demo-photos 设为公开？',
    dialogBody: '任何知道存储空间名称的人都能列出并下载其中的每个对象，无需任何密钥。',
    dialogConfirm: '设为公开', menuCopy: '复制…', menuMove: '移动…', menuDownload: '下载', menuDelete: '删除…',
};

export function samples(locale: Locale): Samples {
  return locale === 'en' ? EN : ZH;
}
