import { useEffect, useRef, useState } from 'react'
import { followEvents, gql, type SessionEvent } from '../api'
import { navigate, onLink } from '../router'

interface Agent {
  id: number
  name: string
  ready: boolean
  notReadyReason: string | null
}

interface Msg {
  id: number
  role: string
  text: string
  runId: number | null
}

interface Pending {
  nodeId: string
  options: { slot: number; id: string; label: string }[]
  expiresAt: string | null
}

/**
 * A chat with an agent through the same API a client uses: startSession,
 * sendMessage, pendingAwaitReplies and the session's event stream.
 */
export function PlaygroundPage({ params }: { params: URLSearchParams }) {
  const [agents, setAgents] = useState<Agent[]>([])
  const agentId = Number(params.get('agent') ?? 0)
  const sessionId = Number(params.get('session') ?? 0)
  const [err, setErr] = useState('')

  useEffect(() => {
    gql<{ agents: Agent[] }>('{ agents { id name ready notReadyReason } }')
      .then((d) => setAgents(d.agents))
      .catch((e) => setErr(e.message))
  }, [])
  const agent = agents.find((a) => a.id === agentId)

  const start = async () => {
    try {
      const d = await gql<{ startSession: { id: number } }>('mutation($a: Int!) { startSession(input: {agentId: $a, channel: "dashboard"}) { id } }', { a: agentId })
      navigate(`/playground?agent=${agentId}&session=${d.startSession.id}`)
    } catch (e) {
      setErr(e instanceof Error ? e.message : String(e))
    }
  }

  return (
    <section className="playground">
      <h1>Playground</h1>
      {err && <p className="error" role="alert">{err}</p>}
      <div className="toolbar">
        <label htmlFor="agent">Agent</label>
        <select id="agent" value={agentId || ''} onChange={(e) => navigate(`/playground?agent=${e.target.value}`)}>
          <option value="">choose…</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
        <button type="button" className="primary" disabled={!agentId} onClick={start}>
          {sessionId ? 'New session' : 'Start session'}
        </button>
        {sessionId > 0 && (
          <a href={`/sessions/${sessionId}`} onClick={onLink}>
            Session {sessionId}: runs
          </a>
        )}
      </div>
      {agent && !agent.ready && <p className="error">{agent.notReadyReason}</p>}
      {sessionId > 0 ? <Chat key={sessionId} sessionId={sessionId} /> : <p className="empty">Choose an agent and start a session to chat.</p>}
    </section>
  )
}

