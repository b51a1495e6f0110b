// "Load more" under a paged list (lists are never silently cut at a page): shows how many of
// the total are loaded and fetches the next page.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useT } from '../../i18n/LocaleProvider';
import { recordStrings as m } from './strings';

export function LoadMore({
  loaded,
  total,
  loading,
  onLoadMore,
}: {
  loaded: number;
  total: number | null | undefined;
  loading: boolean;
  onLoadMore: () => void;
}) {
  const t = useT();
  if (total === null || total === undefined || loaded >= total) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {t(m.showing, { loaded, total })}
      </Typography>
      <Button variant="outlined" onClick={onLoadMore} disabled={loading}>
        {t(m.loadMore)}
      </Button>
    </Box>
  );
}
