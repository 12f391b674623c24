// The dashboard talks to the server through the same API every client uses:
// GraphQL at /graphql and the session event stream, with the key as a
// bearer token. The key lives in sessionStorage only, so it is gone when the
// tab closes, and signOut forgets it at once.

const keyName = 'wetel.apiKey'

export function getKey(): string | null {
  return sessionStorage.getItem(keyName)
}

export function setKey(key: string) {
  sessionStorage.setItem(keyName, key)
}

export function signOut() {
  sessionStorage.removeItem(keyName)
}

/** A problem as the save and publish checks and the diagnostics report it. */
export interface Problem {
  code: string
  message: string
  nodeId?: string | null
  edgeId?: string | null
  field?: string | null
}

/** An error answer: the first error's message and code, and any problems. */
export class ApiError extends Error {
  code: string
  problems: Problem[]
  constructor(message: string, code: string, problems: Problem[]) {
    super(message)
    this.code = code
    this.problems = problems
  }
}

interface GqlError {
  message: string
  extensions?: { code?: string; problems?: Problem[] }
}

export async function gql<T>(query: string, variables?: Record<string, unknown>, key = getKey()): Promise<T> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key ?? ''}` },
    body: JSON.stringify({ query, variables }),
  })
  let body: { data?: T; errors?: GqlError[] }
  try {
    body = await res.json()
  } catch {
    throw new ApiError(`the server answered HTTP ${res.status}`, 'INTERNAL', [])
  }
  if (body.errors && body.errors.length > 0) {
    const e = body.errors[0]
    const problems = body.errors.flatMap((x) => x.extensions?.problems ?? [])
    throw new ApiError(e.message, e.extensions?.code ?? 'INTERNAL', problems)
  }
  if (!body.data) throw new ApiError('the server sent no data', 'INTERNAL', [])
  return body.data
}

/** One event of a session's stream. */
export interface SessionEvent {
  seq: number
  type: string
  data: Record<string, unknown>
}

/**
 * Follows a session's Server-Sent Events. EventSource cannot send an
 * Authorization header, so this reads the stream with fetch; it reconnects
 * from the last seq it saw until signal aborts.
 */
export async function followEvents(sessionId: number, onEvent: (e: SessionEvent) => void, signal: AbortSignal) {
  let last = 0
  while (!signal.aborted) {
    try {
      const headers: Record<string, string> = { Authorization: `Bearer ${getKey() ?? ''}`, Accept: 'text/event-stream' }
      if (last > 0) headers['Last-Event-ID'] = String(last)
      const res = await fetch(`/api/sessions/${sessionId}/events`, { headers, signal })
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`)
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
      let buf = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buf += value
        let i: number
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i)
          buf = buf.slice(i + 2)
          const ev = parseBlock(block)
          // A block without an id (lagged) only says to reconnect from last.
          if (ev && ev.seq > 0) {
            last = ev.seq
            onEvent(ev)
          }
        }
      }
    } catch {
      if (signal.aborted) return
    }
    await new Promise((r) => setTimeout(r, 1000))
  }
}

function parseBlock(block: string): SessionEvent | null {
  let id = 0
  let type = ''
  const data: string[] = []
  for (const line of block.split('\n')) {
    if (line.startsWith('id:')) id = Number(line.slice(3).trim())
    else if (line.startsWith('event:')) type = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (!type || data.length === 0) return null
  try {
    return { seq: id, type, data: JSON.parse(data.join('\n')) }
  } catch {
    return null
  }
}
