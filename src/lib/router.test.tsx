// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createBrowserHistory,
  createMemoryHistory,
  isSameOriginPath,
  Link,
  matchPath,
  Navigate,
  parsePath,
  RouterProvider,
  Routes,
  useLocation,
  useNavigate,
  useNavigationBlocker,
  useParams,
  type History,
  type NavigationBlocker,
  type RouteDefinition,
} from './router.tsx';

afterEach(cleanup);

describe('parsePath', () => {
  it('splits path, search and hash without touching their encoding', () => {
    expect(parsePath('/buckets/pek3a/b?prefix=a%2Fb%20c&object=%E4%B8%AD#x')).toEqual({
      pathname: '/buckets/pek3a/b',
      search: '?prefix=a%2Fb%20c&object=%E4%B8%AD',
      hash: '#x',
    });
    expect(parsePath('?edit=1')).toEqual({ pathname: '/', search: '?edit=1', hash: '' });
    expect(parsePath('/a?#')).toEqual({ pathname: '/a', search: '', hash: '' });
    // A '?' inside the hash belongs to the hash.
    expect(parsePath('/a#b?c')).toEqual({ pathname: '/a', search: '', hash: '#b?c' });
  });
});

describe('matchPath', () => {
  it('matches static and param segments, decodes params, ignores a trailing slash and the case of static parts', () => {
    expect(matchPath('/buckets/:zone/:bucket', '/buckets/pek3a/my-bucket')).toEqual({ zone: 'pek3a', bucket: 'my-bucket' });
    expect(matchPath('/buckets/:zone/:bucket', '/buckets/pek3a/a%20b')).toEqual({ zone: 'pek3a', bucket: 'a b' });
    expect(matchPath('/connect', '/connect/')).toEqual({});
    expect(matchPath('/connect', '/Connect')).toEqual({});
    expect(matchPath('/', '/')).toEqual({});
  });

  it('refuses paths of another length or with another static segment; * matches anything', () => {
    expect(matchPath('/buckets/:zone/:bucket', '/buckets/pek3a')).toBeNull();
    expect(matchPath('/buckets/:zone/:bucket', '/buckets/pek3a/b/uploads')).toBeNull();
    expect(matchPath('/buckets/:zone/:bucket/uploads', '/buckets/pek3a/b/parts')).toBeNull();
    expect(matchPath('/', '/connect')).toBeNull();
    expect(matchPath('*', '/anything/at/all')).toEqual({});
  });

  it('keeps a malformed escape as it is instead of throwing', () => {
    expect(matchPath('/b/:name', '/b/100%')).toEqual({ name: '100%' });
  });
});

function Where() {
  const location = useLocation();
  const params = useParams();
  return (
    <p data-testid="where">
      {location.pathname}
      {location.search}
      {location.hash}|{JSON.stringify(params)}
    </p>
  );
}

function Controls() {
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => navigate('/buckets/gd2/two?prefix=x%2F')}>push</button>
      <button type="button" onClick={() => navigate('/connect', { replace: true })}>replace</button>
      <button type="button" onClick={() => navigate({ search: '?edit=1' })}>search only</button>
      <button type="button" onClick={() => navigate('uploads?limit=10')}>relative</button>
    </>
  );
}

const routes: RouteDefinition[] = [
  { path: '/connect', Component: () => <h1>Connect</h1> },
  { path: '/buckets/:zone/:bucket', Component: Where },
  { path: '/buckets/:zone/:bucket/uploads', Component: () => <h1>Uploads</h1> },
  { path: '/old', Component: () => <Navigate to="/connect" replace /> },
  { path: '*', Component: () => <h1>Not found</h1> },
];

function renderAt(history: History) {
  render(
    <RouterProvider history={history}>
      <Controls />
      <Link to="/buckets/pek3a/one?object=a%3Cb">to one</Link>
      <Routes routes={routes} />
    </RouterProvider>,
  );
}

