import { useEffect, useState } from 'react'
import { ApiError, getKey, gql, setKey, signOut } from './api'
import { match, navigate, onLink, usePath } from './router'
import { WorkflowsPage } from './pages/Workflows'
import { WorkflowPage } from './pages/Workflow'
import { PlaygroundPage } from './pages/Playground'
import { SessionsPage, SessionPage } from './pages/Sessions'
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

type PendingApproval = { id: number; sessionId: number; runId: number; nodeId: string; prompt: string; expiresAt: string | null }

// ApprovalsPage lists what waits for an owner's decision and decides it:
// decideApproval starts the run's continuation, whose reply is shown.
function ApprovalsPage() {
  const [pending, setPending] = useState<PendingApproval[] | null>(null)
  const [err, setErr] = useState('')
  const [notes, setNotes] = useState<Record<number, string>>({})
  const [outcome, setOutcome] = useState<Record<number, string>>({})
  const load = () =>
    gql<{ pendingApprovals: PendingApproval[] }>('{ pendingApprovals { id sessionId runId nodeId prompt expiresAt } }')
      .then((d) => setPending(d.pendingApprovals))
      .catch((e) => setErr(e.message))
  useEffect(() => {
    load()
  }, [])
  const decide = (a: PendingApproval, approve: boolean) => {
    gql<{ decideApproval: { messages: { text: string }[] } }>(
      'mutation($id: Int!, $ok: Boolean!, $note: String) { decideApproval(id: $id, approve: $ok, note: $note) { messages { text } } }',
      { id: a.id, ok: approve, note: notes[a.id] ?? '' },
    )
      .then((d) => {
        const said = d.decideApproval.messages.map((m) => m.text).join(' ')
        setOutcome({ ...outcome, [a.id]: (approve ? 'Approved' : 'Rejected') + (said ? ': the session was told “' + said + '”' : '') })
      })
      .catch((e) => setOutcome({ ...outcome, [a.id]: e instanceof ApiError ? `${e.code}: ${e.message}` : String(e) }))
  }
  return (
    <section>
      <h1>Approvals</h1>
      <p className="help">
        Runs paused at an approval node wait here for an owner. Approving or rejecting continues the run down its approved or
        rejected edge, as a new run; a second decision is refused.
      </p>
      {err && <p className="error" role="alert">{err}</p>}
      {pending && pending.length === 0 && <p className="empty">No run is waiting for approval.</p>}
      {pending && pending.length > 0 && (
        <table className="list approvals">
          <thead>
            <tr>
              <th>Prompt</th>
              <th>Session</th>
              <th>Run</th>
              <th>Expires</th>
              <th>Decision</th>
            </tr>
          </thead>
          <tbody>
            {pending.map((a) => (
              <tr key={a.id} data-approval-id={a.id}>
                <td>{a.prompt}</td>
                <td>
                  <a href={`/sessions/${a.sessionId}`} onClick={onLink}>
                    Session {a.sessionId}
                  </a>
                </td>
                <td>
                  <a href={`/runs/${a.runId}`} onClick={onLink}>
                    Run {a.runId}
                  </a>
                </td>
                <td>{a.expiresAt ? new Date(a.expiresAt).toLocaleString() : 'never'}</td>
                <td>
                  {outcome[a.id] ? (
                    <span className="status" role="status">
                      {outcome[a.id]}
                    </span>
                  ) : (
                    <>
                      <label>
                        Note{' '}
                        <input
                          aria-label={`note for approval ${a.id}`}
                          value={notes[a.id] ?? ''}
                          onChange={(e) => setNotes({ ...notes, [a.id]: e.target.value })}
                        />
                      </label>{' '}
                      <button type="button" className="primary" onClick={() => decide(a, true)}>
                        Approve
                      </button>{' '}
                      <button type="button" onClick={() => decide(a, false)}>
                        Reject
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
