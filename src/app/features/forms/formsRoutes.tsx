// Routes of the forms area: forms (the clinic's questionnaires and the patient's
// answers), forms/{questionnaireId} (answer one) and forms/responses/{responseId} (one sent). Each screen is its own chunk (React.lazy).
import type { RouteObject } from 'react-router-dom';
import { retryableLazy } from '../../components/retryableLazy';

const FormsPage = retryableLazy(() => import('./FormsPage').then((m) => ({ default: m.FormsPage })));
const QuestionnairePage = retryableLazy(() =>
  import('./QuestionnairePage').then((m) => ({ default: m.QuestionnairePage })),
);
const ResponsePage = retryableLazy(() => import('./ResponsePage').then((m) => ({ default: m.ResponsePage })));

export const formsRoutes: RouteObject[] = [
  { path: 'forms', element: <FormsPage /> },
  { path: 'forms/:questionnaireId', element: <QuestionnairePage /> },
  { path: 'forms/responses/:responseId', element: <ResponsePage /> },
];
