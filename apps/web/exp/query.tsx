import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
const qc = new QueryClient();
function A(){ const q = useQuery({queryKey:['a'], queryFn: () => fetch('/x').then(r=>r.json())}); const m = useMutation({mutationFn: () => fetch('/y')}); return <p onClick={() => m.mutate()}>{String(q.data)}</p>; }
createRoot(document.getElementById('root')!).render(<QueryClientProvider client={qc}><A/></QueryClientProvider>);
