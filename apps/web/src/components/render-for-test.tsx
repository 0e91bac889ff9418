import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { Application } from '@portal/contracts';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { addMessages } from '../lib/i18n';
import { enSignedIn } from '../locales/en-signed-in';
import { MantineShell } from './mantine-shell';

const matchesNothing = (query: string) =>
  ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }) as unknown as MediaQueryList;

/** Size observation, which Mantine's selects ask for: jsdom lays nothing out, so nothing is ever resized. */
class ObservesNothing {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** Font loading, which Mantine's growing text areas listen to: in jsdom no font ever loads. */
const noFontLoading = new EventTarget() as FontFaceSet;

/**
 * For component tests in jsdom (`// @vitest-environment jsdom`): a part of a signed-in page with the
 * portal's theme, the signed-in wording, a router and `queryClient`, which a test seeds with the
 * answers the part would fetch. jsdom has no matchMedia, which Mantine asks for the colour scheme:
 * it gets one that matches nothing; nor document.fonts, which growing text areas listen to; nor
 * ResizeObserver, which selects ask for; nor scrolling, which an open list does to its chosen option.
 * A test that needs sizes (a chart) defines its own ResizeObserver first.
 */
export function renderSignedInPart(ui: ReactNode, queryClient = new QueryClient()) {
  addMessages(enSignedIn);
  window.matchMedia ??= matchesNothing;
  window.ResizeObserver ??= ObservesNothing;
  Element.prototype.scrollIntoView ??= () => undefined;
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: noFontLoading });
  return render(
    <QueryClientProvider client={queryClient}>
      <MantineShell>
        <MemoryRouter>{ui}</MemoryRouter>
      </MantineShell>
    </QueryClientProvider>,
  );
}

/** An active application of the EU region, for the parts a test renders about one. */
export function activeApplication(overrides: Partial<Application> = {}): Application {
  return {
    applicationId: 'app-1',
    name: 'Nebula Chat',
    plan: 'advance',
    planName: 'Advance',
    region: 'EU',
    state: 'active',
    createdAt: '2026-03-01T09:00:00.000Z',
    deactivatedAt: null,
    consoleUrl: 'https://console.example/app-1',
    description: '',
    networkId: 'net-1',
    ...overrides,
  };
}

/** A request the stubbed API received. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Stands in for `fetch` until `vi.unstubAllGlobals()`: each method and path gets the answers given
 * for it, in order (one with none left answers 500), and every request is kept in `sent`.
 */
export function stubApi() {
  const answers = new Map<string, { status: number; body: unknown }[]>();
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      sent.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const next = answers.get(`${method} ${path}`)?.shift() ?? {
        status: 500,
        body: { code: 'INTERNAL', message: 'no answer' },
      };
      return new Response(JSON.stringify(next.body), { status: next.status });
    }),
  );
  return {
    sent,
    answer(method: string, path: string, body: unknown, status = 200) {
      const route = `${method} ${path}`;
      answers.set(route, [...(answers.get(route) ?? []), { status, body }]);
    },
  };
}
