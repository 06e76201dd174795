// The inspector page's script: it reads the JSON endpoints, draws what they answer, and polls
// the change feed every second. Data from the store only ever reaches the page as text.
//
// The page's address can choose what it shows: `#schema=FINGERPRINT&state=NAME&machine=ID`,
// each part optional, each value percent-encoded. `#token=TOKEN`, from the address an inspector
// with actions prints, is kept for this tab (sessionStorage) and taken out of the address.
"use strict";
const view = { schemas: [], counts: [], fingerprint: null, cursor: null, newest: null, feed: null, machine: null,
  timelineRequest: 0, recount: 0, addressState: true, actions: false };
const errors = new Map();
const $ = (id) => document.getElementById(id);
// The endpoints sit beside the page: under /inspector/ when it is served at /inspector.
const base = location.pathname.endsWith("/") ? "" : location.pathname.split("/").pop() + "/";

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) if (child != null) node.append(child);
  return node;
}

// A query string whose values are percent-encoded (a space as %20, not +).
function query(parameters) {
  return Object.entries(parameters).filter(([, value]) => value != null && value !== "")
    .map(([name, value]) => name + "=" + encodeURIComponent(value)).join("&");
}

async function getJSON(path) {
  const response = await fetch(base + path, { cache: "no-store" });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// Each part of the page reports its own error, and clears only its own.
function report(source, error) {
  if (error == null) errors.delete(source); else errors.set(source, String(error.message || error));
  $("error").hidden = errors.size === 0;
  $("error").textContent = [...errors.values()].join(" · ");
}

function guarded(source, work) {
  return work().then(() => report(source, null), (error) => report(source, error));
}

function time(ms) {
  const date = new Date(ms);
  return ms && !isNaN(date) ? date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") : "—";
}

function age(ms) {
  if (!ms) return "";
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return seconds + " s ago";
  if (seconds < 3600) return Math.round(seconds / 60) + " min ago";
  if (seconds < 86400) return Math.round(seconds / 3600) + " h ago";
  return Math.round(seconds / 86400) + " d ago";
}

function status(text) { return element("span", { class: "status status-" + text }, text); }

function machineLink(id) {
  return element("a", { href: "#" + query({ schema: view.fingerprint, machine: id }), class: "machine-link" }, id);
}

function schema() { return view.schemas.find((s) => s.fingerprint === view.fingerprint); }

function countsOf(fingerprint) {
  const counts = new Map();
  for (const count of view.counts) if (count.fingerprint === fingerprint) counts.set(count.state, count.count);
  return counts;
}

function address() {
  const parts = new Map();
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const equals = part.indexOf("=");
    if (equals < 0) continue;
    try { parts.set(part.slice(0, equals), decodeURIComponent(part.slice(equals + 1))); } catch { }
  }
  return parts;
}

// Loads the schemas and counts; returns whether the schema shown changed.
async function loadOverview() {
  const overview = await getJSON("api/overview");
  $("title").textContent = overview.title;
  document.title = overview.title + " — ActorFSM inspector";
  const known = view.schemas.map((s) => s.fingerprint).join();
  view.schemas = overview.schemas;
  view.counts = overview.counts;
  view.actions = overview.actions === true;
  const select = $("schema");
  if (view.schemas.map((s) => s.fingerprint).join() !== known) {
    select.replaceChildren(...view.schemas.map((s) =>
      element("option", { value: s.fingerprint }, s.name + " v" + s.schemaVersion + " (" + s.fingerprint + ")")));
  }
  const shown = view.fingerprint;
  if (!schema()) {
    // The schema the address names, else the one with the most machines.
    const named = address().get("schema");
    const total = (s) => [...countsOf(s.fingerprint).values()].reduce((a, b) => a + b, 0);
    const busiest = [...view.schemas].sort((a, b) => total(b) - total(a))[0];
    view.fingerprint = view.schemas.some((s) => s.fingerprint === named) ? named : busiest ? busiest.fingerprint : null;
  }
  select.value = view.fingerprint || "";
  return view.fingerprint !== shown;
}

async function drawDiagram() {
  if (!view.fingerprint) {
    $("diagram").replaceChildren(element("p", { class: "empty" }, "No schema has written to this store yet."));
    return;
  }
  const response = await fetch(base + "api/diagram.svg?" + query({ fingerprint: view.fingerprint }), { cache: "no-store" });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
  $("diagram").innerHTML = await response.text();
  for (const group of $("diagram").querySelectorAll("g.state")) {
    group.addEventListener("click", () => filterByState(group.dataset.state));
  }
  const states = $("filters").elements.state;
  // The address's state applies to the first drawing only: later the user chooses.
  const chosen = states.value || (view.addressState ? address().get("state") || "" : "");
  view.addressState = false;
  states.replaceChildren(element("option", { value: "" }, "any"),
    ...schema().states.map((name) => element("option", { value: name }, name)));
  states.value = schema().states.includes(chosen) ? chosen : "";
}

