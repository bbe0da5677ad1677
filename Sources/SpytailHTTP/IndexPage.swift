/// `GET /`: what this server offers. (The live dashboard is served here once it exists.)
enum IndexPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>spytail</title></head>
        <body>
        <h1>spytail</h1>
        <p>This is <code>spytail run</code>'s HTTP face. Open <code>/?token=TOKEN</code> once to get a session cookie
        for the API in this browser.</p>
        <ul>
        <li><a href="/metrics">/metrics</a>: Prometheus metrics</li>
        <li><a href="/healthz">/healthz</a>, <a href="/readyz">/readyz</a>: probes</li>
        <li><a href="/api/info">/api/info</a>: build, state, files, outputs, the last problems</li>
        <li><a href="/api/entries">/api/entries</a>: the newest entries (<code>?limit=N&amp;exclude=category:debug&amp;q=TEXT</code>)</li>
        <li><code>/api/stream</code>: the same as server-sent events</li>
        <li><code>POST /api/state</code> <code>{"state":"idle"}</code>, <code>POST /api/reload</code> (bearer token)</li>
        </ul>
        </body></html>
        """
}
