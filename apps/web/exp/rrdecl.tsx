import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Outlet, Route, Routes } from 'react-router';
createRoot(document.getElementById('root')!).render(<BrowserRouter><Routes><Route path="/" element={<div><Link to="/a">a</Link><Outlet/></div>}><Route path="a" element={<p>a</p>} /></Route></Routes></BrowserRouter>);
