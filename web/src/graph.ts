import dagre from '@dagrejs/dagre'

export interface GNode {
  id: string
  type: string
  label: string
  config: Record<string, unknown>
  position?: { x: number; y: number }
}

export interface GEdge {
  id: string
  source: string
  target: string
  label?: string
}

export interface Graph {
  nodes: GNode[]
  edges: GEdge[]
}

/** What the server says about a node type's routing (GET /node-types.json). */
export interface NodeTypeMeta {
  type: string
  summary: string
  routing: 'all' | 'value' | 'bool' | 'case' | 'outcome'
  outcomes?: string[]
  failureEdges: boolean
  pauses: boolean
}

export function asGraph(v: unknown): Graph {
  const g = (v ?? {}) as Partial<Graph>
  return {
    nodes: (g.nodes ?? []).map((n) => ({ ...n, config: n.config ?? {} })),
    edges: g.edges ?? [],
  }
}

/**
 * The labels an edge out of source may carry, as the engine routes them;
 * null when any label is meaningful (a router matches values).
 */
export function allowedLabels(source: GNode | undefined, meta: Map<string, NodeTypeMeta>): string[] | null {
  if (!source) return ['']
  const m = meta.get(source.type)
  if (!m) return ['']
  let out: string[]
  switch (m.routing) {
    case 'value':
      return null
    case 'bool':
      out = ['true', 'false']
      break
    case 'case': {
      const cases = Array.isArray(source.config.cases) ? (source.config.cases as { label?: unknown }[]) : []
      out = [...cases.map((c) => String(c.label ?? '')).filter((l) => l !== ''), 'default']
      break
    }
    case 'outcome':
      out = source.type === 'await_reply' && source.config.matchMode !== 'options' ? ['answered'] : [...(m.outcomes ?? [])]
      break
    default:
      out = m.failureEdges ? ['', 'success', 'failure'] : ['']
  }
  return [...out, 'loop_exhausted']
}

const nodeW = 190
const nodeH = 64

export type Direction = 'LR' | 'TB'

function dagreLayout(g: Graph, dir: Direction) {
  const d = new dagre.graphlib.Graph()
  d.setGraph({ rankdir: dir, nodesep: dir === 'LR' ? 24 : 30, ranksep: dir === 'LR' ? 60 : 44, marginx: 10, marginy: 10 })
  d.setDefaultEdgeLabel(() => ({}))
  for (const n of g.nodes) d.setNode(n.id, { width: nodeW, height: nodeH })
  const ids = new Set(g.nodes.map((n) => n.id))
  for (const e of g.edges) if (ids.has(e.source) && ids.has(e.target)) d.setEdge(e.source, e.target)
  dagre.layout(d)
  const out = new Map<string, { x: number; y: number }>()
  for (const n of g.nodes) {
    const p = d.node(n.id)
    if (p) out.set(n.id, { x: p.x - nodeW / 2, y: p.y - nodeH / 2 })
  }
  const gg = d.graph()
  return { pos: out, w: gg.width ?? 1, h: gg.height ?? 1 }
}

/**
 * Positions for every node: the graph's own where it has them, and a
 * layered layout for the rest, left to right or top to bottom, whichever
 * draws larger in a canvas of the given width/height ratio.
 */
export function layout(g: Graph, aspect = 1.2): { pos: Map<string, { x: number; y: number }>; dir: Direction } {
  let pos = new Map<string, { x: number; y: number }>()
  let dir: Direction = 'LR'
  if (g.nodes.some((n) => !n.position)) {
    const lr = dagreLayout(g, 'LR')
    // A long chain is drawn one way only: a second layout of a big graph
    // costs more than it wins.
    const tb = g.nodes.length <= 60 ? dagreLayout(g, 'TB') : null
    const scale = (l: { w: number; h: number }) => Math.min(aspect / l.w, 1 / l.h)
    if (tb && scale(tb) > scale(lr) * 1.15) {
      pos = tb.pos
      dir = 'TB'
    } else pos = lr.pos
  }
  for (const n of g.nodes) if (n.position) pos.set(n.id, n.position)
  return { pos, dir }
}

/** One row of a run's nodeTrace (seed 001's field names). */
export interface TraceRow {
  nodeId: string
  nodeType: string
  status: string
  startedAt: string
  finishedAt: string
  error?: string
  errorClass?: string
  visitLimit?: number
  visitCount?: number
  budgetLimit?: string
  budgetNodeExecutions?: number
  budgetElapsedMs?: number
  attempts?: { n: number; errorClass: string; httpStatus?: number; waitMs: number }[]
  retryOutcome?: string
}

/** Rows that are refusals rather than a node running. */
export function isRefusal(status: string) {
  return status === 'VISIT_LIMIT_REACHED' || status === 'BUDGET_EXCEEDED'
}

/**
 * The edges a run took. The trace lists the nodes in the order they ran;
 * each node after the first was reached along an edge from the nearest
 * earlier node that has one to it. A resumed run's first node was reached
 * from the node the earlier run paused at (from).
 */
export function takenEdges(g: Graph, rows: TraceRow[], from?: string): Set<string> {
  const out = new Set<string>()
  const seq = rows.filter((r) => !isRefusal(r.status)).map((r) => ({ id: r.nodeId, status: r.status }))
  if (from) seq.unshift({ id: from, status: 'COMPLETED' })
  const byPair = new Map<string, GEdge[]>()
  for (const e of g.edges) {
    const k = e.source + '\u0000' + e.target
    byPair.set(k, [...(byPair.get(k) ?? []), e])
  }
  for (let j = 1; j < seq.length; j++) {
    for (let k = j - 1; k >= 0; k--) {
      let es = byPair.get(seq[k].id + '\u0000' + seq[j].id)
      if (!es) continue
      // Of a success and a failure edge to the same node, the row's
      // status tells which one was followed.
      if (es.length > 1) {
        const failed = seq[k].status === 'FAILED_HANDLED'
        const pick = es.filter((e) => (failed ? e.label === 'failure' : e.label !== 'failure'))
        if (pick.length > 0) es = pick
      }
      es.forEach((e) => out.add(e.id))
      break
    }
  }
  return out
}

/** Names a new node or edge id not yet in use. */
export function freshId(prefix: string, used: Iterable<string>): string {
  const taken = new Set(used)
  for (let i = 1; ; i++) {
    const id = `${prefix}_${i}`
    if (!taken.has(id)) return id
  }
}

/** Problems keyed by the node and the edge they name. An edge named only in
 * the message ("edge \"e5\"") is found there, so publish errors about one
 * edge land on it. */
export function problemTargets(
  g: Graph,
  problems: { nodeId?: string | null; edgeId?: string | null; message: string }[],
) {
  const nodes = new Map<string, string[]>()
  const edges = new Map<string, string[]>()
  const edgeIds = new Set(g.edges.map((e) => e.id))
  const add = (m: Map<string, string[]>, k: string, msg: string) => {
    const l = m.get(k) ?? []
    if (!l.includes(msg)) l.push(msg)
    m.set(k, l)
  }
  for (const p of problems) {
    let edge = p.edgeId ?? undefined
    if (!edge) {
      const m = /edge "([^"]+)"/.exec(p.message)
      if (m && edgeIds.has(m[1])) edge = m[1]
    }
    if (edge) add(edges, edge, p.message)
    if (p.nodeId) add(nodes, p.nodeId, p.message)
  }
  return { nodes, edges }
}
