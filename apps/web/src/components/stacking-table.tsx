import { Box, Table, type TableTdProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import classes from './stacking-table.module.css';

/**
 * A table of a header row of `head` cells over the body rows. On phones (below Mantine's "sm",
 * 48em) the rows stack as cards, each cell labelled by its `label`; wider, it stays a table, and
 * scrolls sideways below `minWidth` rather than squeezing its columns.
 */
export function StackingTable({
  head,
  children,
  minWidth,
  'aria-label': ariaLabel,
}: {
  head: ReactNode;
  children: ReactNode;
  /** Pixels under which the wide table scrolls sideways. */
  minWidth?: number;
  /** The table's name, when the heading above it does not say which table it is. */
  'aria-label'?: string;
}) {
  const style = minWidth ? ({ '--stacking-table-min-width': `${minWidth}px` } as CSSProperties) : undefined;
  return (
    <Box className={classes.scroller}>
      <Table
        className={classes.table}
        style={style}
        verticalSpacing="sm"
        highlightOnHover
        aria-label={ariaLabel}
      >
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Box>
  );
}

/** A body cell that names its column when the row is stacked as a card; the first column needs none. */
export function LabelledCell({
  label,
  children,
  ...props
}: { label?: string; children?: ReactNode } & TableTdProps) {
  return (
    <Table.Td data-label={label} {...props}>
      {children}
    </Table.Td>
  );
}
