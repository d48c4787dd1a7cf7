import {
  Button,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { IconChevronDown, IconCircle, IconCircleCheck, IconRoute } from '@tabler/icons-react';
import { TOUR_STEPS, type TourStep } from '@werkwissen/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Joyride } from 'react-joyride';
import { useLocation, useNavigate } from 'react-router';
import { useTour, useUpdateTour } from '../../api/tour.ts';
import { useTourControls } from './tour-context.tsx';
import { TOUR_PLACES } from './tour-steps.ts';
import { TourTooltip, type TourTooltipData } from './tour-tooltip.tsx';
import { useTargetPresent } from './use-target.ts';

/**
 * The guided tour (spec: logo, company details, documents, WhatsApp chat) for whoever sets the company up: a panel
 * with the four steps, each done when the server found its real action done, and on the step's own page a spotlight
 * on the real control (react-joyride with an MUI tooltip; a step whose control is not on the page is not
 * spotlighted). It opens by itself until it is skipped or every step is done; the help menu opens it again, and it
 * resumes at the step the user was at. The panel is open on the dashboard and the current step's page; elsewhere it
 * folds into the navbar (`TourNavbarEntry`), out of the way of the page's own controls.
 */
export function TourGuide() {
  const tour = useOpenTour();
  const { expanded, setExpanded } = useTourControls();
  const { pathname } = useLocation();
  const stepPage = useRef<string | null>(null);
  stepPage.current = tour ? TOUR_PLACES[tour.currentStep].path : null;
  // On every page the user goes to (and once the tour has loaded): open where it helps (the dashboard a new user lands on, the current step's page),
  // folded into the navbar elsewhere. A step done here leaves it open, to show the progress and the next step.
  // Loaded from the server at all (not: shown), so that opening it from the help menu does not fold it again.
  const loaded = useTour().data !== undefined;
  useEffect(() => {
    if (loaded && stepPage.current) setExpanded(pathname === '/dashboard' || pathname === stepPage.current);
  }, [pathname, loaded, setExpanded]);
  if (!tour || !expanded) return null;
  return <TourPanel steps={tour.steps} currentStep={tour.currentStep} />;
}

/** The tour while it is to be shown: new or under way, or opened from the help menu; else null. */
export function useOpenTour() {
  const data = useTour().data;
  const controls = useTourControls();
  const shown =
    data && !controls.hidden && (controls.reopened || data.status === 'new' || data.status === 'active');
  return shown ? data : null;
}

/**
 * The navbar's entry to a folded tour: its progress, and the panel again on a click. On a phone it is an icon like
 * its neighbours (the progress in its name and tooltip), so that the company's name beside it stays whole.
 */
export function TourNavbarEntry() {
  const { t } = useTranslation();
  const tour = useOpenTour();
  const { expanded, setExpanded } = useTourControls();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  if (!tour || expanded) return null;
  const done = tour.steps.filter((s) => s.done).length;
  const label = t('tour.entry', { done, total: TOUR_STEPS.length });
  if (phone)
    return (
      <Tooltip title={label}>
        <IconButton aria-label={label} onClick={() => setExpanded(true)} data-testid="tour-entry">
          <IconRoute size={22} aria-hidden />
        </IconButton>
      </Tooltip>
    );
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<IconRoute size={18} aria-hidden />}
      onClick={() => setExpanded(true)}
      data-testid="tour-entry"
    >
      {label}
    </Button>
  );
}

