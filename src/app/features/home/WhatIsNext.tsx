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
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { HomeSummaryDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadError, LoadingState } from '../../components/ListStates';
import {
  nextPlanStep,
  planSteps,
  pregnancyPlan,
  questionnaireToAnswer,
} from '../../components/planStepStatus';
import { ResourceLink } from '../../components/ResourceLink';
import { effectiveDueDate, pregnancyProgress } from '../../components/pregnancyProgress';
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
  const iso = now.toISOString();
  const { data, loading, error, refetch } = useQuery(HomeSummaryDocument, {
    variables: { patient, from: `ge${iso}`, after: `gt${iso}` },
  });
  if (loading && !data) return <LoadingState label="Loading your summary" />;
  if (error) return <LoadError error={error} />;
  const recorded = data?.dueDate?.edges?.[0]?.resource?.valueDateTime;
  const lastPeriod = data?.lastPeriod?.edges?.[0]?.resource?.valueDateTime;
  const { dueDate, fromLastPeriod } = effectiveDueDate(recorded, lastPeriod);
  const progress = dueDate ? pregnancyProgress(dueDate, now) : undefined;
  const appointment = data?.nextAppointment?.edges?.[0]?.resource;
  const vaccine = data?.nextVaccine?.edges?.[0]?.resource;
  const nextStep = nextPlanStep(planSteps(pregnancyPlan(data?.CarePlanList)), now);
  const answer = nextStep ? questionnaireToAnswer(nextStep, now) : undefined;
  return (
    <Grid container spacing={2} sx={{ mt: 4 }}>
      {progress && dueDate && (
        <SummaryCard title="Your pregnancy">
          <Typography sx={{ fontWeight: 600 }}>
            {progress.weeks} weeks {progress.days} days · trimester {progress.trimester}
          </Typography>
          <Typography variant="body2">
            Due date: <DateTimeDisplay value={dueDate.slice(0, 10)} />
            {fromLastPeriod && ' (from the first day of your last period)'}
          </Typography>
          <Link component={RouterLink} to="/pregnancy" variant="body2">
            Your pregnancy timeline
          </Link>
        </SummaryCard>
      )}
      {!dueDate && (
        <SummaryCard title="Your pregnancy">
          <UnknownDueDateCard patient={patient} now={now} onSaved={() => void refetch()} />
        </SummaryCard>
      )}
      {nextStep && (
        <SummaryCard title="Next step">
          <Typography sx={{ fontWeight: 600 }}>{nextStep.title}</Typography>
          {nextStep.start && (
            <Typography variant="body2">
              From <DateTimeDisplay value={nextStep.start} />
              {nextStep.end && (
                <>
                  {' '}
                  to <DateTimeDisplay value={nextStep.end} />
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
              Answer the questionnaire
            </Link>
          )}
          <Link component={RouterLink} to="/pregnancy" variant="body2">
            See your care plan
          </Link>
        </SummaryCard>
      )}
      {appointment && (
        <SummaryCard title="Next appointment">
          <Typography sx={{ fontWeight: 600 }}>
            <DateTimeDisplay value={appointment.start} />
          </Typography>
          {appointment.description && <Typography variant="body2">{appointment.description}</Typography>}
        </SummaryCard>
      )}
      {vaccine && (
        <SummaryCard title="Next vaccine">
          <ResourceLink to={`/health-record/vaccines/${vaccine.id}`}>
            {vaccine.vaccineCode?.text ?? 'Vaccine'}
          </ResourceLink>
          <Typography variant="body2">
            <DateTimeDisplay value={vaccine.occurrenceDateTime} />
          </Typography>
        </SummaryCard>
      )}
    </Grid>
  );
}
