// Home's "where the pregnancy stands and what is next": weeks and due date when the record
// holds an estimated delivery date (else one worked out from the last period she entered, else a card
// to ask the care team or enter that date), the next step of the clinic's care plan (with a link to
// answer its questionnaire when the step offers one), the next
// appointment and the next vaccine. One HomeSummary query.
import { useQuery } from '@apollo/client/react';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMemo, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { HomeSummaryDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { activeCarePlansSearch, localizedPlans } from '../../components/localizedPlan';
import { LoadError, LoadingState } from '../../components/ListStates';
import {
  nextPlanStep,
  planSteps,
  pregnancyPlan,
  questionnaireToAnswer,
} from '../../components/planStepStatus';
import { ResourceLink } from '../../components/ResourceLink';
import { effectiveDueDate, pregnancyProgress } from '../../components/pregnancyProgress';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { homeStrings as m } from './strings';
import { UnknownDueDateCard } from './UnknownDueDateCard';

function SummaryCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
      <Card variant="outlined" sx={{ height: '100%' }} component="section" aria-label={title}>
        <CardContent>
          <Typography variant="h3" sx={{ fontSize: '1rem', color: 'text.secondary', mb: 1 }}>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Grid>
  );
}

export function WhatIsNext({ patient, now }: { patient: string; now: Date }) {
  const t = useT();
  const locale = useLocale();
  const iso = now.toISOString();
  const { data, loading, error, refetch } = useQuery(HomeSummaryDocument, {
    variables: { patient, from: `ge${iso}`, after: `gt${iso}`, carePlans: activeCarePlansSearch(patient) },
  });
  const plans = useMemo(
    () => localizedPlans(data?.carePlans.resources, locale, t(m.careStep)),
    [data, locale, t],
  );
  if (loading && !data) return <LoadingState label={t(m.loading)} />;
  if (error) return <LoadError error={error} />;
  const recorded = data?.dueDate?.edges?.[0]?.resource?.valueDateTime;
  const lastPeriod = data?.lastPeriod?.edges?.[0]?.resource?.valueDateTime;
  const { dueDate, fromLastPeriod } = effectiveDueDate(recorded, lastPeriod);
  const progress = dueDate ? pregnancyProgress(dueDate, now) : undefined;
  const appointment = data?.nextAppointment?.edges?.[0]?.resource;
  const vaccine = data?.nextVaccine?.edges?.[0]?.resource;
  const nextStep = nextPlanStep(planSteps(pregnancyPlan(plans)), now);
  const answer = nextStep ? questionnaireToAnswer(nextStep, now) : undefined;
  return (
    <Grid container spacing={2} sx={{ mt: 4 }}>
      {progress && dueDate && (
        <SummaryCard title={t(m.pregnancyTitle)}>
          <Typography sx={{ fontWeight: 600 }}>
            {t(m.pregnancyProgress, {
              weeks: progress.weeks,
              days: progress.days,
              trimester: progress.trimester,
            })}
          </Typography>
          <Typography variant="body2">
            {t(m.dueDate)} <DateTimeDisplay value={dueDate.slice(0, 10)} />
            {fromLastPeriod && ` ${t(m.fromLastPeriod)}`}
          </Typography>
          <Link component={RouterLink} to="/pregnancy" variant="body2">
            {t(m.timeline)}
          </Link>
        </SummaryCard>
      )}
      {!dueDate && (
        <SummaryCard title={t(m.pregnancyTitle)}>
          <UnknownDueDateCard patient={patient} now={now} onSaved={() => void refetch()} />
        </SummaryCard>
      )}
      {nextStep && (
        <SummaryCard title={t(m.nextStepTitle)}>
          <Typography sx={{ fontWeight: 600 }}>{nextStep.title}</Typography>
          {nextStep.start && (
            <Typography variant="body2">
              {t(m.nextStepFrom)} <DateTimeDisplay value={nextStep.start} />
              {nextStep.end && (
                <>
                  {' '}
                  {t(m.nextStepTo)} <DateTimeDisplay value={nextStep.end} />
                </>
              )}
            </Typography>
          )}
          {answer && (
            <Link
              component={RouterLink}
              to={answer}
              variant="body2"
              sx={{ display: 'block', fontWeight: 600 }}
            >
              {t(m.answerQuestionnaire)}
            </Link>
          )}
          <Link component={RouterLink} to="/pregnancy" variant="body2">
            {t(m.seeCarePlan)}
          </Link>
        </SummaryCard>
      )}
      {appointment && (
        <SummaryCard title={t(m.nextAppointment)}>
          <Typography sx={{ fontWeight: 600 }}>
            <DateTimeDisplay value={appointment.start} />
          </Typography>
          {appointment.description && <Typography variant="body2">{appointment.description}</Typography>}
        </SummaryCard>
      )}
      {vaccine && (
        <SummaryCard title={t(m.nextVaccine)}>
          <ResourceLink to={`/health-record/vaccines/${vaccine.id}`}>
            {vaccine.vaccineCode?.text ?? t(m.vaccine)}
          </ResourceLink>
          <Typography variant="body2">
            <DateTimeDisplay value={vaccine.occurrenceDateTime} />
          </Typography>
        </SummaryCard>
      )}
    </Grid>
  );
}
