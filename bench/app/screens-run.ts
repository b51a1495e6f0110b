// `tsx bench/app/screens-run.ts`: the patient screens' on-wire budgets and times alone (bench/app/run.ts
// adds the search table). Exits 1 when a screen is over its budget, so a script can gate on it.
import { formatApp, measureApp, screenBudgetKb } from './index';

measureApp().then(
  (figures) => {
    console.log(formatApp(figures));
    console.log(JSON.stringify(figures));
    process.exit(figures.screens.some((s) => s.wireKb > screenBudgetKb(s.name)) ? 1 : 0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
