import type { Account, PublicConfig } from '@portal/contracts';
import { createContext } from 'react';

/**
 * What the server rendered a page with (decision 026): the same answers the browser would have
 * asked for. The server passes it to its render through FirstRenderContext and writes it into the
 * page, so the browser's first render, which takes over the server's HTML, starts from the same data.
 */
export interface FirstRenderData {
  /** GET /api/v1/accounts/me, or null when nobody is signed in. */
  account: Account | null;
  config: PublicConfig;
  /** The page's own server data, each answer under the query key the page reads it by. */
  queries: { queryKey: readonly unknown[]; data: unknown }[];
}

/** The id of the page's `<script type="application/json">` holding the data. */
export const FIRST_RENDER_SCRIPT_ID = 'portal-first-render';

/** Set during a server render only; in the browser the data seeds the shared stores instead. */
export const FirstRenderContext = createContext<FirstRenderData | null>(null);

let browserData: FirstRenderData | null | undefined;

/** The data the server wrote into this page, or null when the page came without a server render. */
export function browserFirstRender(): FirstRenderData | null {
  if (typeof document === 'undefined') return null;
  if (browserData === undefined) {
    const text = document.getElementById(FIRST_RENDER_SCRIPT_ID)?.textContent;
    browserData = text ? (JSON.parse(text) as FirstRenderData) : null;
  }
  return browserData;
}
