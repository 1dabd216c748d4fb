import { useState, type SyntheticEvent } from 'react';
import { LoginDocument, RegisterDocument } from '../graphql/generated';
import { useAuth } from '../lib/auth';
import { ApiError, request } from '../lib/graphql-client';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { ErrorMessage } from '../components/status';

/** Sign up (name, e-mail, password) or sign in; both start a web session (http-only cookie). */
export function AccountPage() {
  const { me, refresh } = useAuth();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [login, setLogin] = useState('');
  const [loginPassword, setLoginPassword] = useState('');
  const [error, setError] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      refresh();
      navigate('/team');
    } catch (e) {
      setError(e instanceof ApiError ? e : String(e));
    } finally {
      setBusy(false);
    }
  }
  const register = (e: SyntheticEvent) => {
    e.preventDefault();
    void act(() => request(RegisterDocument, { name: name.trim(), email: email.trim(), password }));
  };
  const signIn = (e: SyntheticEvent) => {
    e.preventDefault();
    void act(() => request(LoginDocument, { login: login.trim(), password: loginPassword }));
  };

  return (
    <section>
      <h1>Sign in or register</h1>
      {me && (
        <p className="status status-ok">
          Signed in as {me.name}. Go to <Link to="/team">your team</Link>.
        </p>
      )}
      {error && <ErrorMessage error={error} title="Refused" />}
      <div className="two-columns">
        <form className="form" onSubmit={register} aria-labelledby="register-heading" data-testid="register-form">
          <h2 id="register-heading">Register as a participant</h2>
          <label>
            Name (shown to others; no @)
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} required minLength={2} maxLength={100} pattern="[^@]*" autoComplete="username" />
          </label>
          <label>
            E-mail
            <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
          </label>
          <label>
            Password (at least 10 characters)
            <input name="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} required minLength={10} autoComplete="new-password" />
          </label>
          <p className="small muted">
            An e-mail address that already has an account is not attached to a new one (we do not say which): you can always sign in with your name.
          </p>
          <button type="submit" disabled={busy}>
            Register
          </button>
        </form>
        <form className="form" onSubmit={signIn} aria-labelledby="login-heading" data-testid="login-form">
          <h2 id="login-heading">Sign in</h2>
          <label>
            Name or e-mail
            <input name="login" value={login} onChange={(e) => setLogin(e.target.value)} required autoComplete="username" />
          </label>
          <label>
            Password
            <input name="login-password" type="password" value={loginPassword} onChange={(e) => setLoginPassword(e.target.value)} required autoComplete="current-password" />
          </label>
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </form>
      </div>
      <p className="small muted">Scripts and the <code>podium</code> command use API tokens instead; create them on your team page.</p>
    </section>
  );
}
