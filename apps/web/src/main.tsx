import './app/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { PortalRoutes } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain the #root element.');

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <PortalRoutes />
    </BrowserRouter>
  </StrictMode>,
);
