import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormLabel,
  IconButton,
  Link as MuiLink,
  Rating,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  IconMessageCircle,
  IconMoodHappy,
  IconMoodNeutral,
  IconMoodSad,
  IconThumbDown,
  IconThumbDownFilled,
  IconThumbUp,
  IconThumbUpFilled,
} from '@tabler/icons-react';
import { type Feedback, type FeedbackBody, MOODS, type Mood, type Tag } from '@werkwissen/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../auth/auth-context.tsx';
import { SelectField } from '../../components/select-field.tsx';

const MOOD_ICONS = { happy: IconMoodHappy, neutral: IconMoodNeutral, negative: IconMoodSad } as const;
const COMMENT_MAX = 2000;

interface Values {
  mood: Mood | null;
  rating: number | null;
  tagId: string | null;
  comment: string;
}

/** Only the fields that differ from the saved feedback: later calls change only what they name. */
export function changedFields(saved: Feedback | null, values: Values): FeedbackBody {
  const body: FeedbackBody = {};
  if (values.mood !== (saved?.mood ?? null)) body.mood = values.mood;
  if (values.rating !== (saved?.rating ?? null)) body.rating = values.rating;
  if (values.tagId !== (saved?.tagId ?? null)) body.tagId = values.tagId;
  const comment = values.comment.trim() || null;
  if (comment !== (saved?.comment ?? null)) body.comment = comment;
  return body;
}

