import { Box, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './stacking-table.module.css';

/**
 * The members and invitations tables: a header row of `head` cells over the body rows. On phones
 * (390 px) the rows stack as cards, each cell labelled by its `label`; between that and a roomy
 * desktop the table scrolls sideways rather than squeezing its columns.
 */
export function StackingTable({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <Box style={{ overflowX: 'auto' }}>
      <Table className={classes.table} verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Box>
  );
}

/** A body cell that names its column when the row is stacked as a card; the first column needs none. */
export function LabelledCell({ label, children }: { label?: string; children: ReactNode }) {
  return <Table.Td data-label={label}>{children}</Table.Td>;
}
