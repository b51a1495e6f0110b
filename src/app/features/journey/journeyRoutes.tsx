// Routes of the pregnancy journey: /pregnancy, the patient's timeline, and /pregnancy/questionnaire,
// which opens the form a care-plan step offers (each its own chunk).
import type { RouteObject } from 'react-router-dom';
import { retryableLazy } from '../../components/retryableLazy';

const PregnancyTimelinePage = retryableLazy(() => import('./PregnancyTimelinePage'));
const AnswerQuestionnairePage = retryableLazy(() => import('./AnswerQuestionnairePage'));

export const journeyRoutes: RouteObject[] = [
  { path: 'pregnancy', element: <PregnancyTimelinePage /> },
  { path: 'pregnancy/questionnaire', element: <AnswerQuestionnairePage /> },
];
