import { useEffect, useState } from 'react'

// A small path router: the server answers every dashboard path with
// index.html, so links are plain paths and the back button works.

export function navigate(to: string) {
  if (to === location.pathname + location.search) return
  history.pushState(null, '', to)
  window.dispatchEvent(new PopStateEvent('popstate'))
}

export function usePath(): [string, URLSearchParams] {
  const [loc, setLoc] = useState(location.pathname + location.search)
  useEffect(() => {
    const on = () => setLoc(location.pathname + location.search)
    window.addEventListener('popstate', on)
    return () => window.removeEventListener('popstate', on)
  }, [])
  const u = new URL(loc, location.origin)
  return [u.pathname, u.searchParams]
}

/** Matches a pattern like /workflows/:id against a path. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/')
  const b = path.replace(/\/+$/, '').split('/')
  if (a.length !== b.length) return null
  const out: Record<string, string> = {}
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) out[a[i].slice(1)] = decodeURIComponent(b[i])
    else if (a[i] !== b[i]) return null
  }
  return out
}

/** Link is an anchor that navigates without reloading. */
export function onLink(e: React.MouseEvent<HTMLAnchorElement>) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
  e.preventDefault()
  navigate(e.currentTarget.getAttribute('href') ?? '/')
}
