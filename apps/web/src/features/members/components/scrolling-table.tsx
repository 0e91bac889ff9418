import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** Wide enough for every column; narrower screens (390 px phones) scroll the table sideways. */
const TABLE_MIN_WIDTH = 760;

/** The members and invitations tables: a header row of `head` cells over the body rows. */
export function ScrollingTable({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
