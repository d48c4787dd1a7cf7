import { Box } from '@mui/material';

/**
 * A mail's HTML in an iframe with every sandbox restriction (`sandbox=""`: no scripts, no forms, no navigation of
 * this page, its own opaque origin), so that whatever the HTML holds cannot reach the app.
 */
export function MailFrame({ html, title, height = 480 }: { html: string; title: string; height?: number }) {
  return (
    <Box
      component="iframe"
      sandbox=""
      srcDoc={html}
      title={title}
      sx={{ width: '100%', height, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
    />
  );
}
