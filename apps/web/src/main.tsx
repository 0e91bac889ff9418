import './app/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { loadRouteCode, PortalRoutes } from './app/router';
import { browserFirstRender } from './lib/first-render';
import { takeOverRenderedPage } from './lib/take-over';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain the #root element.');

const app = (
  <StrictMode>
    <BrowserRouter>
      <PortalRoutes />
    </BrowserRouter>
  </StrictMode>
);

// A page the server rendered (decision 026) is taken over where it stands, once its pages' code is
// here as it was for the server's render (decision 045, sixth part); any other is drawn here. If that
// code cannot load, the take-over goes on and the page's own loading reports it.
if (browserFirstRender()) {
  const takeOver = () => takeOverRenderedPage(container, app);
  loadRouteCode(window.location.pathname).then(takeOver, takeOver);
} else createRoot(container).render(app);
