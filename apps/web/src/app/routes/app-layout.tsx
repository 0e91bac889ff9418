import { AppLayout } from '../../features/layout/components/app-layout';
import { SignedInShell } from '../signed-in-shell';

export function Component() {
  return (
    <SignedInShell>
      <AppLayout />
    </SignedInShell>
  );
}
