// /pregnancy: where the pregnancy stands (week, trimester, due date), what happens at this stage in
// plain words, and the clinic's schedule of care (the CarePlan its PlanDefinition made) with each step
// done (and what did it), due now, or upcoming; a due step that offers a questionnaire links to it.
// One PregnancyTimeline query; step names in the active language where the plan translates them.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PregnancyTimelineDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import {
  planStepState,
  planSteps,
  pregnancyPlan,
  questionnaireToAnswer,
  type PlanStep,
} from '../../components/planStepStatus';
import {
  effectiveDueDate,
  KICK_COUNT_FROM_WEEK,
  pregnancyProgress,
} from '../../components/pregnancyProgress';
import { StatusBadge } from '../../components/StatusBadge';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { useSession } from '../../session/BloomClientContext';
import { activeCarePlansSearch, localizedPlans } from '../../components/localizedPlan';
import { outcomeLink } from './outcomeLink';
import { stageOfPregnancy, trimesterName } from './stageOfPregnancy';
import { journeyStrings } from './strings';

const BADGE_STATUS = { done: 'completed', due: 'in-progress', upcoming: 'scheduled' } as const;

function StepWindow({ step }: { step: PlanStep }) {
  const t = useT();
  if (!step.start && !step.end) return null;
  return (
    <Typography variant="body2" color="text.secondary">
      {step.start && <DateTimeDisplay value={step.start} />}
      {step.start && step.end && ` ${t(journeyStrings.to)} `}
      {step.end && <DateTimeDisplay value={step.end} />}
    </Typography>
  );
}

function StepItem({ step, now }: { step: PlanStep; now: Date }) {
  const t = useT();
  const state = planStepState(step, now);
  const answer = questionnaireToAnswer(step, now);
  return (
    <Paper
      component="li"
      variant="outlined"
      data-testid="plan-step"
      data-state={state.status}
      sx={{ p: 2, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 0.5 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 600, flex: '1 1 auto' }}>
          {step.title}
        </Typography>
        <StatusBadge status={BADGE_STATUS[state.status]} kind="care-step" />
      </Box>
      <StepWindow step={step} />
      {step.description && <Typography variant="body2">{step.description}</Typography>}
      {state.overdue && !answer && <Typography variant="body2">{t(journeyStrings.overdue)}</Typography>}
      {answer && (
        <Link component={RouterLink} to={answer} variant="body2" sx={{ fontWeight: 600 }}>
          {t(journeyStrings.answer)}
        </Link>
      )}
      {step.doneBy.map((reference) => {
        const link = outcomeLink(reference);
        return link.to ? (
          <Link key={reference} component={RouterLink} to={link.to} variant="body2">
            {t(link.label)}
          </Link>
        ) : (
          <Typography key={reference} variant="body2">
            {t(link.label)}
          </Typography>
        );
      })}
    </Paper>
  );
}

export function PregnancyTimelinePage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const t = useT();
  const locale = useLocale();
  const { profile } = useSession();
  const patient = profile?.resourceType === 'Patient' && profile.id ? `Patient/${profile.id}` : '';
  const { data, loading, error, refetch } = useQuery(PregnancyTimelineDocument, {
    variables: {
      patient,
      carePlans: activeCarePlansSearch(patient),
    },
    skip: !patient,
  });
  const plans = useMemo(
    () => localizedPlans(data?.carePlans.resources, locale, t(journeyStrings.careStep)),
    [data, locale, t],
  );
  const { dueDate, fromLastPeriod } = effectiveDueDate(
    data?.dueDate?.edges?.[0]?.resource?.valueDateTime,
    data?.lastPeriod?.edges?.[0]?.resource?.valueDateTime,
  );
  const progress = dueDate ? pregnancyProgress(dueDate, now) : undefined;
  const steps = planSteps(pregnancyPlan(plans));
  return (
    <Box sx={{ maxWidth: 900, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <PageHeading title={t(journeyStrings.title)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(journeyStrings.loading)} />}
      {data && (
        <>
          <Box component="section" aria-label={t(journeyStrings.thisWeek)} sx={{ mb: 4 }}>
            {progress && dueDate ? (
              <>
                <Typography sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
                  {t(journeyStrings.week, {
                    week: progress.weeks,
                    trimester: t(trimesterName(progress.trimester)),
                  })}
                </Typography>
                <Typography color="text.secondary" sx={{ mb: 1 }}>
                  {t(journeyStrings.progress, { weeks: progress.weeks, days: progress.days })}{' '}
                  <DateTimeDisplay value={dueDate.slice(0, 10)} />
                  {fromLastPeriod && ` ${t(journeyStrings.fromLastPeriod)}`}
                </Typography>
                <Typography>{t(stageOfPregnancy(progress.weeks))}</Typography>
                {progress.weeks >= KICK_COUNT_FROM_WEEK && (
                  <Typography sx={{ mt: 1 }}>
                    <Link component={RouterLink} to="/pregnancy/kicks">
                      {t(journeyStrings.countKicks)}
                    </Link>
                  </Typography>
                )}
              </>
            ) : (
              <Typography>
                {t(journeyStrings.noDueDate)}{' '}
                <Link component={RouterLink} to="/">
                  {t(journeyStrings.homePage)}
                </Link>
                .
              </Typography>
            )}
          </Box>
          <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 1 }}>
            {t(journeyStrings.carePlan)}
          </Typography>
          {steps.length === 0 ? (
            <EmptyState text={t(journeyStrings.noCarePlan)} />
          ) : (
            <Box
              component="ol"
              aria-label={t(journeyStrings.carePlan)}
              sx={{ p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
            >
              {steps.map((step, index) => (
                <StepItem key={`${index}-${step.title}`} step={step} now={now} />
              ))}
            </Box>
          )}
        </>
      )}
    </Box>
  );
}

export default PregnancyTimelinePage;
