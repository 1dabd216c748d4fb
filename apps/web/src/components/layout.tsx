import { useEffect, useState, type SyntheticEvent, type ReactNode } from 'react';
import { useAuth } from '../lib/auth';
import { Link, useLocation } from 'wouter';

function NavLink({ to, children }: { to: string; children: ReactNode }) {
  const [pathname] = useLocation();
  const current = to === '/' ? pathname === '/' || pathname.startsWith('/tasks') : pathname.startsWith(to);
  return (
    <Link to={to} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function TokenForm() {
  const { signedIn, me, loading, tokenError, signIn, signOut } = useAuth();
  const [value, setValue] = useState('');
  const [open, setOpen] = useState(false);
  if (signedIn) {
    return (
      <div className="who">
        <span data-testid="who">{loading && !me ? 'checking…' : me ? `${me.name} (${me.role.toLowerCase()})` : 'signed out'}</span>
        <button type="button" className="link-button" onClick={signOut}>
          Sign out
        </button>
      </div>
    );
  }
  if (!open && !tokenError) {
    return (
      <div className="who">
        <Link to="/account">Sign in or register</Link>
        <button type="button" className="link-button" onClick={() => setOpen(true)}>
          Use a token
        </button>
      </div>
    );
  }
  function submit(e: SyntheticEvent) {
    e.preventDefault();
    if (value.trim()) signIn(value);
  }
  return (
    <form className="token-form" onSubmit={submit}>
      <label htmlFor="token">API token</label>
      <input id="token" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} placeholder="team or organiser token" autoFocus />
      <button type="submit">Sign in</button>
      {tokenError && (
        <span className="error-text small" role="alert" data-testid="who">
          token rejected: {tokenError}
        </span>
      )}
    </form>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  // A new page starts at its top, as after a full load; query-string changes (selectors) keep the scroll.
  // A block body: Chromium's scrollTo returns a promise, which React would call as the cleanup.
  const [pathname] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          Podium
        </Link>
        <nav aria-label="Main">
          <NavLink to="/">Tasks</NavLink>
          <NavLink to="/submit">Submit</NavLink>
          <NavLink to="/team">Team</NavLink>
          <NavLink to="/organise">Organise</NavLink>
          <NavLink to="/api-docs">API</NavLink>
        </nav>
        <TokenForm />
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
