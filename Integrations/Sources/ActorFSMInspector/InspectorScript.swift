/// The inspector page's script: it reads the JSON endpoints, draws what they answer, and polls
/// the change feed every second. Data from the store only ever reaches the page as text.
enum InspectorScript {
    static let source = #"""
        "use strict";
        const view = { schemas: [], counts: [], fingerprint: null, cursor: null, newest: null, machine: null };
        const $ = (id) => document.getElementById(id);
        // The endpoints sit beside the page: under /inspector/ when it is served at /inspector.
        const base = location.pathname.endsWith("/") ? "" : location.pathname.split("/").pop() + "/";

        function element(tag, attributes, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
          for (const child of children) if (child != null) node.append(child);
          return node;
        }

        async function getJSON(path) {
          const response = await fetch(base + path, { cache: "no-store" });
          const body = await response.json();
          if (!response.ok) throw new Error(body.error || response.statusText);
          return body;
        }

        function showError(error) {
          $("error").hidden = error == null;
          $("error").textContent = error == null ? "" : String(error.message || error);
        }

        function time(ms) {
          return ms ? new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") : "—";
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
          const link = element("a", { href: "#machine=" + encodeURIComponent(id), class: "machine-link" }, id);
          return link;
        }

        function schema() { return view.schemas.find((s) => s.fingerprint === view.fingerprint); }

        async function loadOverview() {
          const overview = await getJSON("api/overview");
          $("title").textContent = overview.title;
          document.title = overview.title + " — ActorFSM inspector";
          view.schemas = overview.schemas;
          view.counts = overview.counts;
          const select = $("schema");
          if (select.options.length !== view.schemas.length) {
            select.replaceChildren(...view.schemas.map((s) =>
              element("option", { value: s.fingerprint }, s.name + " v" + s.schemaVersion + " (" + s.fingerprint + ")")));
          }
          if (!schema() && view.schemas.length > 0) view.fingerprint = view.schemas[0].fingerprint;
          select.value = view.fingerprint || "";
        }

        async function drawDiagram() {
          if (!view.fingerprint) {
            $("diagram").replaceChildren(element("p", { class: "empty" }, "No schema has written to this store yet."));
            return;
          }
          const response = await fetch(base + "api/diagram.svg?fingerprint=" + encodeURIComponent(view.fingerprint), { cache: "no-store" });
          if (!response.ok) throw new Error((await response.json()).error);
          $("diagram").innerHTML = await response.text();
          for (const group of $("diagram").querySelectorAll("g.state")) {
            group.addEventListener("click", () => filterByState(group.dataset.state));
          }
          const states = $("filters").elements.state;
          const chosen = states.value;
          states.replaceChildren(element("option", { value: "" }, "any"),
            ...schema().states.map((name) => element("option", { value: name }, name)));
          states.value = chosen;
        }

        function showCounts() {
          const counts = {};
          for (const count of view.counts) if (count.fingerprint === view.fingerprint) counts[count.state] = count.count;
          const current = schema();
          const names = current ? current.states : [];
          let total = 0;
          const rows = names.map((name) => {
            const count = counts[name] || 0;
            total += count;
            const row = element("tr", { "data-state": name }, element("td", {}, name),
              element("td", { class: "number count" }, String(count)));
            row.addEventListener("click", () => filterByState(name));
            return row;
          });
          $("counts").tBodies[0].replaceChildren(...rows);
          $("total").textContent = current ? total + " machines" : "";
          for (const group of $("diagram").querySelectorAll("g.state")) {
            const count = counts[group.dataset.state] || 0;
            group.querySelector(".count").textContent = String(count);
            group.classList.toggle("occupied", count > 0);
            group.querySelector("rect").setAttribute("fill", count > 0 ? "#e8f1ff" : "#f7f7f7");
          }
          $("updated").textContent = "updated " + new Date().toLocaleTimeString();
        }

        function filterByState(name) {
          $("filters").elements.state.value = name;
          loadMachines(false).catch(showError);
        }

