import { useEffect, useState } from 'react'
import { gql } from './api'
import type { NodeTypeMeta } from './graph'
import type { Schema } from './components/ConfigForm'

// Node types and their config schemas change only with the server, so one
// fetch per page load serves every view.

let metaP: Promise<Map<string, NodeTypeMeta>> | null = null

export function loadMeta(): Promise<Map<string, NodeTypeMeta>> {
  if (!metaP) {
    metaP = fetch('/node-types.json')
      .then((r) => {
        if (!r.ok) throw new Error(`node types: HTTP ${r.status}`)
        return r.json() as Promise<NodeTypeMeta[]>
      })
      .then((l) => new Map(l.map((m) => [m.type, m])))
    metaP.catch(() => (metaP = null))
  }
  return metaP
}

export function useMeta(): Map<string, NodeTypeMeta> {
  const [m, setM] = useState<Map<string, NodeTypeMeta>>(new Map())
  useEffect(() => {
    loadMeta().then(setM, () => {})
  }, [])
  return m
}

const schemas = new Map<string, Promise<Schema>>()

export function loadSchema(type: string): Promise<Schema> {
  let p = schemas.get(type)
  if (!p) {
    p = gql<{ nodeConfigSchema: Schema }>('query($t: String!) { nodeConfigSchema(type: $t) }', { t: type }).then((d) => d.nodeConfigSchema)
    p.catch(() => schemas.delete(type))
    schemas.set(type, p)
  }
  return p
}
