import { memo, useEffect, useMemo, useRef, useState } from 'react'
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  MiniMap,
  Position,
  ReactFlow,
  applyNodeChanges,
  type Edge,
  type Node,
  type NodeChange,
  type NodeProps,
  type ReactFlowInstance,
} from '@xyflow/react'
import { layout, type Direction, type Graph } from '../graph'

/** How one node or edge is marked: a class, short badges, problems. */
export interface Mark {
  className?: string
  badges?: string[]
  problems?: string[]
}

export type Selection = { kind: 'node' | 'edge'; id: string } | null

interface Props {
  graph: Graph
  nodeMarks?: Map<string, Mark>
  edgeMarks?: Map<string, Mark>
  selected?: Selection
  onSelect?: (s: Selection) => void
  editable?: boolean
  onMove?: (id: string, pos: { x: number; y: number }) => void
  onConnect?: (source: string, target: string) => void
  label?: string
  /** The canvas's width/height, for choosing the layout's direction. */
  aspect?: number
}

interface NodeData extends Record<string, unknown> {
  label: string
  type: string
  id: string
  mark?: Mark
  dir: Direction
}

const WetelNode = memo(function WetelNode({ data, selected }: NodeProps<Node<NodeData>>) {
  const m = data.mark
  const problems = m?.problems ?? []
  return (
    <div
      className={`wnode ${m?.className ?? ''} ${selected ? 'selected' : ''} ${problems.length ? 'has-problem' : ''}`}
      data-node-id={data.id}
      title={problems.join('\n')}
    >
      <Handle type="target" position={data.dir === 'TB' ? Position.Top : Position.Left} />
      <div className="wnode-label">{data.label || data.id}</div>
      <div className="wnode-meta">
        <span className="wnode-type">{data.type}</span> · <span className="wnode-id">{data.id}</span>
      </div>
      {(m?.badges?.length || problems.length > 0) && (
        <div className="wnode-badges">
          {m?.badges?.map((b) => (
            <span key={b} className={`badge badge-${b.replace(/[^A-Za-z_]/g, '')}`}>
              {b}
            </span>
          ))}
          {problems.length > 0 && (
            <span className="badge badge-problem" aria-label={`${problems.length} problem(s): ${problems.join(' ')}`}>
              ⚠ {problems.length}
            </span>
          )}
        </div>
      )}
      <Handle type="source" position={data.dir === 'TB' ? Position.Bottom : Position.Right} />
    </div>
  )
})

const nodeTypes = { wetel: WetelNode }

export function GraphCanvas(p: Props) {
  const { pos: positions, dir } = useMemo(() => layout(p.graph, p.aspect), [p.graph, p.aspect])
  const built = useMemo<Node<NodeData>[]>(
    () =>
      p.graph.nodes.map((n) => ({
        id: n.id,
        type: 'wetel',
        position: positions.get(n.id) ?? { x: 0, y: 0 },
        data: { label: n.label, type: n.type, id: n.id, mark: p.nodeMarks?.get(n.id), dir },
        selected: p.selected?.kind === 'node' && p.selected.id === n.id,
        draggable: !!p.editable,
        connectable: !!p.editable,
        ariaLabel: `${n.type} node ${n.label || n.id}`,
      })),
    [p.graph, positions, dir, p.nodeMarks, p.selected, p.editable],
  )
  const [nodes, setNodes] = useState(built)
  useEffect(() => setNodes(built), [built])
  // A node added or removed may land outside the view: fit it again once
  // the new node has been measured.
  const rf = useRef<ReactFlowInstance<Node<NodeData>, Edge> | null>(null)
  const count = p.graph.nodes.length
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const t = setTimeout(() => rf.current?.fitView({ padding: 0.15, maxZoom: 1.1 }), 50)
    return () => clearTimeout(t)
  }, [count])

  const edges = useMemo<Edge[]>(
    () =>
      p.graph.edges.map((e) => {
        const m = p.edgeMarks?.get(e.id)
        const problems = m?.problems ?? []
        const cls = `${m?.className ?? ''} ${problems.length ? 'edge-problem' : ''}`
        return {
          id: e.id,
          source: e.source,
          target: e.target,
          label: problems.length ? `⚠ ${e.label || '(no label)'}` : e.label || undefined,
          className: cls,
          animated: m?.className?.includes('taken'),
          selected: p.selected?.kind === 'edge' && p.selected.id === e.id,
          markerEnd: { type: MarkerType.ArrowClosed, width: 12, height: 12 },
          labelBgPadding: [4, 2] as [number, number],
          labelBgBorderRadius: 3,
          ariaLabel: `edge ${e.id} from ${e.source} to ${e.target}${e.label ? ' labelled ' + e.label : ''}${problems.length ? ': ' + problems.join(' ') : ''}`,
          data: { problems },
        }
      }),
    [p.graph, p.edgeMarks, p.selected],
  )

  return (
    <div className="canvas" aria-label={p.label ?? 'workflow graph'} role="region">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onInit={(i) => (rf.current = i)}
        onNodesChange={(ch: NodeChange<Node<NodeData>>[]) => {
          setNodes((ns) => applyNodeChanges(ch, ns))
          for (const c of ch) {
            if (c.type === 'select' && c.selected) p.onSelect?.({ kind: 'node', id: c.id })
          }
        }}
        onEdgesChange={(ch) => {
          for (const c of ch) if (c.type === 'select' && c.selected) p.onSelect?.({ kind: 'edge', id: c.id })
        }}
        onNodeClick={(_, n) => p.onSelect?.({ kind: 'node', id: n.id })}
        onEdgeClick={(_, e) => p.onSelect?.({ kind: 'edge', id: e.id })}
        onPaneClick={() => p.onSelect?.(null)}
        onNodeDragStop={(_, n) => p.onMove?.(n.id, { x: Math.round(n.position.x), y: Math.round(n.position.y) })}
        onConnect={(c) => c.source && c.target && p.onConnect?.(c.source, c.target)}
        nodesDraggable={!!p.editable}
        nodesConnectable={!!p.editable}
        deleteKeyCode={null}
        fitView
        fitViewOptions={{ padding: 0.15, maxZoom: 1.1 }}
        minZoom={0.1}
        onlyRenderVisibleElements
      >
        <Background gap={20} />
        <Controls showInteractive={false} />
        {p.graph.nodes.length > 30 && <MiniMap pannable zoomable />}
      </ReactFlow>
    </div>
  )
}