        function machineQuery() {
          const form = $("filters").elements;
          const parameters = new URLSearchParams({ fingerprint: view.fingerprint || "", limit: "50" });
          if (form.state.value) parameters.set("state", form.state.value);
          if (form.status.value) parameters.set("status", form.status.value);
          if (form.olderThan.value) parameters.set("olderThan", String(Math.round(Number(form.olderThan.value) * 60)));
          if (form.version.value) parameters.set("version", form.version.value);
          return parameters;
        }

        async function loadMachines(append) {
          const parameters = machineQuery();
          if (append && view.cursor) parameters.set("after", view.cursor);
          const page = await getJSON("api/machines?" + parameters);
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
          if (entry.state && notes[entry.state]) details.push(notes[entry.state].join(", "));
          if (entry.childrenEnded && entry.childrenEnded.length) details.push("children ended: places " + entry.childrenEnded.join(", "));
          if (entry.cancelling && entry.cancelling.length) details.push("cancelling children " + entry.cancelling.join(", "));
          const item = element("li", { class: "kind-" + entry.kind + (entry.outcome ? " outcome-" + entry.outcome : "") },
            element("div", { class: "head" }, head), element("div", { class: "detail" }, details.join(" · ")));
          if (entry.data) item.append(element("pre", { class: "data" }, entry.data));
          return item;
        }

        async function showMachine(id) {
          view.machine = id;
          $("timeline-id").textContent = id;
          const timeline = await getJSON("api/machine?id=" + encodeURIComponent(id));
          const machine = timeline.machine;
          const owner = view.schemas.find((s) => s.fingerprint === machine.fingerprint);
          const notes = owner ? owner.notes : {};
          $("timeline-summary").replaceChildren(element("p", {}, machine.state + " ", status(machine.status),
            " · " + (owner ? owner.name + " v" + owner.schemaVersion : machine.fingerprint),
            " · last transition " + time(machine.lastTransition),
            machine.waitingUntil ? " · waiting until " + time(machine.waitingUntil) : ""));
          $("timeline").replaceChildren(...timeline.history.map((entry) => entryItem(entry, notes)));
        }

        async function poll() {
          const changes = await getJSON("api/changes" + (view.newest == null ? "" : "?after=" + view.newest));
          view.newest = changes.newest;
          if (changes.changes.length === 0) return;
          const list = $("live");
          for (const change of changes.changes) {
            const machine = change.machine;
            list.prepend(element("li", { "data-machine": machine.id }, time(machine.lastTransition) + " ", machineLink(machine.id),
              " #" + machine.sequenceNumber + " → ", element("span", { class: "state" }, machine.state), " ", status(machine.status)));
          }
          while (list.children.length > 200) list.lastChild.remove();
          $("live-empty").hidden = true;
          await loadOverview();
          showCounts();
          if (view.machine && changes.changes.some((change) => change.machine.id === view.machine)) await showMachine(view.machine);
        }

        async function route() {
          const match = /^#machine=(.*)$/.exec(location.hash);
          if (match) await showMachine(decodeURIComponent(match[1]));
        }

        async function start() {
          await loadOverview();
          await drawDiagram();
          showCounts();
          await loadMachines(false);
          await route();
          await poll();
        }

        $("schema").addEventListener("change", () => {
          view.fingerprint = $("schema").value;
          drawDiagram().then(showCounts).then(() => loadMachines(false)).catch(showError);
        });
        $("filters").addEventListener("submit", (event) => {
          event.preventDefault();
          const id = $("filters").elements.id.value.trim();
          if (id) location.hash = "machine=" + encodeURIComponent(id);
          loadMachines(false).then(() => showError(null)).catch(showError);
        });
        $("more").addEventListener("click", () => loadMachines(true).catch(showError));
        window.addEventListener("hashchange", () => route().then(() => showError(null)).catch(showError));
        start().then(() => {
          document.body.dataset.ready = "true";
          setInterval(() => poll().then(() => showError(null)).catch(showError), 1000);
        }).catch((error) => { showError(error); document.body.dataset.ready = "failed"; });
        """#
}
