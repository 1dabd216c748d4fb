import { Layout } from './components/layout';
import { MetricsDocument, PValueCorrectionsDocument, SignificanceTestsDocument } from './graphql/generated';
import { AuthProvider } from './lib/auth';
import { useQuery } from './lib/graphql-client';
import { setMetricFacts } from './lib/metric-registry';
import { setPValueCorrections, setSignificanceTests } from './lib/test-registry';
import { Link, Route, Switch, useLocation } from 'wouter';
import { AccountPage } from './pages/account-page';
import { ApiDocsPage } from './pages/api-docs-page';
import { OrganisePage } from './pages/organise-page';
import { TeamPage } from './pages/team-page';
import { PairwisePage } from './pages/pairwise-page';
import { RobustnessPage } from './pages/robustness-page';
import { SubmissionPage } from './pages/submission-page';
import { SubmitPage } from './pages/submit-page';
import { TaskPage } from './pages/task-page';
import { TasksPage } from './pages/tasks-page';

function NotFound() {
  const [pathname] = useLocation();
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{pathname}</code>. <Link to="/">See all tasks</Link>.
      </p>
    </section>
  );
}

function Routes() {
  return (
    <Switch>
      <Route path="/" component={TasksPage} />
      <Route path="/tasks" component={TasksPage} />
      <Route path="/tasks/:slug">{(p) => <TaskPage slug={p.slug} />}</Route>
      <Route path="/tasks/:slug/robustness">{(p) => <RobustnessPage slug={p.slug} />}</Route>
      <Route path="/phases/:id/pairwise">{(p) => <PairwisePage phaseId={p.id} />}</Route>
      <Route path="/submissions/:id">{(p) => <SubmissionPage id={p.id} />}</Route>
      <Route path="/submit" component={SubmitPage} />
      <Route path="/organise" component={OrganisePage} />
      <Route path="/account" component={AccountPage} />
      <Route path="/team" component={TeamPage} />
      <Route path="/api-docs" component={ApiDocsPage} />
      <Route component={NotFound} />
    </Switch>
  );
}

/** Metric facts (display names, directions) come from the API's registry; labels re-render when it answers. */
function MetricFacts() {
  const registry = useQuery(MetricsDocument, {});
  if (registry.data) setMetricFacts(registry.data.metrics);
  return null;
}

/** The significance tests come from the API's ranking registry; selectors and tables re-render when it answers. */
function SignificanceTests() {
  const registry = useQuery(SignificanceTestsDocument, {});
  if (registry.data) setSignificanceTests(registry.data.significanceTests);
  return null;
}

/** The p-value corrections come from the API (libs/ranking's list); the selector and legends re-render when it answers. */
function PValueCorrections() {
  const registry = useQuery(PValueCorrectionsDocument, {});
  if (registry.data) setPValueCorrections(registry.data.pValueCorrections);
  return null;
}

export function App() {
  return (
    <AuthProvider>
      <MetricFacts />
      <SignificanceTests />
      <PValueCorrections />
      <Layout>
        <Routes />
      </Layout>
    </AuthProvider>
  );
}
