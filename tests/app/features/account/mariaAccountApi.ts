// The fake API of Maria's account/profile screen: who she is (auth/me) and the profile form's one
// GraphQL query, shared by the tests of the profile's cards.
import { installFakeApi, maria, storeMariaLogin, type FakeApi } from '../../support/fakeApi';

export const MFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const MFA_ENROLL_URI = `otpauth://totp/Bloom:maria%40bloom.example?issuer=Bloom&secret=${MFA_SECRET}&algorithm=SHA1&digits=6&period=30`;

export function installMariaAccountApi(): FakeApi {
  const api = installFakeApi();
  storeMariaLogin();
  api.always('GET auth/me', 200, {
    user: { resourceType: 'User', id: 'user-1', email: 'maria@bloom.example' },
    profile: maria,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1' },
  });
  // The profile form's one query (AccountProfile; its states are tested in accountPages.test.tsx).
  api.always('POST fhir/R4/$graphql', 200, {
    data: {
      Patient: {
        resourceType: 'Patient',
        id: 'maria-1',
        name: [{ use: null, text: null, given: ['Maria'], family: 'Garcia' }],
        gender: 'female',
        birthDate: null,
        telecom: [{ system: 'email', value: 'maria@bloom.example', use: null }],
        address: null,
      },
    },
  });
  return api;
}
