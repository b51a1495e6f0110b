// `tsx bench/app/messages-run.ts`: the long messages thread benchmark alone (npm run bench
// runs it too, MESSAGES_BENCH=0 skips it there). MESSAGES_BENCH_COUNT sets the thread's length.
import { formatMessagesThread, measureMessagesThread } from './messages-thread';

measureMessagesThread(Number(process.env.MESSAGES_BENCH_COUNT ?? 400)).then(
  (figures) => {
    console.log(formatMessagesThread(figures));
    console.log(JSON.stringify(figures));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
