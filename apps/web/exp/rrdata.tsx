import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet } from 'react-router';
import { RouterProvider } from 'react-router/dom';
const router = createBrowserRouter([{ path: '/', Component: () => <div><Link to="/a">a</Link><Outlet/></div>, children: [{ path: 'a', lazy: () => import('./lazy') }] }]);
createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);