describe('RouterProvider, Routes, navigate and Link (memory history)', () => {
  it('renders the first matching route with its params, and the fallback when nothing else matches', () => {
    renderAt(createMemoryHistory('/buckets/pek3a/one?prefix=a%2F'));
    expect(screen.getByTestId('where').textContent).toBe('/buckets/pek3a/one?prefix=a%2F|{"zone":"pek3a","bucket":"one"}');
    act(() => screen.getByRole('button', { name: 'push' }).click());
    expect(screen.getByTestId('where').textContent).toBe('/buckets/gd2/two?prefix=x%2F|{"zone":"gd2","bucket":"two"}');
    cleanup();
    renderAt(createMemoryHistory('/no/such/page'));
    expect(screen.getByRole('heading', { name: 'Not found' })).toBeDefined();
  });

  it('pushes, replaces, changes only the search, and resolves a relative path against the current one', () => {
    const history = createMemoryHistory('/buckets/pek3a/one');
    renderAt(history);
    act(() => screen.getByRole('button', { name: 'search only' }).click());
    expect(screen.getByTestId('where').textContent).toBe('/buckets/pek3a/one?edit=1|{"zone":"pek3a","bucket":"one"}');
    act(() => screen.getByRole('button', { name: 'push' }).click());
    act(() => screen.getByRole('button', { name: 'replace' }).click());
    expect(screen.getByRole('heading', { name: 'Connect' })).toBeDefined();
    expect(history.entries).toEqual(['/buckets/pek3a/one', '/buckets/pek3a/one?edit=1', '/connect']);
    act(() => history.push('/buckets/pek3a/b/'));
    act(() => screen.getByRole('button', { name: 'relative' }).click());
    expect(screen.getByRole('heading', { name: 'Uploads' })).toBeDefined();
    expect(history.entries.at(-1)).toBe('/buckets/pek3a/b/uploads?limit=10');
  });

  it('Navigate replaces the entry it was rendered for', () => {
    const history = createMemoryHistory('/old');
    renderAt(history);
    expect(screen.getByRole('heading', { name: 'Connect' })).toBeDefined();
    expect(history.entries).toEqual(['/connect']);
  });

  it('a Link is a real href; a plain click navigates in the app, a modified click is left to the browser', () => {
    const history = createMemoryHistory('/connect');
    renderAt(history);
    const link = screen.getByRole('link', { name: 'to one' });
    expect(link.getAttribute('href')).toBe('/buckets/pek3a/one?object=a%3Cb');
    // Record whether the app took the click over, then stop jsdom from following the href itself.
    const takenOver: boolean[] = [];
    const record = (event: Event) => {
      takenOver.push(event.defaultPrevented);
      event.preventDefault();
    };
    window.addEventListener('click', record);
    for (const modifier of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) fireEvent.click(link, modifier);
    expect(takenOver).toEqual([false, false, false, false, false]);
    expect(history.entries).toEqual(['/connect']);
    fireEvent.click(link);
    window.removeEventListener('click', record);
    expect(takenOver.at(-1)).toBe(true);
    expect(history.entries).toEqual(['/connect', '/buckets/pek3a/one?object=a%3Cb']);
    expect(screen.getByTestId('where').textContent).toBe('/buckets/pek3a/one?object=a%3Cb|{"zone":"pek3a","bucket":"one"}');
  });
});

