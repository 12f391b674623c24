import { useEffect, useState } from 'react'
import { gql } from '../api'
import { onLink } from '../router'

interface Session {
  id: number
  agentId: number
  identity: string | null
  status: string
  channel: string
  createdAt: string
}

export interface RunRow {
  id: number
  status: string
  version: number
  workflowId: number | null
  resumedFromRunId: number | null
  errorCode: string
  startedAt: string
  finishedAt: string | null
}

export function SessionsPage() {
  const [rows, setRows] = useState<Session[] | null>(null)
  const [err, setErr] = useState('')
  useEffect(() => {
    gql<{ sessions: Session[] }>('{ sessions(first: 100) { id agentId identity status channel createdAt } }')
      .then((d) => setRows(d.sessions))
      .catch((e) => setErr(e.message))
  }, [])
  return (
    <section>
      <h1>Sessions</h1>
      {err && <p className="error" role="alert">{err}</p>}
      {rows && rows.length === 0 && <p className="empty">No sessions yet: start one in the playground.</p>}
      {rows && rows.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Agent</th>
              <th scope="col">Status</th>
              <th scope="col">Channel</th>
              <th scope="col">Identity</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>
                  <a href={`/sessions/${s.id}`} onClick={onLink}>
                    Session {s.id}
                  </a>
                </td>
                <td>{s.agentId}</td>
                <td>
                  <span className={`pill pill-${s.status}`}>{s.status}</span>
                </td>
                <td>{s.channel}</td>
                <td>{s.identity ?? ''}</td>
                <td>{new Date(s.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

export function SessionPage({ id }: { id: number }) {
  const [runs, setRuns] = useState<RunRow[] | null>(null)
  const [session, setSession] = useState<Session | null>(null)
  const [msgs, setMsgs] = useState<{ id: number; role: string; text: string; runId: number | null }[]>([])
  const [err, setErr] = useState('')
  useEffect(() => {
    gql<{ session: Session; workflowRuns: RunRow[]; messages: typeof msgs }>(
      'query($s: Int!) { session(id: $s) { id agentId identity status channel createdAt } workflowRuns(sessionId: $s, first: 200) { id status version workflowId resumedFromRunId errorCode startedAt finishedAt } messages(sessionId: $s) { id role text runId } }',
      { s: id },
    )
      .then((d) => {
        setSession(d.session)
        setRuns(d.workflowRuns)
        setMsgs(d.messages)
      })
      .catch((e) => setErr(e.message))
  }, [id])
  return (
    <section>
      <h1>Session {id}</h1>
      {err && <p className="error" role="alert">{err}</p>}
      {session && (
        <p>
          <span className={`pill pill-${session.status}`}>{session.status}</span> agent {session.agentId} · {session.channel}{' '}
          {session.status === 'OPEN' && (
            <a href={`/playground?agent=${session.agentId}&session=${id}`} onClick={onLink}>
              Continue in the playground
            </a>
          )}
        </p>
      )}
      <div className="two-col">
        <div>
          <h2>Runs</h2>
          {runs && <RunsTable runs={runs} />}
        </div>
        <div>
          <h2>Transcript</h2>
          <ol className="transcript small">
            {msgs.map((m) => (
              <li key={m.id} className={`msg msg-${m.role === 'user' ? 'user' : 'agent'}`}>
                {m.text}
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  )
}

export function RunsTable({ runs }: { runs: RunRow[] }) {
  if (runs.length === 0) return <p className="empty">No runs.</p>
  return (
    <table className="list">
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Status</th>
          <th scope="col">Resumed from</th>
          <th scope="col">Version</th>
          <th scope="col">Started</th>
          <th scope="col">Took</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={`/runs/${r.id}`} onClick={onLink}>
                Run {r.id}
              </a>
            </td>
            <td>
              <span className={`pill pill-${r.status}`}>{r.status}</span> {r.errorCode && <span className="code">{r.errorCode}</span>}
            </td>
            <td>
              {r.resumedFromRunId && (
                <a href={`/runs/${r.resumedFromRunId}`} onClick={onLink}>
                  Run {r.resumedFromRunId}
                </a>
              )}
            </td>
            <td>v{r.version}</td>
            <td>{new Date(r.startedAt).toLocaleTimeString()}</td>
            <td>{r.finishedAt ? `${Date.parse(r.finishedAt) - Date.parse(r.startedAt)} ms` : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
