// The Repository's check of a QuestionnaireResponse before it is stored (create, update, patch,
// batch and transaction alike): it must answer the Questionnaire its `questionnaire` canonical
// names, found in the response's own project among the Questionnaires the writer may read; a 400
// OperationOutcome names each item at fault.
import type {
  OperationOutcomeIssue,
  Questionnaire,
  QuestionnaireResponse,
  Resource,
} from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError, validationOutcome } from '../../fhir';
import type { RepositoryContext } from '../access/context';
import type { Queryable } from '../db';
import { visibleSql } from '../search/filter-sql';
import { continuingParams } from '../search/policy-sql';
import { answerValueSets } from './answer-value-sets';
import { questionnaireResponseProblems } from './response-problems';

/**
 * The newest live Questionnaire with this canonical (`url` or `url|version`) in the project that
 * the writer may read: one her policy hides is answered as one that does not exist.
 */
async function findQuestionnaire(
  connection: Queryable,
  context: RepositoryContext,
  canonical: string,
  project: string | undefined,
): Promise<Questionnaire | undefined> {
  const bar = canonical.indexOf('|');
  // A form without a url is named by its reference, 'Questionnaire/{id}', as Medplum's apps do.
  const byId = /^Questionnaire\/([A-Za-z0-9\-.]{1,64})$/.exec(canonical);
  const params = continuingParams([byId ? byId[1] : bar < 0 ? canonical : canonical.slice(0, bar)]);
  const where = [
    "r.resource_type = 'Questionnaire'",
    'NOT r.deleted',
    byId ? 'r.id = $1' : "r.content->>'url' = $1",
  ];
  if (bar >= 0 && !byId) {
    where.push(`r.content->>'version' = ${params.add(canonical.slice(bar + 1))}`);
  }
  if (project) {
    where.push(`r.project = ${params.add(project)}`);
  }
  where.push(...visibleSql(context, 'Questionnaire', 'r', params, 'read'));
  const { rows } = await connection.query<{ content: Questionnaire }>(
    `SELECT r.content FROM resource r WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT 1`,
    params.values,
  );
  return rows[0]?.content;
}

/** Throws a 400 when `stored` is a QuestionnaireResponse that does not answer its Questionnaire. */
export async function checkQuestionnaireResponse(
  connection: Queryable,
  context: RepositoryContext,
  stored: Resource,
): Promise<void> {
  if (stored.resourceType !== 'QuestionnaireResponse') {
    return;
  }
  const response = stored as QuestionnaireResponse;
  // FHIR makes `questionnaire` optional: a response to no form has nothing to be checked against.
  if (!response.questionnaire) {
    return;
  }
  const questionnaire = await findQuestionnaire(
    connection,
    context,
    response.questionnaire,
    stored.meta?.project,
  );
  if (!questionnaire) {
    throw new OperationOutcomeError(
      badRequest(
        `QuestionnaireResponse.questionnaire: no Questionnaire ${response.questionnaire} in this project`,
        'QuestionnaireResponse.questionnaire',
      ),
    );
  }
  const valueSets = await answerValueSets(connection, context, questionnaire, response);
  const problems = questionnaireResponseProblems(questionnaire, response, valueSets);
  if (problems.length > 0) {
    const issues = problems.map(({ expression, message }): OperationOutcomeIssue => ({
      severity: 'error',
      code: 'invalid',
      details: { text: message },
      expression: [expression],
    }));
    throw new OperationOutcomeError(validationOutcome(issues));
  }
}
