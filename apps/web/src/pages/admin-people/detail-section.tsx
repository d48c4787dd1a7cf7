import {
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';

/** A titled card of a detail page. */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 3 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** A small table of a detail page (recent sign-ins, divisions), or a line saying there is nothing. */
export function DetailTable({
  caption,
  header,
  rows,
  empty,
}: {
  caption: string;
  header: string[];
  rows: Array<{ key: string; cells: ReactNode[] }>;
  empty: string;
}) {
  if (rows.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  return (
    <Table size="small" aria-label={caption}>
      <TableHead>
        <TableRow>
          {header.map((h) => (
            <TableCell key={h}>{h}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key}>
            {row.cells.map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
              <TableCell key={i} sx={{ overflowWrap: 'anywhere' }}>
                {cell}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Label and value pairs of a detail page. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl
      style={{
        margin: 0,
        display: 'grid',
        gridTemplateColumns: 'minmax(120px, max-content) 1fr',
        gap: '8px 24px',
      }}
    >
      {items.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </div>
      ))}
    </dl>
  );
}
