import './app/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { PortalRoutes } from './app/router';
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

// A page the server rendered (decision 026) is taken over where it stands; any other is drawn here.
if (browserFirstRender()) takeOverRenderedPage(container, app);
else createRoot(container).render(app);
