// The least a React page can be: what react and react-dom cost with nothing else, the floor that
// bench:web compares the portal's pages with.
import { createRoot } from 'react-dom/client';
import { FloorPage } from './floor-page';

createRoot(document.getElementById('root')!).render(<FloorPage />);
