import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageManifest, RenderedPage, ServerRenderEntry } from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml } from '../http/escape-html.ts';

/** A page the server rendered, ready to send. */
export interface ServerRenderedPage {
  html: string;
  /** A signed-in page holds the member's own data: no cache may keep it. */
  signedIn: boolean;
}

export interface PageRendererOptions {
  webDist: string;
  /** The built page's shells for a rendered page, from the web build's page manifest. */
  shells: PageManifest['renderedPage'];
  /** Renders allowed in any one second; past it pages go out unrendered. 0: no server render. */
  rendersPerSecond: number;
  /** Whether the request carries a session cookie: only a request without one sees a kept page. */
  holdsSession(request: FastifyRequest): boolean;
}

export interface PageRenderer {
  /** Loads the server build now rather than with the first page asked for. */
  preload(): Promise<void>;
  /** The page at the request's address, or undefined when the browser is to render it alone. */
  render(request: FastifyRequest): Promise<ServerRenderedPage | undefined>;
}

/** How long a signed-out page is sent again as it was rendered, and how many addresses are kept. */
const SIGNED_OUT_PAGE_KEPT_MS = 10_000;
const SIGNED_OUT_PAGES_KEPT = 100;

/**
 * Signed-out pages as they were last rendered, by address: such a page is the same for every
 * visitor but for the public configuration, which a page may show up to SIGNED_OUT_PAGE_KEPT_MS late.
 */
class SignedOutPages {
  private readonly pages = new Map<string, { html: string; until: number }>();

  get(address: string): string | undefined {
    const kept = this.pages.get(address);
    if (kept && kept.until > Date.now()) return kept.html;
    this.pages.delete(address);
    return undefined;
  }

  set(address: string, html: string) {
    if (this.pages.size >= SIGNED_OUT_PAGES_KEPT) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
    this.pages.set(address, { html, until: Date.now() + SIGNED_OUT_PAGE_KEPT_MS });
  }
}

/** Where the web build writes its server render: apps/web/dist-server beside apps/web/dist. */
export const serverRenderDir = (webDist: string) => `${webDist}-server`;

/** The rendered page in the built page's shell for it. */
function pageHtml(shells: PageManifest['renderedPage'], page: RenderedPage): string {
  const shell = page.signedIn ? shells.signedIn : shells.signedOut;
  return (
    shell.beforeTitle +
    escapeHtml(page.title) +
    shell.beforeContent +
    page.html +
    shell.beforeData +
    page.dataScript +
    shell.afterData
  );
}

/**
 * The renders this process may start in the current second. The budget is this process's own CPU,
 * so unlike the request limits it is counted here, not shared between instances.
 */
class RendersPerSecond {
  private second = 0;
  private taken = 0;

  constructor(private readonly limit: number) {}

  take(): boolean {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.taken = 0;
    }
    this.taken += 1;
    return this.taken <= this.limit;
  }
}

/**
 * The server render of the pages people arrive at (decision 026), when the web build has one: the
 * same React components over the same API answers the browser would ask for, fetched in process
 * with the request's cookie. Any failure leaves the page to the browser, as before.
 */
export function createPageRenderer(
  app: FastifyInstance,
  { webDist, shells, rendersPerSecond, holdsSession }: PageRendererOptions,
): PageRenderer | undefined {
  const entryFile = path.join(serverRenderDir(webDist), 'entry-server.js');
  if (rendersPerSecond === 0 || !fs.existsSync(entryFile)) return undefined;
  const budget = new RendersPerSecond(rendersPerSecond);
  const signedOutPages = new SignedOutPages();
  let entry: Promise<ServerRenderEntry> | undefined;
  const loadEntry = () => (entry ??= import(pathToFileURL(entryFile).href) as Promise<ServerRenderEntry>);

  return {
    preload: () =>
      loadEntry().then(
        () => undefined,
        (error: unknown) => app.log.error({ err: error }, 'the server render did not load'),
      ),
    async render(request) {
      const url = new URL(request.url, 'http://portal');
      const address = `${url.pathname}${url.search}`;
      try {
        const { isServerRendered, renderPage } = await loadEntry();
        if (!isServerRendered(url.pathname)) return undefined;
        const signedOut = !holdsSession(request);
        const kept = signedOut ? signedOutPages.get(address) : undefined;
        if (kept) return { html: kept, signedIn: false };
        if (!budget.take()) return undefined;
        const cookie = request.headers.cookie;
        const page = await renderPage(address, async (apiPath) => {
          const answer = await app.inject({ method: 'GET', url: apiPath, headers: cookie ? { cookie } : {} });
          return { status: answer.statusCode, body: answer.json() as unknown };
        });
        if (!page) return undefined;
        const html = pageHtml(shells, page);
        if (signedOut && !page.signedIn) signedOutPages.set(address, html);
        return { html, signedIn: page.signedIn };
      } catch (error) {
        request.log.error({ err: error }, 'server render failed; the browser renders the page');
        return undefined;
      }
    },
  };
}