function FeedbackDialog({
  feedback,
  tags,
  onSave,
  onClose,
}: {
  feedback: Feedback | null;
  tags?: Tag[];
  /** Saves and reports the outcome in the snackbar (rejects when refused). */
  onSave(body: FeedbackBody): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const ratingId = useId();
  const moodId = useId();
  const [values, setValues] = useState<Values>({
    mood: feedback?.mood ?? null,
    rating: feedback?.rating ?? null,
    tagId: feedback?.tagId ?? null,
    comment: feedback?.comment ?? '',
  });
  const [saving, setSaving] = useState(false);
  const canManageTags = useAuth().ability.can('create', 'Tag');

  // A refused save keeps the dialog open.
  const save = async () => {
    const body = changedFields(feedback, values);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setSaving(true);
    const saved = await onSave(body).then(
      () => true,
      () => false,
    );
    setSaving(false);
    if (saved) onClose();
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <DialogTitle>{t('chat.feedback.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={4} sx={{ pt: 1 }}>
            <Box>
              <FormLabel id={moodId} component="p" sx={{ mb: 1 }}>
                {t('chat.feedback.mood')}
              </FormLabel>
              <ToggleButtonGroup
                exclusive
                aria-labelledby={moodId}
                value={values.mood}
                onChange={(_e, mood: Mood | null) => setValues((v) => ({ ...v, mood }))}
              >
                {MOODS.map((mood) => {
                  const Icon = MOOD_ICONS[mood];
                  return (
                    <ToggleButton key={mood} value={mood} sx={{ gap: 1, px: 3 }}>
                      <Icon size={20} aria-hidden />
                      {t(`chat.feedback.moods.${mood}`)}
                    </ToggleButton>
                  );
                })}
              </ToggleButtonGroup>
            </Box>
            <Box>
              <FormLabel id={ratingId} component="p" sx={{ mb: 1 }}>
                {t('chat.feedback.rating')}
              </FormLabel>
              <Rating
                name="feedback-rating"
                value={values.rating}
                max={5}
                aria-labelledby={ratingId}
                getLabelText={(value) => t('chat.feedback.stars', { count: value })}
                onChange={(_e, rating) => setValues((v) => ({ ...v, rating }))}
              />
            </Box>
            {tags && tags.length === 0 && (
              <Typography variant="body2" color="text.secondary" data-testid="no-tags-hint">
                {t('chat.feedback.noTagsHint')}{' '}
                {canManageTags && (
                  <MuiLink component={Link} to="/tags">
                    {t('chat.feedback.createTags')}
                  </MuiLink>
                )}
              </Typography>
            )}
            {tags && tags.length > 0 && (
              <SelectField
                id="feedback-tag"
                size="medium"
                label={t('chat.feedback.tag')}
                value={values.tagId ?? ''}
                onChange={(tagId) => setValues((v) => ({ ...v, tagId: tagId || null }))}
                options={[
                  { value: '', label: t('chat.feedback.noTag') },
                  ...tags.map((tag) => ({ value: tag.id, label: tag.name })),
                ]}
              />
            )}
            <TextField
              label={t('chat.feedback.comment')}
              multiline
              minRows={3}
              value={values.comment}
              onChange={(e) => setValues((v) => ({ ...v, comment: e.target.value }))}
              slotProps={{ htmlInput: { maxLength: COMMENT_MAX } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={saving}>
            {t('chat.feedback.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Like, dislike and the feedback dialog under an answer, showing the feedback saved so far. */
export function FeedbackBar({
  feedback,
  tags,
  onGive,
}: {
  feedback: Feedback | null;
  tags?: Tag[];
  /** Saves and reports the outcome in the snackbar (rejects when refused). */
  onGive(body: FeedbackBody): Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState(false);
  const liked = feedback?.liked ?? null;
  const detailed = Boolean(
    feedback && (feedback.mood || feedback.rating || feedback.comment || feedback.tagId),
  );

  const setLiked = async (value: boolean) => {
    setBusy(true);
    // Pressing the pressed button takes the like (or dislike) back.
    const next = liked === value ? null : value;
    const given = await onGive({ liked: next }).then(
      () => true,
      () => false,
    );
    setBusy(false);
    // A dislike asks what was wrong: the form opens, with mood, rating, tag and comment.
    if (given && next === false) setDialog(true);
  };

  const MoodIcon = feedback?.mood ? MOOD_ICONS[feedback.mood] : null;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Tooltip title={t('chat.feedback.like')}>
        <IconButton
          size="small"
          aria-label={t('chat.feedback.like')}
          aria-pressed={liked === true}
          disabled={busy}
          color={liked === true ? 'primary' : 'default'}
          onClick={() => void setLiked(true)}
        >
          {liked === true ? <IconThumbUpFilled size={18} /> : <IconThumbUp size={18} />}
        </IconButton>
      </Tooltip>
      <Tooltip title={t('chat.feedback.dislike')}>
        <IconButton
          size="small"
          aria-label={t('chat.feedback.dislike')}
          aria-pressed={liked === false}
          disabled={busy}
          color={liked === false ? 'error' : 'default'}
          onClick={() => void setLiked(false)}
        >
          {liked === false ? <IconThumbDownFilled size={18} /> : <IconThumbDown size={18} />}
        </IconButton>
      </Tooltip>
      <Button
        size="small"
        color={detailed ? 'primary' : 'inherit'}
        startIcon={<IconMessageCircle size={16} />}
        onClick={() => setDialog(true)}
        sx={{ color: detailed ? undefined : 'text.secondary' }}
      >
        {t(detailed ? 'chat.feedback.edit' : 'chat.feedback.open')}
      </Button>
      {MoodIcon && (
        <Box
          component="span"
          role="img"
          aria-label={`${t('chat.feedback.mood')}: ${t(`chat.feedback.moods.${feedback!.mood}`)}`}
          sx={{ display: 'inline-flex', color: 'text.secondary', px: 0.5 }}
        >
          <MoodIcon size={18} aria-hidden />
        </Box>
      )}
      {feedback?.rating != null && (
        <Rating
          size="small"
          readOnly
          value={feedback.rating}
          getLabelText={(value) => t('chat.feedback.stars', { count: value })}
        />
      )}
      {feedback?.tagName && <Chip size="small" label={feedback.tagName} sx={{ ms: 1 }} />}
      {dialog && (
        <FeedbackDialog feedback={feedback} tags={tags} onSave={onGive} onClose={() => setDialog(false)} />
      )}
    </Stack>
  );
}