describe('navigation never leaves the origin', () => {
  function Go({ to }: { to: string }) {
    const navigate = useNavigate();
    return (
      <button type="button" onClick={() => navigate(to)}>
        go
      </button>
    );
  }

  it.each(['//evil.example/x', '/\t/evil.example/', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '../../..//evil.example', '/\n\\evil.example'])(
    'navigate(%j) goes home in the browser, without an uncaught SecurityError',
    (to) => {
      window.history.replaceState(null, '', '/buckets/pek3a/one');
      const history = createBrowserHistory(window);
      render(
        <RouterProvider history={history}>
          <Go to={to} />
          <Routes routes={[{ path: '/', Component: () => <h1>Home</h1> }, ...routes]} />
        </RouterProvider>,
      );
      act(() => screen.getByRole('button', { name: 'go' }).click());
      const origin = window.location.origin;
      expect(origin).not.toContain('evil');
      expect(window.location.pathname).toBe('/');
      expect(screen.getByRole('heading', { name: 'Home' })).toBeDefined();
    },
  );

  it('isSameOriginPath accepts plain paths only', () => {
    expect(isSameOriginPath('/buckets/pek3a/b?prefix=a%2F#x')).toBe(true);
    // A backslash or a tab in the query is no way out.
    expect(isSameOriginPath('/buckets/pek3a/b?prefix=a\\b\t')).toBe(true);
    for (const bad of ['//x', '/\\x', '/\t/x', 'x', 'https://x/', '', '/..//x']) expect(isSameOriginPath(bad)).toBe(false);
  });
});

describe('createBrowserHistory', () => {
  it('writes the address bar and follows back/forward (popstate)', () => {
    window.history.replaceState(null, '', '/connect');
    const history = createBrowserHistory(window);
    renderAt(history);
    expect(screen.getByRole('heading', { name: 'Connect' })).toBeDefined();
    act(() => screen.getByRole('button', { name: 'push' }).click());
    expect(window.location.pathname + window.location.search).toBe('/buckets/gd2/two?prefix=x%2F');
    expect(screen.getByTestId('where').textContent).toBe('/buckets/gd2/two?prefix=x%2F|{"zone":"gd2","bucket":"two"}');
    // What the browser does on Back: the address changes first, then popstate fires.
    act(() => {
      window.history.replaceState(null, '', '/connect');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.getByRole('heading', { name: 'Connect' })).toBeDefined();
    expect(history.location()).toEqual({ pathname: '/connect', search: '', hash: '' });
  });

  it('stops listening to popstate once nothing is subscribed', () => {
    window.history.replaceState(null, '', '/connect');
    const history = createBrowserHistory(window);
    const unsubscribe = history.subscribe(() => undefined);
    unsubscribe();
    window.history.replaceState(null, '', '/elsewhere');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(history.location().pathname).toBe('/connect');
  });
});

describe('navigation blocker', () => {
  function Guarded({ blocker }: { blocker: NavigationBlocker }) {
    useNavigationBlocker(blocker);
    const navigate = useNavigate();
    const location = useLocation();
    return (
      <>
        <output data-testid="at">{location.pathname}</output>
        <button type="button" onClick={() => navigate('/elsewhere')}>go</button>
      </>
    );
  }

  it('asks before in-app navigation and back/forward while it blocks; proceeds when the user lets it', () => {
    window.history.replaceState(null, '', '/here');
    const history = createBrowserHistory(window);
    let blocking = true;
    const asked: Array<() => void> = [];
    const blocker: NavigationBlocker = { blocks: () => blocking, ask: (proceed) => asked.push(proceed) };
    render(
      <RouterProvider history={history}>
        <Guarded blocker={blocker} />
      </RouterProvider>,
    );
    act(() => screen.getByRole('button', { name: 'go' }).click());
    expect(asked).toHaveLength(1);
    expect(screen.getByTestId('at').textContent).toBe('/here');
    // Back: the address changed before popstate; a blocked one is put back.
    act(() => {
      window.history.replaceState(null, '', '/before');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(asked).toHaveLength(2);
    expect(window.location.pathname).toBe('/here');
    expect(screen.getByTestId('at').textContent).toBe('/here');
    act(() => asked[1]?.());
    expect(screen.getByTestId('at').textContent).toBe('/before');
    blocking = false;
    act(() => screen.getByRole('button', { name: 'go' }).click());
    expect(asked).toHaveLength(2);
    expect(screen.getByTestId('at').textContent).toBe('/elsewhere');
  });
});
