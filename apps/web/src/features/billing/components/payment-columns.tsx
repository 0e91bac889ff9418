import { Grid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** The payment page's two columns: what the user fills in, and what it comes to with the pay button. */
export function PaymentColumns({ main, aside }: { main: ReactNode; aside: ReactNode }) {
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="lg">{main}</Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">{aside}</Stack>
      </Grid.Col>
    </Grid>
  );
}
