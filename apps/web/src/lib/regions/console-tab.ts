import type { Application } from '@portal/contracts';

/**
 * Opens an application's console in a new tab. The tab opens during the click (a browser allows a
 * new tab only then); the regional session code, which checks the region's answers with zod, loads
 * after it, so the pages that list applications do not load it up front.
 */
export async function openConsoleTab(application: Application & { consoleUrl: string }): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  const { openConsole } = await import('./regional-session');
  await openConsole(application, tab);
}
