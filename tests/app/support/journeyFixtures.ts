// GraphQL answer fixtures the journey screens share (kick count, timeline, their Spanish scan):
// Maria's Patient with her clinic's name and phone, and her due date as an Observation connection.

export const clinicPatient = {
  __typename: 'Patient',
  id: 'maria-1',
  managingOrganization: {
    display: 'Bloom Clinic',
    resource: {
      __typename: 'Organization',
      id: 'org',
      name: 'Bloom Clinic',
      telecom: [{ system: 'phone', value: '+1 555 0100' }],
    },
  },
};

/** A due date (estimated date of delivery) as the screens' ObservationConnection answer. */
export function dueDate(value: string) {
  return {
    __typename: 'ObservationConnection',
    edges: [
      {
        resource: { __typename: 'Observation', resourceType: 'Observation', id: 'edd', valueDateTime: value },
      },
    ],
  };
}
