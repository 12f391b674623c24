import { useCallback, useEffect, useMemo, useState } from 'react'
import { ApiError, gql, type Problem } from '../api'
import { GraphCanvas, type Mark, type Selection } from '../components/GraphCanvas'
import { ConfigForm, JsonField, type Schema } from '../components/ConfigForm'
import { allowedLabels, asGraph, freshId, problemTargets, type GEdge, type GNode, type Graph, type NodeTypeMeta } from '../graph'
import { loadSchema, useMeta } from '../meta'
import { navigate, onLink } from '../router'
import { diffSize } from './Workflows'
import { RunsTable, type RunRow } from './Sessions'

interface Wf {
  id: number
  name: string
  description: string
  publishedVersion: number
  draft: unknown
}

interface Diagnostics {
  publishable: boolean
  errors: Problem[]
  warnings: Problem[]
}

const diagQ = 'query($id: Int!) { workflowDiagnostics(workflowId: $id) { publishable errors { code message nodeId edgeId field } warnings { code message nodeId edgeId field } } }'

export function WorkflowPage({ id, params }: { id: number; params: URLSearchParams }) {
  const tab = params.get('tab') ?? 'graph'
  const [wf, setWf] = useState<Wf | null>(null)
  const [err, setErr] = useState('')
  const [reload, setReload] = useState(0)
  const [notice, setNotice] = useState('')
  // The editor starts afresh from each loaded draft, never from a stale one.
  const [loads, setLoads] = useState(0)

  useEffect(() => {
    gql<{ workflow: Wf }>('query($id: Int!) { workflow(id: $id) { id name description publishedVersion draft } }', { id })
      .then((d) => {
        setWf(d.workflow)
        setLoads((n) => n + 1)
      })
      .catch((e) => setErr(e.message))
  }, [id, reload])

  if (err) return <p className="error" role="alert">{err}</p>
  if (!wf) return <p>Loading…</p>
  return (
    <section className="workflow">
      <div className="title-row">
        <h1>{wf.name}</h1>
        <span className="pill pill-ok">{wf.publishedVersion ? `published v${wf.publishedVersion}` : 'never published'}</span>
        <div className="tabs" role="tablist" aria-label="Workflow views">
          <a role="tab" aria-selected={tab === 'graph'} href={`/workflows/${id}`} onClick={onLink}>
            Editor
          </a>
          <a role="tab" aria-selected={tab === 'versions'} href={`/workflows/${id}?tab=versions`} onClick={onLink}>
            Versions
          </a>
          <a role="tab" aria-selected={tab === 'runs'} href={`/workflows/${id}?tab=runs`} onClick={onLink}>
            Runs
          </a>
        </div>
      </div>
      {tab === 'runs' ? (
        <WorkflowRuns id={wf.id} />
      ) : tab === 'versions' ? (
        <Versions wf={wf} version={Number(params.get('version') ?? 0)} onChanged={() => setReload((r) => r + 1)} />
      ) : (
        <Editor
          key={`${wf.id}-${loads}`}
          wf={wf}
          notice={notice}
          onPublished={(msg) => {
            setNotice(msg)
            setReload((r) => r + 1)
          }}
        />
      )}
    </section>
  )
}

