import { useEffect } from 'react';

/** The least a React page can be: one heading and one paragraph. */
export function FloorPage() {
  return (
    <main>
      <h1>Floor page</h1>
      <p>React 19 and react-dom, rendering one heading and one paragraph.</p>
    </main>
  );
}

/**
 * The floor page as the portal's server-rendered pages are taken over: beside it, an effect marks the
 * document `<html data-hydrated>` once React has hydrated it, as apps/web/src/app/router.tsx does.
 */
export function HydratedFloorPage() {
  useEffect(() => document.documentElement.setAttribute('data-hydrated', ''), []);
  return <FloorPage />;
}
