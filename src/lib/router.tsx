/**
 * The console's router: the URL is the navigation state (zone, bucket, prefix, object, page live in it), so
 * all a view needs is the current location, the params of its path pattern, and a way to go elsewhere.
 *
 * Why not a routing library: the console has five routes, no loaders or actions, and reads its search
 * parameters with its own parsers (hooks/browse-location.ts, features/in-progress-uploads/location.ts). React Router
 * cost about 28 KiB of gzip on every screen for that, a fifth of the 150 KiB budget; this file is ~1.5 KiB.
 *
 * What it keeps of the usual contract:
 * - a history (the browser's, or an in-memory one for tests) that components subscribe to;
 * - `Link` renders a real `<a href>`; a plain left click navigates in the app, a modified click (new tab,
 *   new window, download) is left to the browser;
 * - `navigate(to, { replace })` pushes or replaces; `to` may be a path or `{ search }` on the current path;
 * - back/forward (popstate) re-render; path params are percent-decoded; static segments match
 *   case-insensitively and a trailing slash is ignored.
 */
import {
  createContext,
  use,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
}

export interface NavigateOptions {
  replace?: boolean | undefined;
}

/** A path (`/buckets/pek3a/b?prefix=a%2F`) or parts to change on the current path (`{ search: '?edit=1' }`). */
export type To = string | { pathname?: string; search?: string; hash?: string };

export interface History {
  /** The current location; the same object until it changes. */
  location(): Location;
  push(path: string): void;
  replace(path: string): void;
  subscribe(listener: () => void): () => void;
}

/** Splits `/a/b?x=1#h` into its parts, without normalising any encoding. */
export function parsePath(path: string): Location {
  let rest = path;
  let hash = '';
  let search = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  return { pathname: rest || '/', search: search === '?' ? '' : search, hash: hash === '#' ? '' : hash };
}

function samePlace(a: Location, b: Location): boolean {
  return a.pathname === b.pathname && a.search === b.search && a.hash === b.hash;
}

function createListeners() {
  const listeners = new Set<() => void>();
  return {
    add(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(): void {
      for (const listener of [...listeners]) listener();
    },
    get size() {
      return listeners.size;
    },
  };
}

/**
 * Something that must be asked before the location changes (unsaved edits). `blocks()` says whether it
 * holds right now; `ask(proceed)` asks the user and calls `proceed` if they let the navigation happen.
 */
export interface NavigationBlocker {
  blocks(): boolean;
  ask(proceed: () => void): void;
}

let activeBlocker: NavigationBlocker | null = null;

function blockingNow(): NavigationBlocker | null {
  return activeBlocker?.blocks() ? activeBlocker : null;
}

/** While mounted (and `blocker.blocks()`), in-app navigation and back/forward ask `blocker` first. */
export function useNavigationBlocker(blocker: NavigationBlocker): void {
  useEffect(() => {
    activeBlocker = blocker;
    return () => {
      if (activeBlocker === blocker) activeBlocker = null;
    };
  }, [blocker]);
}

function pathOf(location: Location): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** The browser's history: pushState/replaceState, and popstate for back/forward. */
export function createBrowserHistory(win: Window = window): History {
  const read = (): Location => ({ pathname: win.location.pathname, search: win.location.search, hash: win.location.hash });
  let current = read();
  const listeners = createListeners();
  const sync = () => {
    const next = read();
    if (samePlace(next, current)) return;
    current = next;
    listeners.notify();
  };
  // Back/forward has already changed the URL when popstate fires: a blocked one is put back, and redone
  // (as a new entry) if the user lets it happen.
  const onPop = () => {
    const next = read();
    const blocker = samePlace(next, current) ? null : blockingNow();
    if (blocker) {
      const target = pathOf(next);
      win.history.pushState(null, '', pathOf(current));
      blocker.ask(() => {
        win.history.pushState(null, '', target);
        sync();
      });
      return;
    }
    sync();
  };
  return {
    location: () => current,
    push(path) {
      win.history.pushState(null, '', path);
      sync();
    },
    replace(path) {
      win.history.replaceState(null, '', path);
      sync();
    },
    subscribe(listener) {
      if (listeners.size === 0) win.addEventListener('popstate', onPop);
      const remove = listeners.add(listener);
      // Back/forward may have happened between the first render and this subscription.
      sync();
      return () => {
        remove();
        if (listeners.size === 0) win.removeEventListener('popstate', onPop);
      };
    },
  };
}

/** An in-memory history for component tests; `entries` are the paths visited so far. */
export function createMemoryHistory(initial = '/'): History & { entries: string[] } {
  let current = parsePath(initial);
  const entries = [initial];
  const listeners = createListeners();
  const go = (path: string, replace: boolean) => {
    if (replace) entries[entries.length - 1] = path;
    else entries.push(path);
    const next = parsePath(path);
    if (samePlace(next, current)) return;
    current = next;
    listeners.notify();
  };
  return {
    entries,
    location: () => current,
    push: (path) => go(path, false),
    replace: (path) => go(path, true),
    subscribe: (listener) => listeners.add(listener),
  };
}

/** Percent-decodes `value`; a malformed escape leaves it as it is. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export type Params = Readonly<Record<string, string>>;

/**
 * Matches `pathname` against a pattern such as `/buckets/:zone/:bucket`; `*` matches any path. Returns the
 * decoded params, or null.
 */
export function matchPath(pattern: string, pathname: string): Params | null {
  if (pattern === '*') return {};
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const segment = want[i] ?? '';
    const actual = have[i] ?? '';
    if (segment.startsWith(':')) params[segment.slice(1)] = safeDecode(actual);
    else if (segment.toLowerCase() !== safeDecode(actual).toLowerCase()) return null;
  }
  return params;
}

