import { useEffect, useState } from 'react'
import { ApiError, getKey, gql, setKey, signOut } from './api'
import { match, navigate, onLink, usePath } from './router'
import { WorkflowsPage } from './pages/Workflows'
import { WorkflowPage } from './pages/Workflow'
import { PlaygroundPage } from './pages/Playground'
import { RunsTable, SessionsPage, SessionPage, type RunRow } from './pages/Sessions'
import { RunPage } from './pages/Run'

interface Me {
  workspaceName: string
  role: string
}

// Each page is one entry: a new page (approvals, knowledge bases, models)
// is one more line here and one more component.
const nav = [
  { href: '/workflows', label: 'Workflows' },
  { href: '/playground', label: 'Playground' },
  { href: '/sessions', label: 'Sessions & runs' },
  { href: '/approvals', label: 'Approvals' },
]

export function App() {
  const [key, setKeyState] = useState(getKey())
  const [me, setMe] = useState<Me | null>(null)
  const [path, params] = usePath()

  useEffect(() => {
    if (!key) return
    gql<{ me: Me }>('{ me { workspaceName role } }')
      .then((d) => setMe(d.me))
      .catch((e) => {
        if (e instanceof ApiError && e.code === 'UNAUTHENTICATED') {
          signOut()
          setKeyState(null)
        }
      })
  }, [key])

  useEffect(() => {
    if (key && (path === '/' || path === '')) {
      history.replaceState(null, '', '/workflows')
      window.dispatchEvent(new PopStateEvent('popstate'))
    }
  }, [key, path])

  if (!key) return <SignIn onSignedIn={(k) => setKeyState(k)} />

  let page: React.ReactNode
  let m: Record<string, string> | null
  if (path === '/' || path === '') page = null
  else if (path === '/workflows') page = <WorkflowsPage />
  else if ((m = match('/workflows/:id', path))) page = <WorkflowPage id={Number(m.id)} params={params} />
  else if (path === '/playground') page = <PlaygroundPage params={params} />
  else if (path === '/sessions') page = <SessionsPage />
  else if ((m = match('/sessions/:id', path))) page = <SessionPage id={Number(m.id)} />
  else if ((m = match('/runs/:id', path))) page = <RunPage id={Number(m.id)} />
  else if (path === '/approvals') page = <ApprovalsPage />
  else page = <p>No page at {path}.</p>

  return (
    <div className="frame">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Wetel</span>
        <span className="workspace">{me ? `${me.workspaceName} · ${me.role}` : ''}</span>
        <button
          type="button"
          className="signout"
          onClick={() => {
            signOut()
            setKeyState(null)
            setMe(null)
            navigate('/')
          }}
        >
          Sign out
        </button>
      </header>
      <nav className="side" aria-label="Main">
        <ul>
          {nav.map((n) => (
            <li key={n.href}>
              <a href={n.href} onClick={onLink} aria-current={path.startsWith(n.href) || (n.href === '/sessions' && path.startsWith('/runs')) ? 'page' : undefined}>
                {n.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </div>
  )
}

function SignIn({ onSignedIn }: { onSignedIn: (k: string) => void }) {
  const [k, setK] = useState('')
  const [err, setErr] = useState('')
  const [busy, setBusy] = useState(false)
  return (
    <div className="signin">
      <form
        onSubmit={async (e) => {
          e.preventDefault()
          setBusy(true)
          setErr('')
          try {
            await gql('{ me { workspaceId } }', undefined, k.trim())
            setKey(k.trim())
            onSignedIn(k.trim())
          } catch (e) {
            setErr(e instanceof Error ? e.message : String(e))
          } finally {
            setBusy(false)
          }
        }}
      >
        <h1>Sign in to Wetel</h1>
        <label htmlFor="apikey">API key</label>
        <input
          id="apikey"
          type="password"
          autoComplete="off"
          autoFocus
          value={k}
          onChange={(e) => setK(e.target.value)}
          aria-describedby="apikey-help"
          aria-invalid={err ? true : undefined}
        />
        <p id="apikey-help" className="help">
          The key <code>wetel serve</code> printed on its first start. It is kept in this tab's session storage only, and
          forgotten when you sign out or close the tab.
        </p>
        {err && (
          <p className="error" role="alert">
            {err}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || k.trim() === ''}>
          Sign in
        </button>
      </form>
    </div>
  )
}

function ApprovalsPage() {
  const [runs, setRuns] = useState<RunRow[] | null>(null)
  const [err, setErr] = useState('')
  useEffect(() => {
    gql<{ workflowRuns: RunRow[] }>(
      '{ workflowRuns(status: AWAITING_APPROVAL, first: 100) { id status version workflowId resumedFromRunId errorCode startedAt finishedAt } }',
    )
      .then((d) => setRuns(d.workflowRuns))
      .catch((e) => setErr(e.message))
  }, [])
  return (
    <section>
      <h1>Approvals</h1>
      <p className="help">
        Runs paused at an approval node wait here. Deciding them from the dashboard comes with the server's approval API; until
        then this page lists them.
      </p>
      {err && <p className="error" role="alert">{err}</p>}
      {runs && runs.length === 0 && <p className="empty">No run is waiting for approval.</p>}
      {runs && runs.length > 0 && <RunsTable runs={runs} />}
    </section>
  )
}
