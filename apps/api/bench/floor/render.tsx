// The floor page's markup, for bench:web to write into hydrate.html as the portal's server writes
// its pages (built for Node with React inside, so it runs from wherever the build is).
import { renderToString } from 'react-dom/server';
import { FloorPage } from './floor-page';

export const renderFloorPage = () => renderToString(<FloorPage />);
