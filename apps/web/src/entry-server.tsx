import {
  APPLICATION_LIST_MAX_LIMIT,
  type Account,
  type PublicConfig,
  type ServerRenderEntry,
} from '@portal/contracts';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { matchPath, StaticRouter } from 'react-router';
import { listApplicationsQueryOptions } from './api/applications/list-applications';
import { loadRouteCode, PortalRoutes, routeHandleOf } from './app/router';
import {
  seesUsageAlertNotices,
  usageAlertNoticesQueryOptions,
} from './features/usage-alerts/api/list-usage-alert-notices';
import { accountStateOf } from './lib/account';
import { FIRST_RENDER_SCRIPT_ID, FirstRenderContext, type FirstRenderData } from './lib/first-render';
import { decideGuard } from './lib/guard';
import { t } from './lib/i18n';

/**
 * The pages the portal server renders before any script runs (decision 026): where people arrive,
 * signed out and signed in. Every other page is rendered by the browser alone.
 */
const APPLICATION_LIST = '/apps/:sub';
const SERVER_RENDERED_PAGES = ['/login', '/signup', APPLICATION_LIST];

/** What the portal server calls of this module: the render interface both sides import. */
export const isServerRendered: ServerRenderEntry['isServerRendered'] = (pathname) =>
  SERVER_RENDERED_PAGES.some((pattern) => matchPath(pattern, pathname));

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let html = '';
  for await (const chunk of stream) html += typeof chunk === 'string' ? chunk : String(chunk);
  return html;
}

/**
 * The data as a script element that is never run. Every `<` is escaped (JSON allows `\u003c` in its
 * strings, the only place one can stand), so a value holding `</script>` or `<!--`, an application
 * name say, cannot end the element early.
 */
function dataScriptOf(data: FirstRenderData): string {
  const json = JSON.stringify(data).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${FIRST_RENDER_SCRIPT_ID}">${json}</script>`;
}

/**
 * The page's title goes in the document's head; React writes the `<title>` of a render that is not a
 * whole document where it stands, first, and the browser's render puts its own in the head.
 */
function withoutLeadingTitle(html: string): string {
  return html.startsWith('<title>') ? html.slice(html.indexOf('</title>') + '</title>'.length) : html;
}

/**
 * The page at `url` as HTML, from the same answers the browser would have asked for; undefined when
 * the page is not one the server renders, an answer is not what the page needs, or the route guard
 * would not show the page (a redirect, which the browser then makes).
 */
export const renderPage: ServerRenderEntry['renderPage'] = async (url, load) => {
  const { pathname, search } = new URL(url, 'http://portal');
  if (!isServerRendered(pathname)) return undefined;

  const [me, config] = await Promise.all([load('/api/v1/accounts/me'), load('/api/v1/config')]);
  if ((me.status !== 200 && me.status !== 401) || config.status !== 200) return undefined;
  const account = me.status === 200 ? (me.body as Account) : null;
  const data: FirstRenderData = { account, config: config.body as PublicConfig, queries: [] };

  const handle = routeHandleOf(pathname);
  const decision = decideGuard({
    pathname,
    search,
    access: handle.access,
    account: accountStateOf(account),
    googleSignInStartedOn: () => null,
  });
  if (decision.type !== 'render') return undefined;

  if (matchPath(APPLICATION_LIST, pathname)) {
    const list = listApplicationsQueryOptions(APPLICATION_LIST_MAX_LIMIT);
    const [applications, notices] = await Promise.all([
      load(`/api/v1/applications?limit=${APPLICATION_LIST_MAX_LIMIT}`),
      account && seesUsageAlertNotices(account.permissions)
        ? load('/api/v1/usage-alerts/notices')
        : undefined,
    ]);
    if (applications.status !== 200) return undefined;
    data.queries.push({ queryKey: list.queryKey, data: applications.body });
    // The list never waits for the notices: without them, the browser asks for them itself.
    if (notices?.status === 200)
      data.queries.push({ queryKey: usageAlertNoticesQueryOptions.queryKey, data: notices.body });
  }

  // The pages are rendered with their code loaded, as the browser takes them over (app/router.tsx).
  await loadRouteCode(pathname);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <FirstRenderContext value={data}>
        <StaticRouter location={url}>
          <PortalRoutes />
        </StaticRouter>
      </FirstRenderContext>
    </StrictMode>,
    // The page is sent whole, never streamed: a large part (the application grid) written apart from
    // its place would need an inline script to move it there, which the portal's CSP refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return {
    html: withoutLeadingTitle(await readAll(prelude)),
    dataScript: dataScriptOf(data),
    title: t('app.pageTitle', { page: t(handle.title) }),
    signedIn: account !== null,
  };
};
