// End-to-end tests start real processes; `testTimeout` in a project config is ignored when the
// root config runs several projects, so the timeout is set here.
jest.setTimeout(180_000);
