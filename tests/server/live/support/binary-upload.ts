// A Binary uploaded by `uploader` (a practitioner) into `patient`'s compartment (X-Security-Context),
// as the clinic does with a scan it sends her: the attachment-signing tests of live updates use it.
import type { Binary } from '@medplum/fhirtypes';
import type { Tokens } from '../../auth/support/auth-fixtures';

export async function uploadInto(
  fhirUrl: string,
  uploader: Tokens,
  patient: Tokens,
  bytes: Buffer,
): Promise<Binary> {
  const response = await fetch(`${fhirUrl}Binary?_filename=scan.png`, {
    method: 'POST',
    headers: {
      'content-type': 'image/png',
      authorization: `Bearer ${uploader.access_token}`,
      'x-security-context': patient.profile?.reference as string,
    },
    body: new Uint8Array(bytes),
  });
  if (response.status !== 201) {
    throw new Error(`Binary upload answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as Binary;
}
