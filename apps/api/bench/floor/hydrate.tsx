// The floor page served already rendered and taken over as the portal's pages are (a hydration in a
// transition, apps/web/src/lib/take-over.ts): the least time any React page needs between its first
// paint and answering input, on the machine bench:web runs on.
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedFloorPage } from './floor-page';

startTransition(() => {
  hydrateRoot(document.getElementById('root')!, <HydratedFloorPage />);
});
