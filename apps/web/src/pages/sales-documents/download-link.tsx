import { IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';

/** An icon link that downloads a file of the server (a document's PDF or e-invoice), named by its tooltip. */
export function DownloadLink({ label, href, icon }: { label: string; href: string; icon: ReactNode }) {
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} component="a" href={href} download>
        {icon}
      </IconButton>
    </Tooltip>
  );
}
