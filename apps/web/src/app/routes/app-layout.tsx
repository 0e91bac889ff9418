import { AppLayout } from '../../features/layout/components/app-layout';
import { MantineShell } from '../mantine-shell';

export function Component() {
  return (
    <MantineShell>
      <AppLayout />
    </MantineShell>
  );
}
