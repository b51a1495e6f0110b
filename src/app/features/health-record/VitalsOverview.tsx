// health-record/vitals (SPEC §2 Vitals): the three vital types, each linking to its chart page.
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import { ResourceLink } from '../../components/ResourceLink';
import { PageHeading } from '../../components/PageHeading';
import { useHealthRecordBase } from './usePatientReference';
import { VITAL_TYPES } from './vitalTypes';

export function VitalsOverview() {
  const base = useHealthRecordBase();
  return (
    <>
      <PageHeading title="Vitals" />
      <List aria-label="Vital types">
        {VITAL_TYPES.map((vital) => (
          <ListItem key={vital.slug} divider sx={{ px: 0 }}>
            <ResourceLink to={`${base}/vitals/${vital.slug}`}>{vital.title}</ResourceLink>
          </ListItem>
        ))}
      </List>
    </>
  );
}