function showCounts() {
  const counts = countsOf(view.fingerprint);
  const current = schema();
  let total = 0;
  const rows = (current ? current.states : []).map((name) => {
    const count = counts.get(name) || 0;
    total += count;
    const row = element("tr", { "data-state": name }, element("td", {}, name),
      element("td", { class: "number count" }, String(count)));
    row.addEventListener("click", () => filterByState(name));
    return row;
  });
  $("counts").tBodies[0].replaceChildren(...rows);
  $("total").textContent = current ? total + " machines" : "";
  for (const group of $("diagram").querySelectorAll("g.state")) {
    const count = counts.get(group.dataset.state) || 0;
    group.querySelector(".count").textContent = String(count);
    group.classList.toggle("occupied", count > 0);
    group.querySelector("rect").setAttribute("fill", count > 0 ? "#e8f1ff" : "#f7f7f7");
  }
  $("updated").textContent = "updated " + new Date().toLocaleTimeString();
}

function filterByState(name) {
  $("filters").elements.state.value = name;
  guarded("list", () => loadMachines(false));
}

// The list's filters, as the listing and an act on every listed machine send them.
function listFilter() {
  const form = $("filters").elements;
  const minutes = form.olderThan.value;
  // A store of one schema is listed without naming it, which stores answer faster.
  return {
    fingerprint: view.schemas.length > 1 ? view.fingerprint : "", state: form.state.value, status: form.status.value,
    olderThan: minutes ? String(Math.round(Number(minutes) * 60)) : "", version: form.version.value,
  };
}

async function loadMachines(append) {
  const parameters = { ...listFilter(), limit: "50", after: append ? view.cursor : null };
  const page = await getJSON("api/machines?" + query(parameters));
  showBulkActions();
  const rows = page.machines.map((machine) => element("tr", { "data-machine": machine.id },
    element("td", {}, machineLink(machine.id)), element("td", { class: "state" }, machine.state),
    element("td", {}, status(machine.status)),
    element("td", {}, time(machine.lastTransition), element("span", { class: "age" }, age(machine.lastTransition))),
    element("td", {}, machine.waitingUntil ? time(machine.waitingUntil) : "")));
  const body = $("machines").tBodies[0];
  if (append) body.append(...rows); else body.replaceChildren(...rows);
  view.cursor = page.next;
  $("more").hidden = page.next == null;
  $("machines-empty").hidden = body.rows.length > 0;
}

function entryItem(entry, notes) {
  const head = "#" + entry.sequenceNumber + " " + entry.kind + (entry.state ? " → " + entry.state : "")
    + (entry.outcome && entry.outcome !== "transitioned" ? " (" + entry.outcome + ")" : "");
  const details = [];
  if (entry.time) details.push(time(entry.time));
  if (entry.event) details.push((entry.origin ? entry.origin + " " : "") + entry.event);
  if (entry.predicates.length) details.push("predicates " + entry.predicates.join(", "));
  for (const pending of entry.pending) {
    details.push(pending.kind + " " + pending.event + (pending.due ? " due " + time(pending.due) : ""));
  }
  if (entry.timeoutsFired) details.push(entry.timeoutsFired + " timeout(s) fired");
  if (entry.retry) details.push("retry attempt " + entry.retry.attempt + " at " + time(entry.retry.due));
  if (entry.state && notes.has(entry.state)) details.push(notes.get(entry.state).join(", "));
  if (entry.operation) details.push(entry.operation.verb + (entry.operation.reason ? ": " + entry.operation.reason : ""));
  if (entry.isPaused) details.push("paused");
  if (entry.childrenEnded && entry.childrenEnded.length) details.push("children ended: places " + entry.childrenEnded.join(", "));
  if (entry.cancelling && entry.cancelling.length) details.push("cancelling children " + entry.cancelling.join(", "));
  const item = element("li", { class: "kind-" + entry.kind + (entry.outcome ? " outcome-" + entry.outcome : "") },
    element("div", { class: "head" }, head), element("div", { class: "detail" }, details.join(" · ")));
  // A parent's entry links to the children its state started: their timelines, by id.
  if (entry.children && entry.children.length) {
    item.append(element("div", { class: "children" }, "children ",
      ...entry.children.flatMap((id, index) => (index ? [", "] : [])
        .concat([element("a", { href: "#" + query({ machine: id }), "data-child": id }, id)]))));
  }
  if (entry.data) item.append(element("pre", { class: "data" }, entry.data));
  return item;
}

