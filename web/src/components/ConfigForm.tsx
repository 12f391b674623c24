import { useEffect, useId, useState } from 'react'

/** The part of a JSON Schema the form reads. */
export interface Schema {
  type?: string
  description?: string
  properties?: Record<string, Schema>
  required?: string[]
  enum?: string[]
  default?: unknown
  minimum?: number
  maximum?: number
  maxLength?: number
  items?: Schema
  'x-wetel-format'?: string
}

interface Props {
  schema: Schema
  value: Record<string, unknown>
  onChange: (v: Record<string, unknown>) => void
  /** Problems by top-level config field. */
  errors: Map<string, string[]>
  disabled?: boolean
}

/**
 * A node's config as a form generated from its nodeConfigSchema: one input
 * per property, by type, and a JSON box for objects and arrays. Fields the
 * schema does not know stay in the config untouched (the save check names
 * them).
 */
export function ConfigForm({ schema, value, onChange, errors, disabled }: Props) {
  const props = schema.properties ?? {}
  const req = new Set(schema.required ?? [])
  const names = Object.keys(props).sort((a, b) => {
    const ra = req.has(a) ? 0 : a === 'maxVisits' ? 2 : 1
    const rb = req.has(b) ? 0 : b === 'maxVisits' ? 2 : 1
    return ra - rb || a.localeCompare(b)
  })
  const set = (name: string, v: unknown) => {
    const next = { ...value }
    if (v === undefined) delete next[name]
    else next[name] = v
    onChange(next)
  }
  const unknown = Object.keys(value).filter((k) => !(k in props))
  return (
    <div className="config-form">
      {names.map((n) => (
        <Field
          key={n}
          name={n}
          schema={props[n]}
          required={req.has(n)}
          value={value[n]}
          onChange={(v) => set(n, v)}
          errors={errors.get(n) ?? []}
          disabled={disabled}
        />
      ))}
      {unknown.map((n) => (
        <div key={n} className="field field-error">
          <span className="field-name">{n}</span>
          <p className="error">Not a field of this node type.</p>
          {(errors.get(n) ?? []).map((e) => (
            <p key={e} className="error" role="alert">
              {e}
            </p>
          ))}
          {!disabled && (
            <button type="button" onClick={() => set(n, undefined)}>
              Remove {n}
            </button>
          )}
        </div>
      ))}
    </div>
  )
}

function Field(p: {
  name: string
  schema: Schema
  required: boolean
  value: unknown
  onChange: (v: unknown) => void
  errors: string[]
  disabled?: boolean
}) {
  const id = useId()
  const s = p.schema
  const fmt = s['x-wetel-format']
  let input: React.ReactNode
  const describedBy = `${id}-help${p.errors.length ? ` ${id}-err` : ''}`
  const common = {
    id,
    disabled: p.disabled,
    'aria-describedby': describedBy,
    'aria-invalid': p.errors.length > 0 || undefined,
    'data-field': p.name,
  }
  if (s.type === 'string' && s.enum) {
    input = (
      <select {...common} value={typeof p.value === 'string' ? p.value : ''} onChange={(e) => p.onChange(e.target.value || undefined)}>
        <option value="">{p.required ? 'choose…' : '(unset)'}</option>
        {s.enum.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    )
  } else if (s.type === 'string') {
    const v = typeof p.value === 'string' ? p.value : p.value === undefined ? '' : JSON.stringify(p.value)
    const long = fmt === 'template' || fmt === 'json-template' || (s.maxLength ?? 0) > 256
    input = long ? (
      <textarea {...common} rows={4} value={v} onChange={(e) => p.onChange(e.target.value === '' && !p.required ? undefined : e.target.value)} />
    ) : (
      <input {...common} type="text" value={v} onChange={(e) => p.onChange(e.target.value === '' && !p.required ? undefined : e.target.value)} />
    )
  } else if (s.type === 'integer' || s.type === 'number') {
    input = (
      <input
        {...common}
        type="number"
        min={s.minimum}
        max={s.maximum}
        step={s.type === 'integer' ? 1 : 'any'}
        placeholder={s.default !== undefined ? String(s.default) : ''}
        value={typeof p.value === 'number' ? p.value : ''}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    )
  } else if (s.type === 'boolean') {
    input = (
      <select
        {...common}
        value={p.value === true ? 'true' : p.value === false ? 'false' : ''}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : e.target.value === 'true')}
      >
        <option value="">(default{s.default !== undefined ? `: ${String(s.default)}` : ''})</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    )
  } else {
    input = <JsonField common={common} value={p.value} onChange={p.onChange} />
  }
  return (
    <div className={`field ${p.errors.length ? 'field-error' : ''}`}>
      <label htmlFor={id} className="field-name">
        {p.name}
        {p.required && <span aria-label="required"> *</span>}
        {fmt && <span className="field-format"> {fmt}</span>}
      </label>
      {input}
      <p id={`${id}-help`} className="help">
        {s.description}
      </p>
      {p.errors.length > 0 && (
        <div id={`${id}-err`} role="alert">
          {p.errors.map((e) => (
            <p key={e} className="error">
              {e}
            </p>
          ))}
        </div>
      )}
    </div>
  )
}

/** A JSON value edited as text; it is passed on only when it parses. */
export function JsonField({
  common,
  value,
  onChange,
  rows = 5,
}: {
  common: Record<string, unknown>
  value: unknown
  onChange: (v: unknown) => void
  rows?: number
}) {
  const text = value === undefined ? '' : JSON.stringify(value, null, 2)
  const [draft, setDraft] = useState(text)
  const [bad, setBad] = useState('')
  useEffect(() => {
    setDraft((d) => {
      try {
        if (d.trim() !== '' && JSON.stringify(JSON.parse(d)) === JSON.stringify(value)) return d
      } catch {
        /* keep the user's unparsed text only while it differs */
      }
      return text
    })
  }, [text, value])
  return (
    <>
      <textarea
        {...common}
        className="json"
        rows={rows}
        spellCheck={false}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value)
          if (e.target.value.trim() === '') {
            setBad('')
            onChange(undefined)
            return
          }
          try {
            const v = JSON.parse(e.target.value)
            setBad('')
            onChange(v)
          } catch (err) {
            setBad(err instanceof Error ? err.message : 'not JSON')
          }
        }}
      />
      {bad && <p className="error">Not valid JSON yet: {bad}</p>}
    </>
  )
}
