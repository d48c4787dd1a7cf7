import { Box, Chip } from '@mui/material';
import { alpha, darken, lighten, type Theme } from '@mui/material/styles';
import type { TAG_COLORS } from '@werkwissen/shared';

export type TagColor = (typeof TAG_COLORS)[number];

/** The tint of a tag colour with a text colour that stays readable (WCAG AA) in both modes. */
export const tagTintSx = (color: TagColor) => (theme: Theme) => {
  const main = theme.palette[color].main;
  const light = theme.palette.mode === 'light';
  return {
    bgcolor: alpha(main, light ? 0.14 : 0.24),
    color: light ? darken(main, 0.45) : lighten(main, 0.45),
    fontWeight: 600,
  };
};

/**
 * A tag as a tinted chip with a dot of its colour (so the colour is never the only cue: the name is shown too), cut
 * with an ellipsis beyond `maxWidth` (the whole name on hover).
 */
export function TagChip({
  name,
  color = 'primary',
  maxWidth = 220,
}: {
  name: string;
  color?: TagColor;
  maxWidth?: number;
}) {
  return (
    <Chip
      size="small"
      label={name}
      title={name}
      data-color={color}
      icon={
        <Box
          component="span"
          aria-hidden
          sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: `${color}.main`, flexShrink: 0 }}
        />
      }
      sx={[tagTintSx(color), { maxWidth, '& .MuiChip-icon': { ml: 2 } }]}
    />
  );
}