async function showMachine(id) {
  view.machine = id;
  const request = ++view.timelineRequest;
  $("timeline-id").textContent = id;
  const timeline = await getJSON("api/machine?" + query({ id }));
  // A newer choice, or a newer read of the same machine, may have been answered meanwhile.
  if (request !== view.timelineRequest) return;
  const machine = timeline.machine;
  const owner = view.schemas.find((s) => s.fingerprint === machine.fingerprint);
  const notes = new Map(Object.entries(owner ? owner.notes : {}));
  $("timeline-summary").replaceChildren(element("p", {}, machine.state + " ", status(machine.status),
    " · " + (owner ? owner.name + " v" + owner.schemaVersion : machine.fingerprint),
    " · last transition " + time(machine.lastTransition),
    machine.waitingUntil ? " · waiting until " + time(machine.waitingUntil) : ""));
  $("timeline").replaceChildren(...timeline.history.map((entry) => entryItem(entry, notes)));
  showActions(machine);
}

// The verbs that can change a machine with `status`.
function verbsFor(status) {
  if (status === "final" || status === "cancelled" || status === "purged") return [];
  return [status === "paused" ? "resume" : "pause", ...(status === "failed" ? ["retry"] : []), "cancel"];
}

// The operator's verbs on the machine shown, when the inspector has actions: a field for the
// token if this tab has none, else one for the reason and a button per verb.
function showActions(machine) {
  const bar = $("actions");
  bar.hidden = !view.actions;
  bar.dataset.machine = machine.id;
  if (!view.actions) return;
  const token = sessionStorage.getItem("actorfsm-token");
  if (!token) {
    const field = element("input", { id: "token", type: "password", placeholder: "token", autocomplete: "off" });
    const use = element("button", { type: "button" }, "Use token");
    use.addEventListener("click", () => {
      if (field.value.trim()) sessionStorage.setItem("actorfsm-token", field.value.trim());
      showActions(machine);
    });
    bar.replaceChildren("Acting needs the token the inspector printed:", field, use);
    return;
  }
  const verbs = verbsFor(machine.status);
  if (verbs.length === 0) {
    bar.replaceChildren(element("span", { class: "empty" }, "A " + machine.status + " machine takes no act."));
    return;
  }
  const reason = element("input", { id: "reason", placeholder: "reason (kept in its history)", maxlength: "500" });
  const buttons = verbs.map((verb) => {
    const button = element("button", { type: "button", "data-verb": verb, class: "verb-" + verb }, verb);
    button.addEventListener("click", () => guarded("act", () => act({ verb, machine: machine.id, reason: reason.value.trim() })));
    return button;
  });
  if (machine.status === "paused") { bar.replaceChildren(reason, ...buttons); return; }
  // A signal: an event the application's code processes, named as it prints, its values as JSON.
  const event = element("input", { id: "signal-event", placeholder: "event", maxlength: "200" });
  const payload = element("input", { id: "signal-payload", placeholder: "values as JSON (optional)", maxlength: "4000" });
  const signal = element("button", { type: "button", "data-verb": "signal", class: "verb-signal" }, "signal");
  signal.addEventListener("click", () => guarded("act", () => act({
    verb: "signal", machine: machine.id, reason: reason.value.trim(), event: event.value.trim(),
    ...(payload.value.trim() ? { payload: payload.value.trim() } : {}),
  })));
  bar.replaceChildren(reason, ...buttons, element("span", { class: "signal" }, event, payload, signal));
}

async function act(body) {
  const id = body.machine;
  if (!body.reason) throw new Error("Say why first: the reason is kept in the machine's history");
  if (body.verb === "signal" && !body.event) throw new Error("Name the event to send first");
  if (body.verb === "cancel" && !confirm("Cancel " + id + " for good?")) return;
  try {
    await postAct(body);
  } catch (error) {
    // A wrong or stale token: ask for it again.
    if (!sessionStorage.getItem("actorfsm-token") && view.machine === id) await showMachine(id).catch(() => {});
    throw error;
  }
  if (view.machine === id) await showMachine(id);
  await loadMachines(false);
  await loadOverview();
  showCounts();
}

// An act on every machine the list's filters select, when the inspector has actions and this
// tab has the token: a verb, a reason, and a count to confirm before anything changes.
function showBulkActions() {
  const bar = $("bulk-actions");
  bar.hidden = !view.actions || !sessionStorage.getItem("actorfsm-token");
  if (bar.hidden || bar.childElementCount > 0) return;
  const verbs = ["pause", "resume", "retry", "cancel", "signal"];
  const verb = element("select", { id: "bulk-verb" }, ...verbs.map((v) => element("option", {}, v)));
  const reason = element("input", { id: "bulk-reason", placeholder: "reason (kept in each history)", maxlength: "500" });
  const event = element("input", { id: "bulk-event", placeholder: "event", maxlength: "200", hidden: "" });
  verb.addEventListener("change", () => { event.hidden = verb.value !== "signal"; });
  const button = element("button", { type: "button", id: "bulk-act" }, "Act on every machine listed");
  const result = element("span", { id: "bulk-result" });
  button.addEventListener("click", () => guarded("act", () => actOnList({
    verb: verb.value, reason: reason.value.trim(), ...(verb.value === "signal" ? { event: event.value.trim() } : {}),
  }, result)));
  bar.replaceChildren(verb, event, reason, button, result);
}