export interface RouteDefinition {
  path: string;
  Component: ComponentType;
}

interface RouterValue {
  location: Location;
  navigate: (to: To, options?: NavigateOptions) => void;
}

const RouterContext = createContext<RouterValue | null>(null);
const ParamsContext = createContext<Params>({});

function useRouter(): RouterValue {
  const value = use(RouterContext);
  if (!value) throw new Error('Router hooks need a <RouterProvider> above them');
  return value;
}

const PLACEHOLDER_ORIGIN = 'http://console.invalid';


/**
 * True when `path` is an absolute path on the page's own origin, as the browser will read it: judged by the
 * same URL parser pushState uses, because it drops tabs and newlines and reads `\` as `/`, so `/\t/evil.example/`
 * or `/\\evil.example` name another host (and pushState would throw). A path that would start with `//` is
 * refused too.
 */
export function isSameOriginPath(path: string): boolean {
  if (!path.startsWith('/')) return false;
  let url: URL;
  try {
    url = new URL(path, PLACEHOLDER_ORIGIN);
  } catch {
    return false;
  }
  return url.origin === PLACEHOLDER_ORIGIN && !url.pathname.startsWith('//');
}

/**
 * Resolves `to` against the location current at call time (not at render time). Anything that would leave
 * the console's origin resolves to the home page instead: in-app navigation never goes elsewhere.
 */
function resolve(to: To, here: Location): string {
  let path: string;
  if (typeof to !== 'string') {
    path = `${to.pathname ?? here.pathname}${to.search ?? ''}${to.hash ?? ''}`;
  } else if (to.startsWith('/')) {
    path = to;
  } else {
    let url: URL | null = null;
    try {
      url = new URL(to, `${PLACEHOLDER_ORIGIN}${here.pathname}${here.search}`);
    } catch {
      url = null;
    }
    path = url && url.origin === PLACEHOLDER_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : '/';
  }
  return isSameOriginPath(path) ? path : '/';
}

export function RouterProvider({ history, children }: { history: History; children: ReactNode }) {
  const location = useSyncExternalStore(history.subscribe, history.location, history.location);
  const navigate = useMemo(
    () => (to: To, options?: NavigateOptions) => {
      const path = resolve(to, history.location());
      const go = () => {
        if (options?.replace) history.replace(path);
        else history.push(path);
      };
      const blocker = blockingNow();
      if (blocker) blocker.ask(go);
      else go();
    },
    [history],
  );
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** Renders the first route whose pattern matches the current path (use `*` last for "not found"). */
export function Routes({ routes }: { routes: readonly RouteDefinition[] }) {
  const { location } = useRouter();
  for (const route of routes) {
    const params = matchPath(route.path, location.pathname);
    if (params) {
      const { Component } = route;
      return (
        <ParamsContext value={params}>
          <Component />
        </ParamsContext>
      );
    }
  }
  return null;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigate(): RouterValue['navigate'] {
  return useRouter().navigate;
}

export function useParams(): Params {
  return use(ParamsContext);
}

/** Navigates once rendered (a redirect decided during render). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
};

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** A real link: `href` for the browser (new tab, copy link), in-app navigation on a plain click. */
export function Link({ to, replace, onClick, children, ...rest }: LinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainLeftClick(event)) return;
        if ((rest.target && rest.target !== '_self') || rest.download !== undefined) return;
        event.preventDefault();
        navigate(to, { replace });
      }}
    >
      {children}
    </a>
  );
}
