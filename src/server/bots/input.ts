// The request body of $execute as the bot's event.input: JSON types parsed, text as a
// string, anything else as received (a string of its bytes in latin1, so no byte is lost).
import { badRequest, OperationOutcomeError } from '../../fhir';

export interface BotInput {
  input: unknown;
  contentType: string;
}

export function decodeBotInput(body: unknown, contentTypeHeader: string | undefined): BotInput {
  const contentType =
    (contentTypeHeader ?? '').split(';')[0].trim().toLowerCase() || 'application/octet-stream';
  if (!Buffer.isBuffer(body) || body.length === 0) {
    return { input: undefined, contentType };
  }
  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    try {
      return { input: JSON.parse(body.toString('utf8')) as unknown, contentType };
    } catch {
      throw new OperationOutcomeError(
        badRequest(`The body is not valid JSON although its type is ${contentType}`),
      );
    }
  }
  if (
    contentType.startsWith('text/') ||
    contentType === 'application/x-www-form-urlencoded' ||
    contentType.includes('xml') ||
    contentType === 'x-application/hl7-v2+er7'
  ) {
    return { input: body.toString('utf8'), contentType };
  }
  return { input: body.toString('latin1'), contentType };
}
