/// The inspector's page: markup and styles here, its script in ``InspectorScript``. It loads
/// nothing from elsewhere, so it works without a network.
enum InspectorPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>ActorFSM inspector</title>
        <style>
        \#(styles)
        </style>
        </head>
        <body>
        <header>
          <h1 id="title">ActorFSM</h1>
          <label>Schema <select id="schema"></select></label>
          <span id="total"></span>
          <span id="updated"></span>
        </header>
        <p id="error" hidden></p>
        <main>
          <section id="states">
            <h2>States</h2>
            <div class="side-by-side">
            <div id="diagram"><p class="empty">Loading…</p></div>
            <table id="counts"><thead><tr><th>State</th><th class="number">Machines</th></tr></thead><tbody></tbody></table>
            </div>
          </section>
          <section id="list">
            <h2>Machines</h2>
            <form id="filters">
              <label>State <select name="state"><option value="">any</option></select></label>
              <label>Status <select name="status"><option value="">any</option><option>running</option><option>waiting</option>
                <option>failed</option><option>final</option><option>passivated</option></select></label>
              <label>Idle for at least <input name="olderThan" type="number" min="0" placeholder="0"> minutes</label>
              <label>Version <input name="version" type="number" min="0"></label>
              <label>Machine <input name="id" placeholder="id"></label>
              <button type="submit">Show</button>
            </form>
            <table id="machines">
              <thead><tr><th>Machine</th><th>State</th><th>Status</th><th>Last transition</th><th>Waiting until</th></tr></thead>
              <tbody></tbody>
            </table>
            <p id="machines-empty" class="empty" hidden>No machine matches.</p>
            <button id="more" hidden>More</button>
          </section>
          <section id="machine">
            <h2>Timeline <span id="timeline-id"></span></h2>
            <div id="timeline-summary"><p class="empty">Choose a machine to see what happened to it.</p></div>
            <ol id="timeline"></ol>
          </section>
          <section id="live-section">
            <h2>Live transitions</h2>
            <ol id="live"></ol>
            <p id="live-empty" class="empty">Transitions appear here as they are written.</p>
          </section>
        </main>
        <script>
        \#(InspectorScript.source)
        </script>
        </body>
        </html>

        """#

    private static let styles = """
        :root { color-scheme: light; --accent: #0b57d0; --line: #d8dde3; --muted: #5f6b7a; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d232b; background: #f4f6f8; }
        header { display: flex; gap: 1.5em; align-items: baseline; padding: 12px 20px; background: #1d2733; color: #fff; }
        header h1 { font-size: 18px; margin: 0; }
        header select { font: inherit; }
        #updated { margin-left: auto; color: #b8c4d0; font-size: 12px; }
        #error { margin: 12px 20px; padding: 8px 12px; background: #fde8e8; border: 1px solid #e0a0a0; color: #8a1c1c; }
        main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; padding: 16px 20px; }
        section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 0; }
        #states { grid-column: 1 / -1; }
        h2 { font-size: 15px; margin: 0 0 10px; }
        .side-by-side { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
        #diagram { overflow-x: auto; flex: 1 1 600px; }
        #diagram g.state { cursor: pointer; }
        #diagram g.state:hover rect { stroke: var(--accent); stroke-width: 2; }
        table { border-collapse: collapse; width: 100%; margin-top: 8px; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
        th { font-weight: 600; color: var(--muted); font-size: 12px; }
        .number { text-align: right; }
        #counts { width: auto; min-width: 240px; margin-top: 0; }
        #counts tr { cursor: pointer; }
        form { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; }
        input { width: 7em; font: inherit; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        .status { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 12px; background: #eef1f4; }
        .status-failed { background: #fde2e2; color: #9b1c1c; }
        .status-waiting { background: #fff4d6; color: #7a5600; }
        .status-final { background: #e2f5e7; color: #1f6a35; }
        .status-passivated { background: #ececec; color: #555; }
        .empty { color: var(--muted); }
        .age { color: var(--muted); font-size: 12px; margin-left: 4px; }
        #timeline { list-style: none; padding: 0; margin: 0; }
        #timeline li { border-left: 3px solid var(--line); padding: 4px 0 8px 12px; margin-left: 4px; }
        #timeline li.outcome-failed { border-left-color: #c53030; }
        #timeline li.kind-intent { border-left-style: dashed; }
        #timeline .head { font-weight: 600; }
        #timeline .detail { color: var(--muted); font-size: 12px; }
        pre { margin: 4px 0 0; padding: 4px 6px; background: #f4f6f8; border-radius: 4px; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
        #live { list-style: none; padding: 0; margin: 0; max-height: 420px; overflow-y: auto; }
        #live li { padding: 3px 0; border-bottom: 1px solid var(--line); font-size: 13px; }
        @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
        """
}
