// The least a React page can be: what react and react-dom cost with nothing else, the floor that
// bench:web compares the portal's pages with.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(
  <main>
    <h1>Floor page</h1>
    <p>React 19 and react-dom, rendering one heading and one paragraph.</p>
  </main>,
);
