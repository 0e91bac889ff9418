import { createRoot } from 'react-dom/client';
import { z } from 'zod';
const S = z.object({ email: z.string().trim().email('bad'), password: z.string().min(6, 'short') });
createRoot(document.getElementById('root')!).render(<p>{JSON.stringify(S.safeParse({email:'x'}))}</p>);