function Chat({ sessionId }: { sessionId: number }) {
  const [msgs, setMsgs] = useState<Msg[]>([])
  const [pending, setPending] = useState<Pending[]>([])
  const [events, setEvents] = useState<SessionEvent[]>([])
  const [text, setText] = useState('')
  const [streaming, setStreaming] = useState('')
  const [busy, setBusy] = useState(false)
  const [err, setErr] = useState('')
  const logRef = useRef<HTMLOListElement>(null)
  const chatRef = useRef<HTMLOListElement>(null)

  const refresh = async () => {
    const d = await gql<{ messages: Msg[]; pendingAwaitReplies: Pending[] }>(
      'query($s: Int!) { messages(sessionId: $s) { id role text runId } pendingAwaitReplies(sessionId: $s) { nodeId options { slot id label } expiresAt } }',
      { s: sessionId },
    )
    setMsgs(d.messages)
    setPending(d.pendingAwaitReplies)
  }

  useEffect(() => {
    refresh().catch((e) => setErr(e.message))
    const ac = new AbortController()
    followEvents(
      sessionId,
      (ev) => {
        setEvents((l) => (l.some((x) => x.seq === ev.seq) ? l : [...l, ev]))
        // A message may come from a turn this tab did not start (another
        // client, a task): show it as it is published.
        if (ev.type === 'Message') {
          const d = ev.data as { messageId: number; text: string; runId: number; isFinal?: boolean }
          // A streamed llm chunk (isFinal false) grows the reply being
          // written; the whole message replaces it.
          if (d.isFinal === false) {
            setStreaming((t) => t + d.text)
            return
          }
          setStreaming('')
          setMsgs((l) => (l.some((m) => m.id === d.messageId) ? l : [...l, { id: d.messageId, role: 'assistant', text: d.text, runId: d.runId }]))
        }
        if (ev.type === 'TurnComplete') setStreaming('')
        if (ev.type === 'TurnComplete') refresh().catch(() => {})
      },
      ac.signal,
    )
    return () => ac.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId])

  useEffect(() => {
    logRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' })
  }, [events])
  useEffect(() => {
    chatRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' })
  }, [msgs, pending])

  const send = async (t: string) => {
    if (t.trim() === '') return
    setBusy(true)
    setErr('')
    setPending([])
    setMsgs((l) => [...l, { id: -Date.now(), role: 'user', text: t, runId: null }])
    setText('')
    try {
      await gql('mutation($s: Int!, $t: String!) { sendMessage(sessionId: $s, text: $t) { runs { id } } }', { s: sessionId, t })
      await refresh()
    } catch (e) {
      setErr(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  let executing = ''
  for (const ev of events) {
    if (ev.type === 'NodeExecuting') executing = String((ev.data as { label?: string; nodeId?: string }).label || ev.data.nodeId)
    if (ev.type === 'NodeCompleted' || ev.type === 'NodeFailed' || ev.type === 'RunFinished' || ev.type === 'TurnComplete') executing = ''
  }
  const lastRun = [...msgs].reverse().find((m) => m.runId)?.runId

  return (
    <div className="chat-split">
      <div className="chat">
        <ol className="transcript" ref={chatRef} aria-label="Conversation" aria-live="polite">
          {msgs.map((m) => (
            <li key={m.id} className={`msg msg-${m.role === 'user' ? 'user' : 'agent'}`}>
              <span className="sr-only">{m.role === 'user' ? 'You' : 'Agent'}: </span>
              {m.text}
              {m.runId && (
                <a className="msg-run" href={`/runs/${m.runId}`} onClick={onLink} aria-label={`open run ${m.runId}`}>
                  run {m.runId}
                </a>
              )}
            </li>
          ))}
          {streaming && <li className="msg msg-agent streaming">{streaming}</li>}
          {busy && !streaming && <li className="msg msg-agent typing">{executing ? `running ${executing}…` : '…'}</li>}
        </ol>
        {pending.map((p) => (
          <div key={p.nodeId} className="options" role="group" aria-label="Answer the question">
            <span className="help">
              Waiting for an answer at <code>{p.nodeId}</code>
              {p.expiresAt ? `, until ${new Date(p.expiresAt).toLocaleTimeString()}` : ''}:
            </span>
            {p.options.map((o) => (
              <button key={o.slot} type="button" className="option" disabled={busy} onClick={() => send(o.label)}>
                {o.slot}. {o.label}
              </button>
            ))}
          </div>
        ))}
        {err && <p className="error" role="alert">{err}</p>}
        <form
          className="composer"
          onSubmit={(e) => {
            e.preventDefault()
            send(text)
          }}
        >
          <label htmlFor="composer" className="sr-only">
            Message
          </label>
          <input id="composer" value={text} onChange={(e) => setText(e.target.value)} placeholder="Type a message" autoComplete="off" disabled={busy} />
          <button type="submit" className="primary" disabled={busy || text.trim() === ''}>
            Send
          </button>
        </form>
        {lastRun && (
          <p>
            <a className="last-run" href={`/runs/${lastRun}`} onClick={onLink}>
              Open the last run ({lastRun}) on its graph
            </a>
          </p>
        )}
      </div>
      <div className="events">
        <h2>Events</h2>
        <ol ref={logRef} className="event-log" aria-label="Session events">
          {events.map((ev) => (
            <li key={ev.seq} className={`ev ev-${ev.type}`}>
              <span className="seq">{ev.seq}</span> <span className="ev-type">{ev.type}</span> <EventDetail ev={ev} />
            </li>
          ))}
        </ol>
      </div>
    </div>
  )
}

function EventDetail({ ev }: { ev: SessionEvent }) {
  const d = ev.data as Record<string, unknown>
  switch (ev.type) {
    case 'NodeExecuting':
      return (
        <span>
          {String(d.label || d.nodeId)} <span className="help">({String(d.type)})</span>
        </span>
      )
    case 'NodeCompleted':
    case 'RunFinished':
      return <span>{String(d.status ?? '')}</span>
    case 'NodeFailed':
      return <span className="error">{String(d.errorCode ?? '')}</span>
    case 'Message':
      return <span className="help">{String(d.text ?? '').slice(0, 60)}</span>
    default:
      return <span className="help">{d.runId ? `run ${String(d.runId)}` : ''}</span>
  }
}
