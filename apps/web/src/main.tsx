import './app/base.css';
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { PortalRoutes, preloadRouteModules } from './app/router';
import { browserFirstRender } from './lib/first-render';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain the #root element.');

/**
 * A server-rendered page arrives inert (decision 026): a click or a keystroke before its script has
 * taken it over would be lost, or typed into a field its form does not know of. It turns live once
 * the whole page has been taken over.
 */
function TakenOver() {
  useEffect(() => container?.removeAttribute('inert'), []);
  return null;
}

const app = (
  <StrictMode>
    <BrowserRouter>
      <PortalRoutes />
    </BrowserRouter>
    <TakenOver />
  </StrictMode>
);

// A page the server rendered is taken over where it stands, once the code of its pages is loaded, so
// nothing in it waits for a module; any other page is drawn here.
if (browserFirstRender()) {
  // A module that fails to load reloads the page once (lib/chunk-reload.ts); otherwise the page's
  // own render meets the failure as it would have.
  void preloadRouteModules(window.location.pathname)
    .catch(() => undefined)
    .then(() => hydrateRoot(container, app));
} else createRoot(container).render(app);
