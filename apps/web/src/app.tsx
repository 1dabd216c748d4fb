import { Layout } from './components/layout';
import { MetricsDocument } from './graphql/generated';
import { AuthProvider } from './lib/auth';
import { useQuery } from './lib/graphql-client';
import { setMetricFacts } from './lib/metric-registry';
import { matchPath, useLocation } from './lib/router';
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
import { Link } from './lib/router';

function Routes() {
  const { pathname } = useLocation();
  let m: Record<string, string> | null;
  if (pathname === '/' || pathname === '/tasks') return <TasksPage />;
  if ((m = matchPath('/tasks/:slug', pathname))) return <TaskPage slug={m['slug']!} />;
  if ((m = matchPath('/tasks/:slug/robustness', pathname))) return <RobustnessPage slug={m['slug']!} />;
  if ((m = matchPath('/phases/:id/pairwise', pathname))) return <PairwisePage phaseId={m['id']!} />;
  if ((m = matchPath('/submissions/:id', pathname))) return <SubmissionPage id={m['id']!} />;
  if (pathname === '/submit') return <SubmitPage />;
  if (pathname === '/organise') return <OrganisePage />;
  if (pathname === '/account') return <AccountPage />;
  if (pathname === '/team') return <TeamPage />;
  if (pathname === '/api-docs') return <ApiDocsPage />;
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{pathname}</code>. <Link to="/">See all tasks</Link>.
      </p>
    </section>
  );
}

export function App() {
  // Metric facts (display names, directions) come from the API's registry; labels re-render when it answers.
  const registry = useQuery(MetricsDocument, {});
  if (registry.data) setMetricFacts(registry.data.metrics);
  return (
    <AuthProvider>
      <Layout>
        <Routes />
      </Layout>
    </AuthProvider>
  );
}
