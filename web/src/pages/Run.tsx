import { useEffect, useMemo, useState } from 'react'
import { gql } from '../api'
import { GraphCanvas, type Mark, type Selection } from '../components/GraphCanvas'
import { asGraph, isRefusal, takenEdges, type Graph, type TraceRow } from '../graph'
import { onLink } from '../router'
import type { RunRow } from './Sessions'

interface Run extends RunRow {
  sessionId: number
  nodeTrace: TraceRow[]
  error: string
}

const runQ = 'query($id: Int!) { workflowRun(id: $id) { id sessionId status version workflowId resumedFromRunId errorCode error startedAt finishedAt nodeTrace } }'

export function RunPage({ id }: { id: number }) {
  const [run, setRun] = useState<Run | null>(null)
  const [graph, setGraph] = useState<Graph | null>(null)
  const [from, setFrom] = useState<string | undefined>()
  const [err, setErr] = useState('')
  const [picked, setPicked] = useState<Selection>(null)

  useEffect(() => {
    ;(async () => {
      const d = await gql<{ workflowRun: Run }>(runQ, { id })
      const r = d.workflowRun
      setRun(r)
      if (r.workflowId) {
        const v = await gql<{ workflowVersions: { number: number; graph: unknown }[] }>(
          'query($w: Int!) { workflowVersions(workflowId: $w) { number graph } }',
          { w: r.workflowId },
        )
        const g = v.workflowVersions.find((x) => x.number === r.version)
        setGraph(asGraph(g?.graph))
      }
      if (r.resumedFromRunId) {
        const p = await gql<{ workflowRun: Run }>(runQ, { id: r.resumedFromRunId })
        const t = p.workflowRun.nodeTrace
        setFrom(t.length ? t[t.length - 1].nodeId : undefined)
      }
    })().catch((e) => setErr(e.message))
  }, [id])

  const marks = useMemo(() => {
    if (!run || !graph) return null
    const nm = new Map<string, Mark>()
    const count = new Map<string, number>()
    const statuses = new Map<string, Set<string>>()
    for (const r of run.nodeTrace) {
      if (!isRefusal(r.status)) count.set(r.nodeId, (count.get(r.nodeId) ?? 0) + 1)
      statuses.set(r.nodeId, (statuses.get(r.nodeId) ?? new Set()).add(r.status))
    }
    for (const [nid, st] of statuses) {
      const n = count.get(nid) ?? 0
      const badges = [`×${n}`]
      for (const s of st) if (s !== 'COMPLETED') badges.push(s)
      const cls = st.has('FAILED') ? 'visited failed' : st.has('FAILED_HANDLED') || st.has('VISIT_LIMIT_REACHED') || st.has('BUDGET_EXCEEDED') ? 'visited marked' : 'visited'
      nm.set(nid, { className: cls, badges })
    }
    if (from) nm.set(from, { className: 'resumed-from', badges: ['resumed here'] })
    const em = new Map<string, Mark>()
    for (const e of takenEdges(graph, run.nodeTrace, from)) em.set(e, { className: 'taken' })
    return { nm, em }
  }, [run, graph, from])

  if (err) return <p className="error" role="alert">{err}</p>
  if (!run) return <p>Loading…</p>
  return (
    <section className="run">
      <div className="title-row">
        <h1>Run {run.id}</h1>
        <span className={`pill pill-${run.status}`}>{run.status}</span>
        {run.errorCode && <span className="code">{run.errorCode}</span>}
        <a href={`/sessions/${run.sessionId}`} onClick={onLink}>
          Session {run.sessionId}
        </a>
        {run.resumedFromRunId && (
          <a href={`/runs/${run.resumedFromRunId}`} onClick={onLink}>
            resumed from run {run.resumedFromRunId}
          </a>
        )}
        {run.workflowId && (
          <a href={`/workflows/${run.workflowId}?tab=versions&version=${run.version}`} onClick={onLink}>
            workflow {run.workflowId} v{run.version}
          </a>
        )}
      </div>
      {run.error && <p className="error">{run.error}</p>}
      {graph && marks && (
        <div className="run-graph">
          <GraphCanvas graph={graph} nodeMarks={marks.nm} edgeMarks={marks.em} label={`run ${run.id} on its graph`}
            aspect={2.8}
            selected={picked}
            onSelect={setPicked}
          />
        </div>
      )}
      <h2>Node trace</h2>
      <p className="help">Select a node on the graph to pick out its rows.</p>
      <TraceTable rows={run.nodeTrace} picked={picked?.kind === 'node' ? picked.id : undefined} />
    </section>
  )
}

function ms(a: string, b: string) {
  return Math.max(0, Date.parse(b) - Date.parse(a))
}

function TraceTable({ rows, picked }: { rows: TraceRow[]; picked?: string }) {
  if (rows.length === 0) return <p className="empty">No node ran.</p>
  const t0 = Date.parse(rows[0].startedAt)
  return (
    <table className="list trace">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Node</th>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col">Start</th>
          <th scope="col">Took</th>
          <th scope="col">Attempts</th>
          <th scope="col">Retry outcome</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} className={`row-${r.status}`} aria-current={r.nodeId === picked ? 'true' : undefined}>
            <td>{i + 1}</td>
            <td>
              <code>{r.nodeId}</code>
            </td>
            <td>{r.nodeType}</td>
            <td>
              <span className={`pill pill-${r.status}`}>{r.status}</span>
              {r.status === 'VISIT_LIMIT_REACHED' && <div className="help">visit {r.visitCount} of {r.visitLimit}</div>}
              {r.status === 'BUDGET_EXCEEDED' && (
                <div className="help">
                  {r.budgetLimit}
                  {r.budgetNodeExecutions !== undefined ? ` after ${r.budgetNodeExecutions} nodes` : ''}
                  {r.budgetElapsedMs !== undefined ? ` after ${r.budgetElapsedMs} ms` : ''}
                </div>
              )}
            </td>
            <td>+{Date.parse(r.startedAt) - t0} ms</td>
            <td>{ms(r.startedAt, r.finishedAt)} ms</td>
            <td>
              {r.attempts?.map((a) => (
                <div key={a.n}>
                  #{a.n} {a.errorClass}
                  {a.httpStatus ? ` (HTTP ${a.httpStatus})` : ''}
                  {a.waitMs ? `, waited ${a.waitMs} ms` : ''}
                </div>
              ))}
            </td>
            <td>{r.retryOutcome ?? ''}</td>
            <td>
              {r.errorClass && <span className="code">{r.errorClass}</span>} {r.error}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
