import { Box, Rating, Stack, Tooltip, Typography } from '@mui/material';
import {
  IconMoodHappy,
  IconMoodNeutral,
  IconMoodSad,
  IconThumbDownFilled,
  IconThumbUpFilled,
} from '@tabler/icons-react';
import type { Mood } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';

const MOOD_ICONS = { happy: IconMoodHappy, neutral: IconMoodNeutral, negative: IconMoodSad };
const MOOD_COLORS = { happy: 'success.main', neutral: 'text.secondary', negative: 'error.main' };

/** A like or dislike as a thumb with its name (for screen readers and on hover); nothing when neither was given. */
export function LikedIcon({ liked }: { liked: boolean | null }) {
  const { t } = useTranslation();
  if (liked === null) return null;
  const label = t(liked ? 'reports.liked' : 'reports.disliked');
  const Icon = liked ? IconThumbUpFilled : IconThumbDownFilled;
  return (
    <Tooltip title={label}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        sx={{ display: 'inline-flex', color: liked ? 'success.main' : 'error.main' }}
      >
        <Icon size={20} aria-hidden />
      </Box>
    </Tooltip>
  );
}

/** A mood as its face, named for screen readers and on hover (where a row has no room for the word). */
export function MoodIcon({ mood }: { mood: Mood | null }) {
  const { t } = useTranslation();
  if (mood === null) return null;
  const Icon = MOOD_ICONS[mood];
  const label = t(`reports.moods.${mood}`);
  return (
    <Tooltip title={label}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        sx={{ display: 'inline-flex', color: MOOD_COLORS[mood] }}
      >
        <Icon size={20} aria-hidden />
      </Box>
    </Tooltip>
  );
}

/** A mood as its face and its name. */
export function MoodLabel({ mood }: { mood: Mood | null }) {
  const { t } = useTranslation();
  if (mood === null) return null;
  const Icon = MOOD_ICONS[mood];
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', whiteSpace: 'nowrap' }}>
      <Box component="span" sx={{ display: 'inline-flex', color: MOOD_COLORS[mood] }}>
        <Icon size={20} aria-hidden />
      </Box>
      <Typography variant="body2" component="span">
        {t(`reports.moods.${mood}`)}
      </Typography>
    </Stack>
  );
}

/** A rating of one to five as stars, named "4 of 5". */
export function RatingStars({ rating }: { rating: number | null }) {
  const { t } = useTranslation();
  if (rating === null) return null;
  return (
    <Rating
      value={rating}
      readOnly
      size="small"
      getLabelText={(value) => t('reports.ratingValue', { value })}
      sx={{ verticalAlign: 'middle' }}
    />
  );
}