function TourPanel({
  steps,
  currentStep,
}: {
  steps: { id: TourStep; done: boolean }[];
  currentStep: TourStep;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const update = useUpdateTour();
  const controls = useTourControls();
  const [spotlightClosed, setSpotlightClosed] = useState<TourStep | null>(null);
  const rtl = useTheme().direction === 'rtl';
  const place = TOUR_PLACES[currentStep];
  const onPage = location.pathname === place.path;
  const targetPresent = useTargetPresent(onPage ? place.target : null);
  const doneCount = steps.filter((s) => s.done).length;
  const position = TOUR_STEPS.indexOf(currentStep) + 1;
  const currentDone = steps.find((s) => s.id === currentStep)?.done ?? false;

  const goTo = (step: TourStep) => {
    setSpotlightClosed(null);
    update.mutate({ state: 'active', currentStep: step });
    navigate(TOUR_PLACES[step].path);
  };
  const skip = () => {
    update.mutate({ state: 'skipped', currentStep });
    controls.hide();
  };
  const spotlightOpen = targetPresent && !currentDone && spotlightClosed !== currentStep;
  const tooltip: TourTooltipData = {
    title: t(`tour.steps.${currentStep}.title`),
    position,
    total: TOUR_STEPS.length,
    onGotIt: () => setSpotlightClosed(currentStep),
    onSkip: skip,
  };

  return (
    <>
      <Joyride
        run={spotlightOpen}
        steps={[
          {
            target: place.target,
            content: t(`tour.steps.${currentStep}.body`),
            data: tooltip,
            skipBeacon: true,
            // Below the control (else above it), from its edge toward the page: 'auto' put it beside a wide target,
            // off the screen behind the navigation, and a centred one reached over the navigation.
            placement: rtl ? 'bottom-end' : 'bottom-start',
            // Scrolled to clear the sticky header (64 px), not just the page's top edge.
            scrollOffset: 120,
          },
        ]}
        tooltipComponent={TourTooltip}
      />
      <Paper
        elevation={8}
        component="aside"
        aria-label={t('tour.title')}
        data-testid="tour-panel"
        sx={{
          // On a phone the panel covers the lower half of the screen: it steps aside while a step's tooltip shows.
          display: { xs: spotlightOpen ? 'none' : 'block', sm: 'block' },
          position: 'fixed',
          insetInlineEnd: 24,
          bottom: 24,
          width: { xs: 'calc(100% - 48px)', sm: 340 },
          p: 4,
          zIndex: (theme) => theme.zIndex.snackbar - 1,
        }}
      >
        <Stack spacing={2}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="h6" component="h2">
              {t('tour.title')}
            </Typography>
            <IconButton size="small" aria-label={t('tour.fold')} onClick={() => controls.setExpanded(false)}>
              <IconChevronDown size={20} />
            </IconButton>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('tour.done', { done: doneCount, total: TOUR_STEPS.length })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={(doneCount / TOUR_STEPS.length) * 100}
            aria-label={t('tour.done', { done: doneCount, total: TOUR_STEPS.length })}
            sx={{ height: 6, borderRadius: 3 }}
          />
          <List dense disablePadding>
            {steps.map((step) => (
              <ListItem key={step.id} disablePadding>
                <ListItemButton
                  selected={step.id === currentStep}
                  onClick={() => goTo(step.id)}
                  data-testid={`tour-step-${step.id}`}
                  data-done={step.done}
                >
                  <ListItemIcon sx={{ minWidth: 32 }}>
                    {step.done ? (
                      <IconCircleCheck size={20} color="var(--mui-palette-success-main, green)" aria-hidden />
                    ) : (
                      <IconCircle size={20} aria-hidden />
                    )}
                  </ListItemIcon>
                  <ListItemText
                    primary={t(`tour.steps.${step.id}.title`)}
                    secondary={step.done ? t('tour.stepDone') : undefined}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          {!targetPresent && (
            <Typography variant="body2" color="text.secondary">
              {t(`tour.steps.${currentStep}.body`)}
            </Typography>
          )}
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={skip}>{t('tour.skip')}</Button>
            {!onPage && (
              <Button variant="contained" onClick={() => goTo(currentStep)}>
                {t('tour.open')}
              </Button>
            )}
          </Stack>
        </Stack>
      </Paper>
    </>
  );
}
