import HTTPTypes
import Hummingbird
import NIOCore
import SpytailCore
import SpytailIO

/// `/api/stream`: server-sent events. `event: entry` (one jsonl record per `data:`, its number as `id:`),
/// `event: skipped` (how many this viewer missed: it fell more than the ring behind), `event: state` on a
/// state change, and a comment every 15 s to keep proxies from closing the connection. A viewer reads the
/// ring at its own pace: a slow one only ever costs itself. A viewer is written at most `writesPerSecond`
/// times a second with at most `entriesPerWrite` entries (20,000 a second; a person cannot read more); when
/// more arrived meanwhile it gets the newest and a `skipped` count, so a burst of millions of lines a second
/// costs the run nothing per viewer beyond that.
extension HTTPFace {
    static var keepAliveSeconds: Double { 15 }
    static var entriesPerWrite: Int { 2000 }
    static var writesPerSecond: Int { 10 }

    func stream(_ request: Request) throws -> Response {
        let filter = try viewFilter(request)
        let recent = telemetry.recent
        var seen = recent.newest
        if let last = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap({ UInt64($0) }) ?? request.uri.queryParameters["after"].flatMap({ UInt64(String($0)) }) {
            seen = min(last, seen)
        }
        guard let (viewer, _, wakeUps) = viewers.enter(recent) else {
            return Self.text(.serviceUnavailable, "too many viewers (http.maxViewers is \(viewers.limit))\n")
        }
        let telemetry = self.telemetry, viewers = self.viewers
        let startFrom = seen
        var response = Response(status: .ok, body: ResponseBody { writer in
            defer { viewers.leave(viewer, recent) }
            var seen = startFrom
            var state = telemetry.current.state
            var lastWrite = RunTelemetry.monotonicSeconds()
            try await writer.write(ByteBuffer(string: "retry: 2000\nevent: state\ndata: {\"state\":\"\(state.rawValue)\"}\n\n"))
            for await _ in wakeUps {
                var out = ByteBuffer()
                let now = telemetry.current.state
                if now != state {
                    state = now
                    out.writeString("event: state\ndata: {\"state\":\"\(state.rawValue)\"}\n\n")
                }
                // Behind by more than one write's worth: jump to the newest, and say how many were skipped.
                let newest = recent.newest
                let from = newest > seen + UInt64(Self.entriesPerWrite) ? newest - UInt64(Self.entriesPerWrite) : seen
                let batch = recent.entries(after: from, limit: Self.entriesPerWrite)
                let missed = (from - seen) + batch.missed
                if missed > 0 {
                    viewers.skipped(Int(missed))
                    out.writeString("event: skipped\ndata: \(missed)\n\n")
                }
                for entry in batch.entries where filter.shows(entry) {
                    out.writeString("event: entry\ndata: ")
                    out.writeBytes(entry.record)
                    out.writeString("\n\n")
                }
                if batch.through > seen { out.writeString("id: \(batch.through)\n\n") }
                seen = max(seen, batch.through)
                let clock = RunTelemetry.monotonicSeconds()
                if out.readableBytes == 0 && clock - lastWrite >= Self.keepAliveSeconds { out.writeString(": keep-alive\n\n") }
                if out.readableBytes > 0 {
                    try await writer.write(out)
                    lastWrite = clock
                }
                // Wake-ups meanwhile are coalesced into one (the stream keeps only the newest).
                try await Task.sleep(for: .milliseconds(1000 / Self.writesPerSecond))
            }
            try await writer.finish(nil)
        })
        response.headers[.contentType] = "text/event-stream"
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return response
    }
}
