// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/errors.ts';
import { ensureLocale, I18nProvider } from '../i18n/i18n.tsx';

beforeAll(() => ensureLocale('zh-CN'));
import { ErrorNotice } from './error-notice.tsx';

const info = { operation: 'ListObjects', method: 'GET', requestUrl: 'https://pek3a.qingstor.com/bucket' };

describe('ErrorNotice', () => {
  it('shows the QingStor code, a plain explanation, the request id with a copy button, and the server message as text', () => {
    const error = new ApiError({
      ...info, status: 404, code: 'bucket_not_exists', message: '<b>gone</b>', requestId: 'aa08cf7a43f611e5', url: '', fromBody: true,
    });
    render(
      <I18nProvider locale="en">
        <ErrorNotice error={error} />
      </I18nProvider>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('bucket_not_exists');
    expect(alert.textContent).toContain('This bucket does not exist');
    expect(screen.getByTestId('request-id').textContent).toBe('aa08cf7a43f611e5');
    expect(screen.getByRole('button', { name: 'Copy request ID' })).toBeTruthy();
    expect(alert.textContent).toContain('<b>gone</b>');
    expect(alert.querySelector('b')).toBeNull();
  });

  it('explains an unknown code and a body-less status in Chinese', () => {
    const error = new ApiError({ ...info, status: 418, code: 'http_418', message: 'x', requestId: '', url: '', fromBody: false });
    render(
      <I18nProvider locale="zh-CN">
        <ErrorNotice error={error} />
      </I18nProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('服务返回 HTTP 状态 418');
    expect(screen.getByRole('alert').textContent).toContain('响应中没有请求 ID');
  });

  it('offers the CORS help only for a likely CORS block', () => {
    const cors = new NetworkError({ ...info, pageOrigin: 'http://127.0.0.1:4173', cause: new TypeError('Failed to fetch') });
    const { unmount } = render(
      <I18nProvider locale="en">
        <ErrorNotice error={cors} corsHelp={<button type="button">cors help</button>} />
      </I18nProvider>,
    );
    expect(screen.getByRole('button', { name: 'cors help' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('missing CORS rule');
    unmount();
    const plain = new NetworkError({ ...info, pageOrigin: 'https://pek3a.qingstor.com', cause: new TypeError('x') });
    render(
      <I18nProvider locale="en">
        <ErrorNotice error={plain} corsHelp={<button type="button">cors help</button>} />
      </I18nProvider>,
    );
    expect(screen.queryByRole('button', { name: 'cors help' })).toBeNull();
  });
});
