import { useEffect, useState } from 'react'
import { gql } from '../api'
import { navigate, onLink } from '../router'

interface Row {
  id: number
  name: string
  description: string
  publishedVersion: number
  updatedAt: string
}

type Diff = { nodesAdded: string[]; nodesRemoved: string[]; nodesChanged: string[]; edgesAdded: string[]; edgesRemoved: string[]; edgesChanged: string[] }

export function diffSize(d: Diff) {
  return d.nodesAdded.length + d.nodesRemoved.length + d.nodesChanged.length + d.edgesAdded.length + d.edgesRemoved.length + d.edgesChanged.length
}

const diffFields = 'nodesAdded nodesRemoved nodesChanged edgesAdded edgesRemoved edgesChanged'

export function WorkflowsPage() {
  const [rows, setRows] = useState<Row[] | null>(null)
  const [changed, setChanged] = useState<Record<number, boolean>>({})
  const [agents, setAgents] = useState<{ id: number; name: string; workflowId: number | null }[]>([])
  const [err, setErr] = useState('')
  const [name, setName] = useState('')

  useEffect(() => {
    gql<{ workflows: Row[]; agents: { id: number; name: string; workflowId: number | null }[] }>(
      '{ workflows { id name description publishedVersion updatedAt } agents { id name workflowId } }',
    )
      .then(async (d) => {
        setRows(d.workflows)
        setAgents(d.agents)
        const pub = d.workflows.filter((w) => w.publishedVersion > 0)
        if (pub.length === 0) return
        const q = `{ ${pub.map((w) => `w${w.id}: workflowVersionDiff(workflowId: ${w.id}, version: ${w.publishedVersion}) { ${diffFields} }`).join(' ')} }`
        const diffs = await gql<Record<string, Diff>>(q)
        const c: Record<number, boolean> = {}
        for (const w of pub) c[w.id] = diffSize(diffs[`w${w.id}`]) > 0
        setChanged(c)
      })
      .catch((e) => setErr(e.message))
  }, [])

  return (
    <section>
      <h1>Workflows</h1>
      {err && <p className="error" role="alert">{err}</p>}
      {rows === null && !err && <p>Loading…</p>}
      {rows && rows.length === 0 && <p className="empty">No workflows yet.</p>}
      {rows && rows.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Agents</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((w) => (
              <tr key={w.id}>
                <td>
                  <a href={`/workflows/${w.id}`} onClick={onLink}>
                    {w.name}
                  </a>
                  {w.description && <div className="help">{w.description}</div>}
                </td>
                <td>
                  {w.publishedVersion === 0 ? (
                    <span className="pill pill-draft">never published</span>
                  ) : (
                    <>
                      <span className="pill pill-ok">published v{w.publishedVersion}</span>{' '}
                      {changed[w.id] && <span className="pill pill-warn">draft changed</span>}
                    </>
                  )}
                </td>
                <td>
                  {agents
                    .filter((a) => a.workflowId === w.id)
                    .map((a) => (
                      <a key={a.id} href={`/playground?agent=${a.id}`} onClick={onLink} className="chip">
                        Chat with {a.name}
                      </a>
                    ))}
                </td>
                <td>{new Date(w.updatedAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault()
          try {
            const d = await gql<{ createWorkflow: { id: number } }>(
              'mutation($n: String!) { createWorkflow(input: {name: $n, graph: {nodes: [{id: "start", type: "start", label: "Start", config: {}}], edges: []}}) { id } }',
              { n: name },
            )
            navigate(`/workflows/${d.createWorkflow.id}`)
          } catch (e) {
            setErr(e instanceof Error ? e.message : String(e))
          }
        }}
      >
        <label htmlFor="newwf">New workflow</label>
        <input id="newwf" value={name} onChange={(e) => setName(e.target.value)} placeholder="Name" />
        <button type="submit" disabled={name.trim() === ''}>
          Create
        </button>
      </form>
    </section>
  )
}
