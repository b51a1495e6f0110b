// `tsx bench/graphql/run.ts`: the GraphQL benchmark alone (npm run bench runs it with the others).
import { formatLabDetail, measureGraphQLLabDetail } from './lab-detail';

measureGraphQLLabDetail().then(
  (figures) => {
    console.log(formatLabDetail(figures));
    console.log(JSON.stringify(figures));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