async function actOnList(act, result) {
  const verb = act.verb;
  if (!act.reason) throw new Error("Say why first: the reason is kept in each machine's history");
  if (verb === "signal" && !act.event) throw new Error("Name the event to send first");
  const filter = query(listFilter());
  const preview = await postAct({ ...act, filter, dryRun: true });
  const count = preview.report.selected;
  if (count === 0) { result.textContent = "No listed machine can be changed by " + verb + "."; return; }
  const first = preview.report.firstIDs.slice(0, 5).join(", ") + (count > 5 ? ", …" : "");
  if (!confirm(verb + " " + count + " machines (" + first + ")?")) return;
  const done = (await postAct({ ...act, filter })).report;
  result.textContent = verb + ": " + done.changed + " of " + done.selected + " machines changed"
    + done.failures.map((f) => "; " + f.machine + ": " + f.reason).join("");
  await loadMachines(false);
  await loadOverview();
  showCounts();
}

// Sends an act; its answer, or an error with the inspector's message.
async function postAct(body) {
  const response = await fetch(base + "api/act", {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + sessionStorage.getItem("actorfsm-token") },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (response.status === 401) sessionStorage.removeItem("actorfsm-token");
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// Keeps a token the address carries for this tab, and takes it out of the address, so that
// it is neither shown nor kept in the history.
function takeToken() {
  const parts = address();
  if (!parts.has("token")) return;
  sessionStorage.setItem("actorfsm-token", parts.get("token"));
  parts.delete("token");
  history.replaceState(null, "", location.pathname + location.search + "#" + query(Object.fromEntries(parts)));
}

// Loads again what failed to load (the store was down, say), before the next poll.
async function reloadFailed() {
  if (errors.has("overview")) await guarded("overview", async () => {
    await loadOverview();
    await drawDiagram();
    showCounts();
  });
  if (errors.has("list")) await guarded("list", () => loadMachines(false));
  if (errors.has("timeline")) await guarded("timeline", route);
}

async function poll() {
  await reloadFailed();
  const changes = await getJSON("api/changes?" + query({ after: changesAfter(), feed: view.feed }));
  if (changes.feed !== view.feed) {
    // A feed of a server started since: its numbers start again.
    view.feed = changes.feed;
    $("live").replaceChildren();
  }
  view.newest = changes.newest;
  if (changes.changes.length === 0) {
    // The server reads the counts at most once a second: ask again after a change, so
    // that the counts the page keeps are read after it.
    if (view.recount > 0) {
      view.recount -= 1;
      await loadOverview();
      showCounts();
    }
    return;
  }
  view.recount = 2;
  const list = $("live");
  for (const change of changes.changes) {
    const machine = change.machine;
    list.prepend(element("li", { "data-machine": machine.id }, time(machine.lastTransition) + " ", machineLink(machine.id),
      " #" + machine.sequenceNumber + " → ", element("span", { class: "state" }, machine.state), " ", status(machine.status)));
  }
  while (list.children.length > 200) list.lastChild.remove();
  $("live-empty").hidden = true;
  if (await loadOverview()) {
    await drawDiagram();
    await loadMachines(false);
  }
  showCounts();
  if (view.machine && changes.changes.some((change) => change.machine.id === view.machine)) await showMachine(view.machine);
}

function changesAfter() { return view.feed == null ? null : String(view.newest); }

async function route() {
  const id = address().get("machine");
  if (id) await showMachine(id);
}

// Polls once a second, one poll at a time.
function keepPolling() {
  guarded("live", poll).finally(() => setTimeout(keepPolling, 1000));
}

async function start() {
  takeToken();
  await guarded("overview", async () => {
    await loadOverview();
    await drawDiagram();
    showCounts();
  });
  await guarded("list", () => loadMachines(false));
  await guarded("timeline", route);
}

$("schema").addEventListener("change", () => {
  view.fingerprint = $("schema").value;
  guarded("overview", async () => {
    await drawDiagram();
    showCounts();
    await loadMachines(false);
  });
});
$("filters").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = $("filters").elements.id.value.trim();
  if (id) location.hash = query({ schema: view.fingerprint, machine: id });
  guarded("list", () => loadMachines(false));
});
$("more").addEventListener("click", () => guarded("list", () => loadMachines(true)));
window.addEventListener("hashchange", () => guarded("timeline", route));
start().finally(() => {
  document.body.dataset.ready = errors.size === 0 ? "true" : "failed";
  keepPolling();
});
