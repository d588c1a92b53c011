// What every page may use of the page around it: navigation, the toast and the banner. It imports
// nothing of ours, so the pages and app.js (which routes to them) import it without a cycle.

let router = () => {};

/** app.js gives the function that shows the page of the current path. */
export function onNavigate(fn) {
  router = fn;
}

export function navigate(path) {
  history.pushState(null, "", path);
  router();
}

let toastTimer = null;
export function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.add("hidden"), 3500);
}

export function banner(text, ok = false) {
  const el = document.getElementById("banner");
  el.textContent = text || "";
  el.classList.toggle("ok", ok);
  el.classList.toggle("hidden", !text);
}

/**
 * `fn` (async) made deaf while a call of it is under way: a double click on "Create the table" or
 * "Join" made two tables, or a seat and then an error that every seat was taken.
 */
export function oneAtATime(fn) {
  let running = false;
  return async (...args) => {
    if (running) return undefined;
    running = true;
    try {
      return await fn(...args);
    } finally {
      running = false;
    }
  };
}
