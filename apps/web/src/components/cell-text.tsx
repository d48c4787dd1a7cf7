import { Box } from '@mui/material';

interface Props {
  text: string;
  /** Lines shown before the ellipsis: one keeps a name whole-worded on one line, more wrap long words anywhere. */
  lines?: number;
  /** The widest the text gets, in px, outside a filling column (which sets its own width). */
  maxWidth?: number;
}

/**
 * A user's text in a table (a file name, an address, a question) cut with an ellipsis to fit its column, the whole
 * text on hover. Its direction follows the text, so a Latin name in an Arabic table is cut at its end, not its start.
 */
export function CellText({ text, lines = 1, maxWidth }: Props) {
  return (
    <Box
      component="span"
      dir="auto"
      title={text}
      sx={[
        // "left" is the reading start: the right-to-left style plugin turns it into "right" in Arabic.
        { display: 'block', overflow: 'hidden', textAlign: 'left', maxWidth },
        lines === 1
          ? { textOverflow: 'ellipsis', whiteSpace: 'nowrap' }
          : {
              display: '-webkit-box',
              WebkitLineClamp: String(lines),
              WebkitBoxOrient: 'vertical',
              overflowWrap: 'anywhere',
            },
      ]}
    >
      {text}
    </Box>
  );
}
