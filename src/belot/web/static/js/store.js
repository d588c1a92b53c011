// What the page keeps in the browser (the language chosen, the name typed, the seats' tokens), never
// in the way of the game: where the browser refuses its storage (site data blocked: reading
// localStorage throws; a full quota: writing throws), the values live in memory for the page's life.
// It imports nothing.

const memory = new Map();

function area() {
  try {
    const s = window.localStorage;
    void s.length;
    return s;
  } catch {
    return null;
  }
}

/** The value stored under ``key``, or null. Memory holds only what the browser refused to store: it is
 * the newer value; everything else is read from the browser, as another tab of the site left it. */
export function load(key) {
  if (memory.has(key)) return memory.get(key);
  const s = area();
  try { return s ? s.getItem(key) : null; } catch { return null; }
}

export function save(key, value) {
  const s = area();
  try {
    if (s) {
      s.setItem(key, String(value));
      memory.delete(key);
      return;
    }
  } catch { /* refused: kept in memory */ }
  memory.set(key, String(value));
}

export function remove(key) {
  memory.delete(key);
  const s = area();
  try { if (s) s.removeItem(key); } catch { /* gone from memory */ }
}

/** Every key stored, in the browser or in memory. */
export function keys() {
  const out = new Set(memory.keys());
  const s = area();
  try {
    for (let i = 0; s && i < s.length; i++) {
      const k = s.key(i);
      if (k !== null) out.add(k);
    }
  } catch { /* the memory's keys */ }
  return [...out];
}