function Editor({ wf, notice, onPublished }: { wf: Wf; notice: string; onPublished: (msg: string) => void }) {
  const meta = useMeta()
  const [graph, setGraph] = useState<Graph>(() => asGraph(wf.draft))
  const [dirty, setDirty] = useState(false)
  const [selected, setSelected] = useState<Selection>(null)
  const [diag, setDiag] = useState<Diagnostics | null>(null)
  const [problems, setProblems] = useState<Problem[]>([])
  const [status, setStatus] = useState(notice)
  const [busy, setBusy] = useState(false)
  const [addType, setAddType] = useState('response')

  const refreshDiag = useCallback(() => {
    gql<{ workflowDiagnostics: Diagnostics }>(diagQ, { id: wf.id }).then((d) => setDiag(d.workflowDiagnostics), () => {})
  }, [wf.id])
  useEffect(refreshDiag, [refreshDiag])

  const change = (g: Graph) => {
    setGraph(g)
    setDirty(true)
  }

  const labelProblems = useMemo(() => edgeLabelProblems(graph, meta), [graph, meta])
  const all = useMemo(() => {
    const list: Problem[] = [...problems, ...labelProblems]
    if (!dirty && diag) list.push(...diag.errors, ...diag.warnings)
    return list
  }, [problems, labelProblems, diag, dirty])

  const { nodeMarks, edgeMarks } = useMemo(() => {
    const t = problemTargets(graph, all)
    // A problem on a node, with no field, when one of its edges carries a
    // label it cannot take, is about that edge (the await_reply edge rules).
    const badEdges = new Set(labelProblems.map((p) => p.edgeId!))
    for (const p of all) {
      if (!p.nodeId || p.field || p.edgeId) continue
      for (const e of graph.edges) {
        if (e.source === p.nodeId && badEdges.has(e.id)) {
          const l = t.edges.get(e.id) ?? []
          if (!l.includes(p.message)) l.push(p.message)
          t.edges.set(e.id, l)
        }
      }
    }
    const errorIds = new Set([...problems, ...(diag && !dirty ? diag.errors : [])].map((p) => p.nodeId))
    const nm = new Map<string, Mark>()
    for (const [k, v] of t.nodes) nm.set(k, { problems: v, className: errorIds.has(k) ? 'node-error' : 'node-warn' })
    const em = new Map<string, Mark>()
    for (const [k, v] of t.edges) em.set(k, { problems: v })
    return { nodeMarks: nm, edgeMarks: em }
  }, [graph, all, labelProblems, problems, diag, dirty])

  const save = async (): Promise<boolean> => {
    setBusy(true)
    setStatus('Saving…')
    try {
      await gql('mutation($id: Int!, $g: JSON!) { updateWorkflow(id: $id, input: {graph: $g}) { id } }', { id: wf.id, g: graph })
      setProblems([])
      setDirty(false)
      setStatus('Draft saved.')
      refreshDiag()
      return true
    } catch (e) {
      showError(e, 'Not saved')
      return false
    } finally {
      setBusy(false)
    }
  }
  const showError = (e: unknown, what: string) => {
    if (e instanceof ApiError) {
      setProblems(e.problems)
      setStatus(`${what}: ${e.problems.length ? `${e.problems.length} problem(s), marked on the graph.` : e.message}`)
      // Keep what the user is looking at; else show the first problem.
      const first = e.problems.find((p) => p.edgeId || p.nodeId)
      setSelected((s) => s ?? (first?.edgeId ? { kind: 'edge', id: first.edgeId } : first?.nodeId ? { kind: 'node', id: first.nodeId } : null))
    } else setStatus(`${what}: ${String(e)}`)
  }
  const publish = async () => {
    if (dirty && !(await save())) return
    setBusy(true)
    try {
      const d = await gql<{ publishWorkflow: { number: number } }>('mutation($id: Int!) { publishWorkflow(id: $id) { number } }', { id: wf.id })
      setProblems([])
      onPublished(`Published version ${d.publishWorkflow.number}.`)
    } catch (e) {
      showError(e, 'Not published')
    } finally {
      setBusy(false)
    }
  }

  const addNode = () => {
    const id = freshId(addType, graph.nodes.map((n) => n.id))
    const sel = selected?.kind === 'node' ? graph.nodes.find((n) => n.id === selected.id) : undefined
    const n: GNode = { id, type: addType, label: id, config: {} }
    const g: Graph = { nodes: [...graph.nodes, n], edges: graph.edges }
    if (sel) {
      g.edges = [...g.edges, { id: freshId('e', graph.edges.map((e) => e.id)), source: sel.id, target: id, label: firstLabel(sel, meta) }]
    }
    change(g)
    setSelected({ kind: 'node', id })
  }

  const connect = (source: string, target: string) => {
    const src = graph.nodes.find((n) => n.id === source)
    const e: GEdge = { id: freshId('e', graph.edges.map((x) => x.id)), source, target }
    const l = firstLabel(src, meta)
    if (l) e.label = l
    change({ nodes: graph.nodes, edges: [...graph.edges, e] })
    setSelected({ kind: 'edge', id: e.id })
  }

  const selNode = selected?.kind === 'node' ? graph.nodes.find((n) => n.id === selected.id) : undefined
  const selEdge = selected?.kind === 'edge' ? graph.edges.find((e) => e.id === selected.id) : undefined

  return (
    <div className="editor">
      <div className="toolbar" role="toolbar" aria-label="Draft">
        <button type="button" className="primary" onClick={save} disabled={busy || !dirty}>
          Save draft
        </button>
        <button type="button" onClick={publish} disabled={busy}>
          Publish
        </button>
        <span className="sep" />
        <label htmlFor="addtype">Node type</label>
        <select id="addtype" value={addType} onChange={(e) => setAddType(e.target.value)}>
          {[...meta.keys()].map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <button type="button" onClick={addNode}>
          Add node
        </button>
        <span className="status" role="status" aria-live="polite">
          {dirty ? 'Unsaved changes. ' : ''}
          {status}
        </span>
      </div>
      <div className="split">
        <GraphCanvas
          graph={graph}
          nodeMarks={nodeMarks}
          edgeMarks={edgeMarks}
          selected={selected}
          onSelect={setSelected}
          editable
          onMove={(nid, pos) => change({ ...graph, nodes: graph.nodes.map((n) => (n.id === nid ? { ...n, position: pos } : n)) })}
          onConnect={connect}
        />
        <aside className="panel" aria-label="Details">
          {selNode && (
            <NodeDetail
              key={selNode.id}
              node={selNode}
              meta={meta}
              problems={all.filter((p) => p.nodeId === selNode.id)}
              onChange={(n) => change({ ...graph, nodes: graph.nodes.map((x) => (x.id === selNode.id ? n : x)) })}
              onDelete={() => {
                change({ nodes: graph.nodes.filter((x) => x.id !== selNode.id), edges: graph.edges.filter((e) => e.source !== selNode.id && e.target !== selNode.id) })
                setSelected(null)
              }}
            />
          )}
          {selEdge && (
            <EdgeDetail
              key={selEdge.id}
              edge={selEdge}
              graph={graph}
              meta={meta}
              problems={edgeMarks.get(selEdge.id)?.problems ?? []}
              onChange={(e) => change({ ...graph, edges: graph.edges.map((x) => (x.id === selEdge.id ? e : x)) })}
              onDelete={() => {
                change({ ...graph, edges: graph.edges.filter((x) => x.id !== selEdge.id) })
                setSelected(null)
              }}
            />
          )}
          {!selNode && !selEdge && <Overview diag={diag} problems={problems} dirty={dirty} onPick={setSelected} />}
        </aside>
      </div>
    </div>
  )
}

function firstLabel(src: GNode | undefined, meta: Map<string, NodeTypeMeta>): string | undefined {
  const l = allowedLabels(src, meta)
  return l && l[0] ? l[0] : undefined
}

/** Edges whose label the source's type never follows, found before saving. */
function edgeLabelProblems(g: Graph, meta: Map<string, NodeTypeMeta>): Problem[] {
  if (meta.size === 0) return []
  const out: Problem[] = []
  for (const e of g.edges) {
    const src = g.nodes.find((n) => n.id === e.source)
    if (!src) continue
    const ok = allowedLabels(src, meta)
    if (ok && !ok.includes(e.label ?? '')) {
      out.push({
        code: 'EDGE_LABEL',
        edgeId: e.id,
        message: `Edge "${e.id}" is labelled "${e.label ?? ''}", which a ${src.type} node never follows; allowed: ${ok.map((l) => (l === '' ? '(none)' : l)).join(', ')}.`,
      })
    }
  }
  return out
}

function Overview({ diag, problems, dirty, onPick }: { diag: Diagnostics | null; problems: Problem[]; dirty: boolean; onPick: (s: Selection) => void }) {
  const item = (p: Problem, i: number) => (
    <li key={i}>
      <span className="code">{p.code}</span> {p.message}{' '}
      {p.nodeId && (
        <button type="button" className="link" onClick={() => onPick(p.edgeId ? { kind: 'edge', id: p.edgeId } : { kind: 'node', id: p.nodeId! })}>
          show
        </button>
      )}
    </li>
  )
  return (
    <div>
      <h2>Draft</h2>
      <p className="help">Select a node or an edge to see and edit it. Drag from a node's outgoing handle (the dot after it) to another node to connect them.</p>
      {problems.length > 0 && (
        <>
          <h3>Last save or publish</h3>
          <ul className="problems">{problems.map(item)}</ul>
        </>
      )}
      {diag && !dirty && (
        <>
          <h3>Checks</h3>
          <p>{diag.publishable ? 'Publishable.' : 'Publishing would be refused:'}</p>
          <ul className="problems">{diag.errors.map(item)}</ul>
          {diag.warnings.length > 0 && <h3>Diagnostics</h3>}
          <ul className="problems warn">{diag.warnings.map(item)}</ul>
        </>
      )}
      {dirty && <p className="help">Save the draft to run the checks again.</p>}
    </div>
  )
}

function NodeDetail({
  node,
  meta,
  problems,
  onChange,
  onDelete,
}: {
  node: GNode
  meta: Map<string, NodeTypeMeta>
  problems: Problem[]
  onChange: (n: GNode) => void
  onDelete: () => void
}) {
  const [schema, setSchema] = useState<Schema | null>(null)
  const [json, setJson] = useState(false)
  useEffect(() => {
    loadSchema(node.type).then(setSchema, () => setJson(true))
  }, [node.type])
  const fieldErrors = new Map<string, string[]>()
  for (const p of problems) {
    if (!p.field) continue
    const f = p.field.split(/[.[]/)[0]
    fieldErrors.set(f, [...(fieldErrors.get(f) ?? []), p.message])
  }
  const general = problems.filter((p) => !p.field || !schema?.properties || !(p.field.split(/[.[]/)[0] in (schema.properties ?? {})))
  return (
    <div className="detail" aria-label={`Node ${node.id}`}>
      <h2>
        {node.label || node.id} <span className="help">({node.type})</span>
      </h2>
      <p className="help">{meta.get(node.type)?.summary}</p>
      <div className="field">
        <label htmlFor="node-label" className="field-name">
          label
        </label>
        <input id="node-label" value={node.label} onChange={(e) => onChange({ ...node, label: e.target.value })} />
      </div>
      <p className="help">
        id <code>{node.id}</code>
      </p>
      {general.length > 0 && (
        <ul className="problems" role="alert">
          {general.map((p, i) => (
            <li key={i}>
              <span className="code">{p.code}</span> {p.message}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <h3>Config</h3>
        <button type="button" className="link" onClick={() => setJson(!json)} aria-pressed={json}>
          {json ? 'Edit as form' : 'Edit as JSON'}
        </button>
      </div>
      {json || !schema ? (
        <JsonField
          common={{ 'aria-label': 'config as JSON', id: 'config-json' }}
          rows={14}
          value={node.config}
          onChange={(v) => v && typeof v === 'object' && !Array.isArray(v) && onChange({ ...node, config: v as Record<string, unknown> })}
        />
      ) : (
        <ConfigForm schema={schema} value={node.config} errors={fieldErrors} onChange={(c) => onChange({ ...node, config: c })} />
      )}
      <button type="button" className="danger" onClick={onDelete}>
        Delete node
      </button>
    </div>
  )
}

function EdgeDetail({
  edge,
  graph,
  meta,
  problems,
  onChange,
  onDelete,
}: {
  edge: GEdge
  graph: Graph
  meta: Map<string, NodeTypeMeta>
  problems: string[]
  onChange: (e: GEdge) => void
  onDelete: () => void
}) {
  const src = graph.nodes.find((n) => n.id === edge.source)
  const allowed = allowedLabels(src, meta)
  const set = (l: string) => {
    const e = { ...edge }
    if (l === '') delete e.label
    else e.label = l
    onChange(e)
  }
  return (
    <div className="detail" aria-label={`Edge ${edge.id}`}>
      <h2>Edge {edge.id}</h2>
      <p>
        <code>{edge.source}</code> → <code>{edge.target}</code>
      </p>
      <div className={`field ${problems.length ? 'field-error' : ''}`}>
        <label htmlFor="edge-label" className="field-name">
          label
        </label>
        <input id="edge-label" list="edge-labels" value={edge.label ?? ''} onChange={(e) => set(e.target.value)} aria-describedby="edge-label-help" />
        <datalist id="edge-labels">
          {(allowed ?? []).filter((l) => l !== '').map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
        <p id="edge-label-help" className="help">
          {allowed === null
            ? 'A router follows the edge whose label equals its value.'
            : `Out of a ${src?.type ?? ''} node, the engine follows: ${allowed.map((l) => (l === '' ? '(no label)' : l)).join(', ')}.`}
        </p>
        {allowed && (
          <div className="chips" aria-label="Allowed labels">
            {allowed.map((l) => (
              <button key={l} type="button" className="chip" aria-pressed={(edge.label ?? '') === l} onClick={() => set(l)}>
                {l === '' ? '(no label)' : l}
              </button>
            ))}
          </div>
        )}
        {problems.length > 0 && (
          <div role="alert">
            {problems.map((p) => (
              <p key={p} className="error">
                {p}
              </p>
            ))}
          </div>
        )}
      </div>
      <button type="button" className="danger" onClick={onDelete}>
        Delete edge
      </button>
    </div>
  )
}

interface Version {
  number: number
  publishedAt: string
  publishedBy: string
  graph: unknown
}

type Diff = { version: number; nodesAdded: string[]; nodesRemoved: string[]; nodesChanged: string[]; edgesAdded: string[]; edgesRemoved: string[]; edgesChanged: string[] }

function Versions({ wf, version, onChanged }: { wf: Wf; version: number; onChanged: () => void }) {
  const [versions, setVersions] = useState<Version[] | null>(null)
  const [diff, setDiff] = useState<Diff | null>(null)
  const [status, setStatus] = useState('')
  const [err, setErr] = useState('')
  const [tick, setTick] = useState(0)
  const [picked, setPicked] = useState<Selection>(null)

  useEffect(() => {
    gql<{ workflowVersions: Version[] }>('query($id: Int!) { workflowVersions(workflowId: $id) { number publishedAt publishedBy graph } }', { id: wf.id })
      .then((d) => setVersions(d.workflowVersions))
      .catch((e) => setErr(e.message))
  }, [wf.id, tick])
  useEffect(() => {
    setDiff(null)
    setPicked(null)
    if (!version) return
    gql<{ workflowVersionDiff: Diff }>(
      'query($id: Int!, $v: Int!) { workflowVersionDiff(workflowId: $id, version: $v) { version nodesAdded nodesRemoved nodesChanged edgesAdded edgesRemoved edgesChanged } }',
      { id: wf.id, v: version },
    )
      .then((d) => {
        setDiff(d.workflowVersionDiff)
        const first = d.workflowVersionDiff.nodesChanged[0]
        if (first) setPicked({ kind: 'node', id: first })
      })
      .catch((e) => setErr(e.message))
  }, [wf.id, version, tick])

  const v = versions?.find((x) => x.number === version)
  const { graph, nodeMarks, edgeMarks } = useMemo(() => {
    const draft = asGraph(wf.draft)
    if (!diff || !v) return { graph: draft, nodeMarks: undefined, edgeMarks: undefined }
    const old = asGraph(v.graph)
    const removedN = new Set(diff.nodesRemoved)
    const removedE = new Set(diff.edgesRemoved)
    // The draft, plus what the version had and the draft lost, drawn faded.
    const g: Graph = {
      nodes: [...draft.nodes, ...old.nodes.filter((n) => removedN.has(n.id))],
      edges: [...draft.edges, ...old.edges.filter((e) => removedE.has(e.id))],
    }
    const nm = new Map<string, Mark>()
    diff.nodesAdded.forEach((id) => nm.set(id, { className: 'diff-added', badges: ['added'] }))
    diff.nodesChanged.forEach((id) => nm.set(id, { className: 'diff-changed', badges: ['changed'] }))
    diff.nodesRemoved.forEach((id) => nm.set(id, { className: 'diff-removed', badges: ['removed'] }))
    const em = new Map<string, Mark>()
    diff.edgesAdded.forEach((id) => em.set(id, { className: 'diff-added' }))
    diff.edgesChanged.forEach((id) => em.set(id, { className: 'diff-changed' }))
    diff.edgesRemoved.forEach((id) => em.set(id, { className: 'diff-removed' }))
    return { graph: g, nodeMarks: nm, edgeMarks: em }
  }, [wf.draft, diff, v])

  const rollback = async (n: number) => {
    try {
      const d = await gql<{ rollbackWorkflow: { number: number } }>('mutation($id: Int!, $v: Int!) { rollbackWorkflow(id: $id, version: $v) { number } }', { id: wf.id, v: n })
      setStatus(`Rolled back: version ${n}'s graph is published again as version ${d.rollbackWorkflow.number}. The draft is unchanged.`)
      setTick((t) => t + 1)
      onChanged()
    } catch (e) {
      setErr(e instanceof Error ? e.message : String(e))
    }
  }

  if (err) return <p className="error" role="alert">{err}</p>
  if (!versions) return <p>Loading…</p>
  return (
    <div className="versions">
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
      {versions.length === 0 && <p className="empty">Never published.</p>}
      <div className="split">
        <div className="version-list">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((x) => (
                <tr key={x.number} aria-current={x.number === version ? 'true' : undefined}>
                  <td>
                    v{x.number}
                    {x.number === wf.publishedVersion && <span className="pill pill-ok">live</span>}
                  </td>
                  <td>
                    {new Date(x.publishedAt).toLocaleString()}
                    <div className="help">{x.publishedBy}</div>
                  </td>
                  <td>
                    <button type="button" onClick={() => navigate(`/workflows/${wf.id}?tab=versions&version=${x.number}`)}>
                      Diff v{x.number}
                    </button>{' '}
                    {x.number !== wf.publishedVersion && (
                      <button type="button" onClick={() => rollback(x.number)}>
                        Roll back to v{x.number}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {diff && (
            <div className="diff-summary" aria-label="Diff summary">
              <h3>
                v{diff.version} → draft: {diffSize(diff) === 0 ? 'no changes' : `${diffSize(diff)} change(s)`}
              </h3>
              <DiffList name="Nodes added" ids={diff.nodesAdded} cls="diff-added" />
              <DiffList name="Nodes changed" ids={diff.nodesChanged} cls="diff-changed" />
              <DiffList name="Nodes removed" ids={diff.nodesRemoved} cls="diff-removed" />
              <DiffList name="Edges added" ids={diff.edgesAdded} cls="diff-added" />
              <DiffList name="Edges changed" ids={diff.edgesChanged} cls="diff-changed" />
              <DiffList name="Edges removed" ids={diff.edgesRemoved} cls="diff-removed" />
              {picked && v && <ElementDiff picked={picked} before={asGraph(v.graph)} after={asGraph(wf.draft)} version={v.number} />}
            </div>
          )}
        </div>
        <GraphCanvas
          graph={graph}
          nodeMarks={nodeMarks}
          edgeMarks={edgeMarks}
          selected={picked}
          onSelect={setPicked}
          label={diff ? `diff of v${diff.version} against the draft` : 'draft'}
        />
      </div>
    </div>
  )
}

function DiffList({ name, ids, cls }: { name: string; ids: string[]; cls: string }) {
  if (ids.length === 0) return null
  return (
    <p>
      {name}:{' '}
      {ids.map((id) => (
        <code key={id} className={`tag ${cls}`}>
          {id}
        </code>
      ))}
    </p>
  )
}

/** One node or edge as the version had it and as the draft has it, line by
 * line, with the lines that differ marked. */
function ElementDiff({ picked, before, after, version }: { picked: NonNullable<Selection>; before: Graph; after: Graph; version: number }) {
  const find = (g: Graph) => (picked.kind === 'node' ? g.nodes.find((n) => n.id === picked.id) : g.edges.find((e) => e.id === picked.id))
  const a = find(before)
  const b = find(after)
  const text = (x: unknown) => (x === undefined ? [] : JSON.stringify(sortKeys(x), null, 2).split('\n'))
  const la = text(a)
  const lb = text(b)
  // A line compares without its trailing comma: a field added after it
  // does not change it.
  const bare = (l: string) => l.replace(/,$/, '')
  const sa = new Set(la.map(bare))
  const sb = new Set(lb.map(bare))
  return (
    <div className="element-diff" aria-label={`${picked.kind} ${picked.id}: v${version} and the draft`}>
      <h3>
        {picked.kind} <code>{picked.id}</code>
      </h3>
      <div className="diff-cols">
        <div>
          <div className="help">v{version}</div>
          <pre>
            {la.length === 0 ? <span className="help">(not in this version)</span> : la.map((l, i) => <div key={i} className={sb.has(bare(l)) ? '' : 'line-removed'}>{l}</div>)}
          </pre>
        </div>
        <div>
          <div className="help">draft</div>
          <pre>
            {lb.length === 0 ? <span className="help">(not in the draft)</span> : lb.map((l, i) => <div key={i} className={sa.has(bare(l)) ? '' : 'line-added'}>{l}</div>)}
          </pre>
        </div>
      </div>
    </div>
  )
}

/** The value with every object's keys in order, so two documents that
 * differ only in key order print alike. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]))
  }
  return v
}

function WorkflowRuns({ id }: { id: number }) {
  const [runs, setRuns] = useState<RunRow[] | null>(null)
  const [err, setErr] = useState('')
  useEffect(() => {
    gql<{ workflowRuns: RunRow[] }>(
      'query($w: Int!) { workflowRuns(workflowId: $w, first: 100) { id status version workflowId resumedFromRunId errorCode startedAt finishedAt } }',
      { w: id },
    )
      .then((d) => setRuns(d.workflowRuns))
      .catch((e) => setErr(e.message))
  }, [id])
  if (err) return <p className="error" role="alert">{err}</p>
  if (!runs) return <p>Loading…</p>
  return <RunsTable runs={runs} />
}
