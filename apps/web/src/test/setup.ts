import { configure } from '@testing-library/react';

// The web tests run beside the server's integration tests on CI's two cores: a page that shows its answer after 1 s
// (Testing Library's default wait) is slow there, not wrong: a lazily loaded page took 8 s at a load of 14. Waits and
// tests get the time a loaded machine needs; a test that fails still fails, later.
configure({ asyncUtilTimeout: 10_000 });
