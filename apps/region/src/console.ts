import type { RegionInfo } from '@portal/contracts';
import type { StoredNetwork } from './store.ts';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}dt{font-weight:600;margin-top:.75rem}dd{margin:0}</style>
</head>
<body>${body}</body>
</html>`;
}

/** The application's console as the region shows it to a user holding its regional session. */
export function consolePage(network: StoredNetwork, region: RegionInfo): string {
  return page(
    `${network.name} — console`,
    `<h1>${escapeHtml(network.name)}</h1>
<dl>
<dt>Application ID</dt><dd>${escapeHtml(network.applicationId)}</dd>
<dt>Region</dt><dd>${escapeHtml(region.name)} (${escapeHtml(region.cloudRegion)})</dd>
<dt>State</dt><dd data-testid="network-status">${escapeHtml(network.status)}</dd>
<dt>Network ID</dt><dd>${escapeHtml(network.networkId)}</dd>
</dl>`,
  );
}

/** Shown when the console is opened without this application's regional session. */
export function consoleSignInPage(regionName: string): string {
  return page(
    'Console — sign in through the portal',
    `<h1>Open the console from the portal</h1>
<p>This console (${escapeHtml(regionName)}) needs a session opened by the developer portal. Go to your application list in the portal and choose “Go to console”.</p>`,
  );
}
