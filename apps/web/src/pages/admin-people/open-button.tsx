import { IconButton, useTheme } from '@mui/material';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The link of a table row to its detail page, pointing the way the page reads (flipped in right-to-left). */
export function OpenButton({ to, label }: { to: string; label: string }) {
  const theme = useTheme();
  return (
    <IconButton component={Link} to={to} aria-label={label}>
      <IconChevronRight
        size={20}
        style={theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : undefined}
      />
    </IconButton>
  );
}
