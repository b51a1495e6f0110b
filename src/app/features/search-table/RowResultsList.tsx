// The per-row report of a bulk action (Delete..., Bulk...): how many succeeded and each failure with
// the server's reason.
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import type { RowResult } from './batchResults';

export function RowResultsList({
  resourceType,
  results,
  verb,
}: {
  resourceType: string;
  results: readonly RowResult[];
  verb: string;
}) {
  const failed = results.filter((result) => !result.ok);
  const succeeded = results.length - failed.length;
  return (
    <>
      <Alert severity={failed.length === 0 ? 'success' : 'warning'} sx={{ mb: 1 }}>
        {`${succeeded} of ${results.length} ${verb}.`}
        {failed.length > 0 ? ` ${failed.length} failed.` : ''}
      </Alert>
      {failed.length > 0 && (
        <List dense aria-label="Failures">
          {failed.map((result) => (
            <ListItem
              key={result.id}
            >{`${resourceType}/${result.id}: ${result.message ?? 'failed'}`}</ListItem>
          ))}
        </List>
      )}
    </>
  );
}
