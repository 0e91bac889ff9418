import './app/base.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { PortalRoutes } from './app/router';
import { browserFirstRender } from './lib/first-render';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain the #root element.');

const app = (
  <StrictMode>
    <BrowserRouter>
      <PortalRoutes />
    </BrowserRouter>
  </StrictMode>
);

// A page the server rendered (decision 026) is taken over where it stands; any other is drawn here.
// The take-over is a transition, so React hydrates in slices of a few milliseconds and the browser
// answers input between them (a plain hydration is one task as long as the whole page's render); a
// click on the page before it is done makes React finish it at once and then handle the click.
if (browserFirstRender())
  startTransition(() => {
    hydrateRoot(container, app);
  });
else createRoot(container).render(app);
