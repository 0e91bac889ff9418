import { createRoot } from 'react-dom/client';
import * as z from 'zod/mini';
const S = z.object({ email: z.string().check(z.trim(), z.email('bad')), password: z.string().check(z.minLength(6, 'short')) });
createRoot(document.getElementById('root')!).render(<p>{JSON.stringify(S.safeParse({email:'x'}))}</p>);
