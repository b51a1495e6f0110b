import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Screens load lazily (route-level code splitting) and jest runs several suites at once on small CI
// machines: findBy* waits up to 5 s instead of 1 s, so a busy machine is not read as a failure.
configure({ asyncUtilTimeout: 5000 });
