import { z } from 'zod';

/**
 * The interface between the web build and the portal server for the pages the server renders
 * (decisions 026 and 038): what the web's server entry (apps/web/src/entry-server.tsx) exports and
 * the server calls, and the page manifest the web build writes for the server to read.
 */

/** An answer of the portal's own API to the request being rendered, as the page would have received it. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Asks the portal's own API, with the cookies of the request being rendered. */
export type LoadFromApi = (apiPath: string) => Promise<ApiAnswer>;

/** A page the web's server entry rendered, for the server to write into the built page. */
export interface RenderedPage {
  /** The content of the page's #root element. */
  html: string;
  /** The data the page was rendered with, as the script element the browser's first render reads. */
  dataScript: string;
  title: string;
  /** Whether the page is a signed-in one, whose frame and stylesheet the page needs at once. */
  signedIn: boolean;
}

/** The web's server entry, built by `vite build --ssr` into the server render's directory. */
export interface ServerRenderEntry {
  isServerRendered(pathname: string): boolean;
  renderPage(url: string, load: LoadFromApi): Promise<RenderedPage | undefined>;
}

/** Where the web build writes its page manifest, inside the browser's build. */
export const PAGE_MANIFEST_FILE = '.vite/page-manifest.json';

/**
 * The built page cut where a rendered page's parts go, each cut written as it is sent: the escaped
 * title between `beforeTitle` and `beforeContent`, the page's HTML (inside #root) before
 * `beforeData`, its data script before `afterData`.
 */
const renderedPageShellSchema = z.strictObject({
  beforeTitle: z.string().min(1),
  beforeContent: z.string().min(1),
  beforeData: z.string().min(1),
  afterData: z.string().min(1),
});
export type RenderedPageShell = z.infer<typeof renderedPageShellSchema>;

/** The page manifest: everything the server needs of the web build's pages, written by the build. */
export const pageManifestSchema = z.strictObject({
  version: z.literal(1),
  /** The shells of a rendered page: signed out, and signed in (with the signed-in frame's files). */
  renderedPage: z.strictObject({ signedOut: renderedPageShellSchema, signedIn: renderedPageShellSchema }),
  /**
   * The page the browser renders alone, for a browser holding a session: the built page preloading
   * the signed-in frame's scripts and stylesheet (decision 012).
   */
  signedInPage: z.string().min(1),
});
export type PageManifest = z.infer<typeof pageManifestSchema>;
